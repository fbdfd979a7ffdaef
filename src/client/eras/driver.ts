/**
 * The one interface both eras of the client speak through: how a connection is opened
 * (`initialize`, or the `server/discover` probe), how a request is sent and checked, and what
 * the era-dependent calls (`logging/setLevel`, resource subscriptions, list-change listening) do.
 * `ClientConnection` holds one driver per era and sends through the one negotiation settled on.
 */
import type { JsonRpcSession, Params, Result } from "../../jsonrpc/session.js";
import type { Revision } from "../../revisions/index.js";
import type { HandlerHost } from "../handlers.js";
import type { HeaderTransport } from "../header-transport.js";
import type { ElicitationTracker, ListChanges, ListenTracker } from "../notifications.js";
import type { ConnectOptions, McpClientOptions } from "../options.js";
import type {
  CallOptions,
  ClientCapabilities,
  EmptyResult,
  Implementation,
  InitializeResult,
  LoggingLevel,
  SetLevelParams,
  SubscribeParams,
} from "../types.js";

/** What a driver reads from, and tells, the connection that holds it. */
export interface EraLink {
  /** `clientInfo`: this client's name, version and optional title. */
  readonly info: Implementation;
  readonly options: McpClientOptions;
  /** The version `options.protocolVersion` pins, if any. */
  readonly pinnedVersion: string | undefined;
  /** The capabilities sent in the last `initialize` or `server/discover`. */
  readonly sentCapabilities: ClientCapabilities;
  /** The level asked for with `setLoggingLevel`, if any. */
  readonly logLevel: LoggingLevel | undefined;
  /** Whether the negotiation is done and the transport open. */
  readonly isConnected: boolean;
  /** URL-mode elicitations the client is waiting on. */
  readonly elicitations: ElicitationTracker;
  /** The client's handlers, which also answer the input requests of an `InputRequiredResult`. */
  readonly handlers: HandlerHost;
  /** Computes the capabilities to declare now and remembers them as sent. */
  declare(): ClientCapabilities;
  /** Further checks of a result before the caller sees it; throws what the caller should get. */
  checkOutput(method: string, params: Params | undefined, result: Result): void;
  /** The list changes the client's hooks ask for, among what the server offers. */
  listChanges(): ListChanges;
  /** Non-fatal problems, for `onerror`. */
  report(error: Error): void;
  /** Sends a request the way every client call goes (capability check, then the driver). */
  call(method: string, params: object | undefined, options?: CallOptions): Promise<Result>;
  /** Told the moment a negotiation settles: the negotiated revision's era, whose driver speaks from then on. */
  settle(era: keyof EraDrivers): void;
}

/** One era of the protocol as the client speaks it. */
export interface EraDriver {
  /** Whether this era has no handshake and sends `_meta` with each request. */
  readonly stateless: boolean;
  /** The server's answer to the negotiation; `undefined` until it settled. */
  readonly handshake: InitializeResult | undefined;
  /** The negotiated revision's schema checks, where the era checks results against one. */
  readonly revision: Revision | undefined;
  /** A re-negotiation under way, which every new call waits for. */
  readonly pending: Promise<void> | undefined;
  /** The `subscriptions/listen` bookkeeping the notification router consults, if the era has one. */
  readonly listens?: ListenTracker;
  /**
   * Negotiates on a started session. Calls `EraLink.settle` with the era negotiated once it
   * settled (the other era, when the server is older).
   */
  open(session: JsonRpcSession, transport: HeaderTransport, options: ConnectOptions): Promise<void>;
  /** Sends one request of this era and returns its checked, complete result. */
  send(session: JsonRpcSession, method: string, params: Params | undefined, options: CallOptions): Promise<Result>;
  /** `logging/setLevel`, or what stands in for it in this era. */
  setLoggingLevel(params: SetLevelParams, options?: CallOptions): Promise<EmptyResult>;
  /** `resources/subscribe`, or what stands in for it in this era. */
  subscribe(params: SubscribeParams, options?: CallOptions): Promise<EmptyResult>;
  /** `resources/unsubscribe`, or what stands in for it in this era. */
  unsubscribe(params: SubscribeParams, options?: CallOptions): Promise<EmptyResult>;
  /** Re-asks for the list changes the hooks set now; resolves once the server acknowledged. */
  listen(): Promise<void>;
  /** The client is closing: ends what this era keeps open. */
  close(): void;
}

/** The two eras, by name: one driver each, picked by the negotiated revision's era. */
export interface EraDrivers {
  readonly stateful: EraDriver;
  readonly stateless: EraDriver;
}
