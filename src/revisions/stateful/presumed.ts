/**
 * A handshake presumed instead of received. A Streamable HTTP server without sessions answers a
 * client's `initialize` on one POST and each later request on a fresh connection, which never saw
 * that handshake; such a request is served as if it had happened there, at the revision the POST
 * names (spec 2025-11-25: basic/transports § Session Management, § Protocol Version Header).
 */
import type { MessageGate } from "../../jsonrpc/gate.js";
import type { ClientCapabilities } from "../model.js";
import type { Revision } from "../revision.js";
import { createEntryGate, type StatelessGate } from "../stateless/gate.js";
import { STATEFUL_VERSIONS, type StatefulVersion } from "../versions.js";
import { createGate } from "./gate.js";
import { STATEFUL_REVISIONS } from "./revisions.js";

/**
 * The revision a request without `MCP-Protocol-Version` is taken to speak: the server "SHOULD
 * assume protocol version 2025-03-26" (spec 2025-11-25: basic/transports § Protocol Version Header).
 */
const VERSION_WITHOUT_HEADER: StatefulVersion = "2025-03-26";

/** What a presumed handshake agreed. */
export interface PresumedHandshake {
  /** The revision the request is served at. */
  readonly revision: Revision;
  /**
   * Nothing: what the client declared in its `initialize` is not known here, so the server sends
   * it no request that needs a capability (elicitation, sampling, roots) and hands off as to a
   * client without URL-mode elicitation.
   */
  readonly clientCapabilities: ClientCapabilities;
  /**
   * Whether the handshake was a session's `initialize` answered by another instance of a fleet:
   * the connection then serves that revision only, as after its own `initialize`; otherwise
   * (a server without sessions) requests of the stateless era are served too.
   */
  readonly session: boolean;
}

/**
 * The handshake to presume for a request whose `MCP-Protocol-Version` header is `headerVersion`
 * (`undefined` when it sent none, which means 2025-03-26). `undefined` for a version that is not
 * a stateful revision this package speaks: such a request is not served as if initialized (the
 * HTTP server answers an unsupported version with 400 before it gets here).
 */
export function presumeHandshake(headerVersion: string | undefined): PresumedHandshake | undefined {
  const version = headerVersion ?? VERSION_WITHOUT_HEADER;
  if (!(STATEFUL_VERSIONS as readonly string[]).includes(version)) return undefined;
  return { revision: STATEFUL_REVISIONS[version as StatefulVersion], clientCapabilities: {}, session: false };
}

/**
 * The handshake of a session that another instance of a fleet answered: `protocolVersion` is the
 * revision its `initialize` agreed, `clientCapabilities` what the client declared there.
 * `undefined` for a version that is not a stateful revision this package speaks (such a session
 * cannot be served here: the HTTP server answers it as unknown).
 */
export function presumeSession(
  protocolVersion: string | undefined,
  clientCapabilities: Record<string, unknown>,
): PresumedHandshake | undefined {
  if (protocolVersion === undefined || !(STATEFUL_VERSIONS as readonly string[]).includes(protocolVersion)) {
    return undefined;
  }
  const revision = STATEFUL_REVISIONS[protocolVersion as StatefulVersion];
  return { revision, clientCapabilities: clientCapabilities as ClientCapabilities, session: true };
}

/** `notifications/initialized` taken as sent. */
const INITIALIZED = { initialized: true } as const;

/**
 * The server gate of a connection whose handshake is presumed: requests of the stateless era still
 * go to `stateless` (as on any fresh connection), everything else is checked and encoded as after
 * an `initialize` at the presumed revision, `notifications/initialized` taken as sent.
 */
export function createPresumedGate(presumed: PresumedHandshake, stateless: StatelessGate): MessageGate {
  const negotiated = createGate(presumed.revision, {
    role: "server",
    peerCapabilities: presumed.clientCapabilities as Record<string, unknown>,
    initialized: INITIALIZED,
  });
  // A session's own handshake installs the negotiated gate alone, which refuses the other era.
  return presumed.session ? negotiated : createEntryGate(stateless, negotiated);
}
