/**
 * The seam between a server connection and the protocol era a request is written in. A connection
 * serves each method of the server's method table through the `EraDriver` of the request's era:
 * the stateful era (`initialize`, then requests that may ask the client back) or the stateless one
 * (revision 2026-07-28: every request carries its version and capabilities, and asks the client
 * through multi round-trip results). The connection itself never asks which era it speaks.
 */
import { ErrorCode, ProtocolError } from "../../jsonrpc/errors.js";
import type { MessageGate } from "../../jsonrpc/gate.js";
import type { RequestId } from "../../jsonrpc/messages.js";
import type { InboundRequest, Params, Result } from "../../jsonrpc/session.js";
import type { ClientCapabilities, Implementation, Revision, ServerCapabilities } from "../../revisions/index.js";
import type { Tracing } from "../../tracing/index.js";
import type { HandoffApi } from "../context.js";
import type { InteractionService, RequestContext } from "../handler-types.js";
import type { HandoffLadderOptions } from "../handoff-ladder.js";
import type { LoggingLevel } from "../logging.js";
import type { LogSender } from "../request-contexts.js";
import type { JsonSchema } from "../schema-types.js";
import type { SessionInteractions } from "../session-interactions.js";
import type { StatelessSettings } from "./request-state.js";

/** Serves a method on the connection itself. */
export type ConnectionServe = (
  connection: EraConnection,
  params: Params,
  inbound: InboundRequest,
) => Result | Promise<Result>;

/** One entry of the server's method table; see `SERVER_METHODS` in `server/methods.ts`. */
export type MethodSpec =
  /** Served by the connection before any era is read (`initialize`, `server/discover`, `subscriptions/listen`). */
  | { readonly by: "entry"; readonly serve: ConnectionServe }
  /** Served by the connection itself once the era's check of `capability` passed (`logging/setLevel`). */
  | { readonly by: "connection"; readonly capability: keyof ServerCapabilities; readonly serve: ConnectionServe }
  | HandlerMethod;

/** A method served by a registered handler (a tool, resource, prompt or completer), with a `RequestContext`. */
export interface HandlerMethod {
  readonly by: "handler";
  /** The server capability the method needs; without it the request is answered -32601. */
  readonly capability: keyof ServerCapabilities;
  /** Whether the handler may answer `InputRequiredResult` (multi round-trip requests, revision 2026-07-28). */
  readonly rounds?: true;
  /**
   * Whether a hand-off the handler needs but cannot have (the client cannot open pages, or the
   * user declined) is answered with an `isError` result rather than -32603 (a tool call: spec:
   * server/tools § Error Handling).
   */
  readonly refusesWithResult?: true;
  /**
   * The input schema whose `x-mcp-header` parameters a stateless HTTP request repeats in its
   * headers (`tools/call`); `undefined` when the request names nothing that has one.
   */
  readonly inputSchemaOf?: (params: Params) => JsonSchema | Promise<JsonSchema | undefined> | undefined;
  /**
   * The answer, or a promise of it; throws (synchronously, too) what the connection turns into
   * errors. Model types are closed interfaces; the answer goes out as a plain record.
   */
  readonly serve: (params: Params, ctx: RequestContext, session: ServedSession) => object | Promise<object>;
}

/** What a handler method may change on the session it serves. */
export interface ServedSession {
  /**
   * Notes that the client subscribed to `uri` with `resources/subscribe`.
   * @returns, in a fleet, the recording of it for the other instances, which the answer waits for.
   */
  subscribe(uri: string): Promise<void> | undefined;
  /** Forgets the subscription to `uri` (`resources/unsubscribe`); nothing happens if there was none. As `subscribe`. */
  unsubscribe(uri: string): Promise<void> | undefined;
}

/** What the connection's server lends it: fixed for the server's lifetime, shared by every connection. */
export interface ConnectionSettings {
  readonly serverInfo: Implementation;
  readonly instructions: string | undefined;
  /** Keeps hand-offs (out-of-band user interactions); without it handlers cannot start one. */
  readonly interactions: InteractionService | undefined;
  /** The server's `handoffs` option: the inbox rung and its choice of form per client. */
  readonly handoffs?: HandoffLadderOptions | undefined;
  /** How revision 2026-07-28 requests are served. */
  readonly stateless: StatelessSettings;
  /** Where request and retry spans go; off when the server traces nothing. */
  readonly tracing: Tracing;
  /** What the server serves: its capabilities as they stand now (derived from what is registered). */
  readonly definition: { capabilities(): ServerCapabilities };
}

/** What a driver may do to the connection it serves. */
export interface EraConnection {
  readonly id: string;
  readonly settings: ConnectionSettings;
  readonly clientInfo: Implementation | undefined;
  readonly clientCapabilities: ClientCapabilities | undefined;
  /** Whether the client sent `notifications/initialized`. */
  readonly initialized: boolean;
  /** The connection's hand-offs, made on first use. */
  readonly interactions: SessionInteractions;
  /** Whether `initialize` was answered and announced `capability` to this client. */
  announces(capability: keyof ServerCapabilities): boolean;
  /** Records what a handshake agreed. @returns the capabilities announced to the client. */
  agree(revision: Revision, clientCapabilities: ClientCapabilities, clientInfo: Implementation): ServerCapabilities;
  /** Installs the gate every message passes from now on. */
  setGate(gate: MessageGate): void;
  /** Notes the revision of a stateless request the connection serves. */
  servedStateless(revision: Revision): void;
  /**
   * Sets the threshold of `notifications/message`.
   * @returns, in a fleet, the recording of it for the other instances, which the answer waits for.
   */
  setLogLevel(level: LoggingLevel): Promise<void> | undefined;
  /**
   * Records what `initialize` agreed for the other instances of a fleet (`undefined` outside one);
   * the `initialize` answer waits for it.
   */
  shareHandshake(): Promise<void> | undefined;
  /** Sends one `notifications/message` tied to request `related`, whatever the session's level; never rejects. */
  sendLog(level: LoggingLevel, data: unknown, logger: string | undefined, related: RequestId): Promise<void>;
  /**
   * The context a handler gets. @param log its log sink (default: the session's, by its level);
   * @param handoffs its hand-offs (default: the connection's, within the request).
   */
  context(
    inbound: InboundRequest,
    clientCapabilities: Record<string, unknown>,
    log?: LogSender,
    handoffs?: HandoffApi,
  ): RequestContext;
  /**
   * Runs the handler of `method`; what it throws but an answer is reported and redacted. A result
   * the handler gave at once is returned as it is, without a promise; a throw may then be synchronous.
   */
  route(method: string, spec: HandlerMethod, params: Params, ctx: RequestContext): Result | Promise<Result>;
}

/** How one protocol era serves the requests written in it. */
export interface EraDriver {
  /**
   * Serves a method of the table that is not an entry method: checks its capability the era's
   * way (what `initialize` announced, or what the server offers now), then runs it.
   * @throws ProtocolError -32601 when the server does not offer the method's capability.
   */
  serve(
    connection: EraConnection,
    method: string,
    spec: Exclude<MethodSpec, { by: "entry" }>,
    params: Params,
    inbound: InboundRequest,
  ): Result | Promise<Result>;
  /** The requesting client's self-declared `clientInfo` as it applies to this request. */
  clientInfo(connection: EraConnection, inbound: InboundRequest): Implementation | undefined;
}

/** The answer to a request for a capability the server does not offer: -32601. */
export function notOffered(method: string, capability: keyof ServerCapabilities): ProtocolError {
  return new ProtocolError(
    ErrorCode.MethodNotFound,
    `Method not found: ${method} (the server does not offer ${capability})`,
  );
}
