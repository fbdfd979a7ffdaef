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
  return { revision: STATEFUL_REVISIONS[version as StatefulVersion], clientCapabilities: {} };
}

/**
 * The server gate of a connection whose handshake is presumed: requests of the stateless era still
 * go to `stateless` (as on any fresh connection), everything else is checked and encoded as after
 * an `initialize` at the presumed revision, `notifications/initialized` taken as sent.
 */
export function createPresumedGate(presumed: PresumedHandshake, stateless: StatelessGate): MessageGate {
  const negotiated = createGate(presumed.revision, {
    role: "server",
    peerCapabilities: presumed.clientCapabilities as Record<string, unknown>,
    initialized: () => true,
  });
  return createEntryGate(stateless, negotiated);
}
