/**
 * The stateless era (revision 2026-07-28): no handshake; every request carries its version, the
 * client's capabilities and log level in `_meta`, is checked against what the server offers now,
 * and asks the client through multi round-trip results instead of requests of its own. Which era
 * a request is written in is asked of the codec (`isStatelessRequest`, `readRequestMeta`);
 * nothing here compares versions.
 */
import type { MessageGate } from "../../jsonrpc/gate.js";
import type { InboundRequest, Params, Result } from "../../jsonrpc/session.js";
import {
  createEntryGate,
  createPresumedGate,
  createStatelessGate,
  type PresumedHandshake,
  readRequestMeta,
  STATELESS_REVISIONS,
  type StatelessGate,
} from "../../revisions/index.js";
import { InteractionRequired } from "../interactions.js";
import { isAtLeast, isLoggingLevel } from "../logging.js";
import type { LogSender } from "../request-contexts.js";
import {
  type ConnectionSettings,
  type EraConnection,
  type EraDriver,
  type HandlerMethod,
  notOffered,
} from "./driver.js";
import type { StatelessSettings } from "./request-state.js";
import { runInRounds } from "./rounds.js";
import { Subscriptions } from "./subscriptions.js";

export const STATELESS: EraDriver = {
  async serve(connection, method, spec, params, inbound) {
    const meta = readRequestMeta(params);
    // Stateless requests see the server's current definition, not what a handshake announced.
    if (connection.settings.definition.capabilities()[spec.capability] === undefined)
      throw notOffered(method, spec.capability);
    if (spec.by === "connection") return spec.serve(connection, params, inbound);
    connection.servedStateless(STATELESS_REVISIONS[meta.protocolVersion]);
    await checkHeaders(spec, params, inbound.extra?.headers);
    const level = isLoggingLevel(meta.logLevel) ? meta.logLevel : undefined;
    const log: LogSender = (lvl, data, logger, related) =>
      level === undefined || !isAtLeast(lvl, level)
        ? Promise.resolve()
        : connection.sendLog(lvl, data, logger, related);
    if (spec.rounds) return runInRounds(connection, method, spec, params, inbound, meta.clientCapabilities, log);
    const ctx = connection.context(inbound, meta.clientCapabilities, log);
    try {
      return await connection.route(method, spec, params, ctx);
    } catch (error) {
      if (!(error instanceof InteractionRequired)) throw error;
      return connection.interactions.required(error, spec.refusesWithResult === true, inbound);
    }
  },

  clientInfo: (connection, inbound) => readRequestMeta({ _meta: inbound.meta }).clientInfo ?? connection.clientInfo,
};

/**
 * Checks what a stateless request's HTTP headers repeat from its body beyond the standard ones
 * (`x-mcp-header` tool parameters). @throws ProtocolError -32020 on a mismatch.
 */
async function checkHeaders(spec: HandlerMethod, params: Params, headers: Record<string, string> | undefined) {
  if (spec.inputSchemaOf === undefined || headers === undefined) return;
  const args = params.arguments as Record<string, unknown> | undefined;
  // Loaded with the first stateless HTTP call: it brings the HTTP header codec, which stdio never needs.
  paramHeaders ??= await import("./param-headers.js");
  paramHeaders.checkParamHeaders(await spec.inputSchemaOf(params), args, headers);
}

/** `param-headers.js` once the first stateless HTTP call loaded it: later calls skip the module lookup. */
let paramHeaders: typeof import("./param-headers.js") | undefined;

/**
 * `server/discover` (spec 2026-07-28: server/discover). The server's identity and the cache
 * hints are put on by the codec, as on every result: the identity only in `_meta`.
 */
export function discover(connection: EraConnection): Result {
  const settings = connection.settings;
  const result: Result = {
    supportedVersions: [...settings.stateless.supportedVersions],
    capabilities: settings.definition.capabilities() as Record<string, unknown>,
  };
  if (settings.instructions !== undefined) result.instructions = settings.instructions;
  return result;
}

/** The `subscriptions/listen` requests of connections; a connection that never listened has none. */
const listens = new WeakMap<EraConnection, Subscriptions>();
/** The listens of every connection that never opened one: nothing to notify. */
const NO_LISTENS = new Subscriptions();

/** `subscriptions/listen`: holds the request open until the client cancels it or the connection closes. */
export function listen(connection: EraConnection, params: Params, inbound: InboundRequest): Promise<Result> {
  let open = listens.get(connection);
  if (open === undefined) {
    open = new Subscriptions();
    listens.set(connection, open);
  }
  return open.listen(params, inbound, connection.settings.definition.capabilities());
}

/** The open `subscriptions/listen` requests of `connection`. */
export function listensOf(connection: EraConnection): Subscriptions {
  return listens.get(connection) ?? NO_LISTENS;
}

/** The gate of a connection before any handshake: it serves both eras. */
export function entryGate(settings: ConnectionSettings): MessageGate {
  return createEntryGate(statelessGate(settings.serverInfo, settings.stateless));
}

/** The gate of a connection whose client initialized elsewhere (`presumed`), serving both eras. */
export function presumedGate(presumed: PresumedHandshake, settings: ConnectionSettings): MessageGate {
  return createPresumedGate(presumed, statelessGate(settings.serverInfo, settings.stateless));
}

function statelessGate(serverInfo: ConnectionSettings["serverInfo"], stateless: StatelessSettings): StatelessGate {
  return createStatelessGate({
    serverInfo: serverInfo as unknown as Record<string, unknown>,
    supported: stateless.supportedVersions,
    ...(stateless.cache === undefined ? {} : { cache: stateless.cache }),
  });
}
