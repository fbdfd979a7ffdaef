/**
 * The stateful era (revisions up to 2025-11-25, spec: basic/lifecycle): the `initialize`
 * handshake agrees a revision and the client's capabilities once; every later request is checked
 * against what `initialize` announced, and its handler asks the client back within the request.
 */
import { ErrorCode, ProtocolError } from "../../jsonrpc/errors.js";
import type { InboundRequest, Params, Result } from "../../jsonrpc/session.js";
import type { ClientCapabilities, Implementation, InitializeResult } from "../../revisions/index.js";
import { createGate, negotiateVersion } from "../../revisions/index.js";
import { InteractionRequired } from "../interactions.js";
import { intern } from "../interned.js";
import { type EraConnection, type EraDriver, notOffered } from "./driver.js";

/**
 * `initialize` (spec: basic/lifecycle § Initialization): agrees the revision and installs its gate.
 * @throws ProtocolError -32602 for a `protocolVersion` that is no string, a `clientInfo` without
 *   name and version, or `capabilities` that are no object.
 */
export function initialize(
  connection: EraConnection,
  params: Params,
  inbound: InboundRequest,
): Result | Promise<Result> {
  const { protocolVersion, capabilities, clientInfo } = params;
  const info = clientInfo as Implementation | undefined;
  if (typeof protocolVersion !== "string") {
    throw new ProtocolError(ErrorCode.InvalidParams, "Invalid params: protocolVersion must be a string");
  }
  if (typeof info?.name !== "string" || typeof info.version !== "string") {
    throw new ProtocolError(ErrorCode.InvalidParams, "Invalid params: clientInfo needs a name and a version");
  }
  if (capabilities !== undefined && (typeof capabilities !== "object" || capabilities === null)) {
    throw new ProtocolError(ErrorCode.InvalidParams, "Invalid params: capabilities must be an object");
  }
  const revision = negotiateVersion(protocolVersion);
  // Shared frozen copies: sessions of one kind of client declare the same values, kept for the session's life.
  const clientCapabilities = intern((capabilities ?? {}) as ClientCapabilities);
  const announced = connection.agree(revision, clientCapabilities, intern(info));
  // Installed before returning, so the result itself is encoded for the agreed revision.
  connection.setGate(
    createGate(revision, {
      role: "server",
      peerCapabilities: clientCapabilities as Record<string, unknown>,
      initialized: connection,
      inFlight: [{ id: inbound.id, method: "initialize", params }],
    }),
  );
  const settings = connection.settings;
  const result: InitializeResult = {
    protocolVersion: revision.version,
    capabilities: announced,
    serverInfo: settings.serverInfo,
  };
  if (settings.instructions !== undefined) result.instructions = settings.instructions;
  // In a fleet the client's next request may reach another instance: the session is recorded first.
  const recorded = connection.shareHandshake();
  if (recorded === undefined) return result as unknown as Result;
  return recorded.then(() => result as unknown as Result);
}

export const STATEFUL: EraDriver = {
  serve(connection, method, spec, params, inbound) {
    if (!connection.announces(spec.capability)) throw notOffered(method, spec.capability);
    if (spec.by === "connection") return spec.serve(connection, params, inbound);
    const clientCapabilities = (connection.clientCapabilities ?? {}) as Record<string, unknown>;
    const ctx = connection.context(inbound, clientCapabilities);
    let routed: Result | Promise<Result>;
    try {
      routed = connection.route(method, spec, params, ctx);
    } catch (error) {
      return handOff(connection, spec, inbound, error);
    }
    // A handler that answered at once costs no promise here either.
    if (!(routed instanceof Promise)) return routed;
    return routed.catch((error: unknown) => handOff(connection, spec, inbound, error));
  },

  clientInfo: (connection) => connection.clientInfo,
};

/** A hand-off the handler asked for is answered by the connection; anything else is rethrown. */
function handOff(
  connection: EraConnection,
  spec: { readonly refusesWithResult?: boolean },
  inbound: InboundRequest,
  error: unknown,
): Promise<Result> {
  if (!(error instanceof InteractionRequired)) throw error;
  return connection.interactions.required(error, spec.refusesWithResult === true, inbound);
}
