/**
 * One JSON-RPC conversation over one transport: correlates requests and responses, owns
 * timeouts, cancellation (both ways) and progress. It knows nothing of MCP methods beyond the
 * three utilities every revision shares the shape of: `notifications/cancelled`,
 * `notifications/progress` and `ping` (spec: basic/utilities/*). What a revision allows is
 * asked of the `MessageGate`.
 */

import { ErrorCode, ProtocolError, SdkError } from "./errors.js";
import { Fallbacks } from "./fallbacks.js";
import { type MessageGate, openGate } from "./gate.js";
import { InboundCall } from "./inbound-call.js";
import {
  isErrorResponse,
  isNotification,
  isRequest,
  isRequestId,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
  type RequestId,
} from "./messages.js";
import type { NamedHandlers } from "./named-handlers.js";
import { asError, isResultObject, notAResult, toErrorObject } from "./outcomes.js";
import { OwnRequests } from "./own-requests.js";
import { cancelled, Pending } from "./pending.js";
import type { ProgressToken } from "./progress.js";
import { attachReceiver } from "./receiver.js";
import { batchRefused, idInUse, internalError, methodNotFound } from "./refusals.js";
import { RequestTimers } from "./request-timers.js";
import { answerPing, NO_REQUEST_OPTIONS, NO_SEND_OPTIONS } from "./session-defaults.js";
import type {
  FallbackNotificationHandler,
  JsonRpcSessionOptions,
  NotificationHandler,
  Params,
  RequestHandler,
  RequestOptions,
  Result,
  SessionDelegate,
} from "./session-types.js";
import { isPromiseLike } from "./thenable.js";
import { type MessageExtra, SENT, type SendOptions, type Transport, type TransportReceiver } from "./transport.js";

// The types of a session's handlers and options are part of this module's API.
export type * from "./session-types.js";

/**
 * A JSON-RPC 2.0 peer over one transport (both directions: it sends requests and answers them).
 * Ids of its own requests are numbers from 0 (or strings with a prefix, `setRequestIdPrefix`). It answers `ping`, handles `notifications/cancelled`
 * and `notifications/progress` itself, and refuses an inbound request whose id is already in
 * flight (-32600). Unknown methods are answered -32601. Spec: basic/index, basic/utilities/*.
 */
export class JsonRpcSession implements TransportReceiver {
  private transport: Transport | undefined;
  private gate: MessageGate = openGate;
  // Made on first use: an idle connection (one open HTTP session among thousands) holds none of them.
  /** What this session keeps for the requests it sends. */
  #own: OwnRequests | undefined;
  private inbound: Map<RequestId, InboundCall> | undefined;
  /** The handlers set by name, both kinds in one object: a session served through a delegate holds none. */
  private handlers: NamedHandlers | undefined;
  /** Serves what no handler set by name serves (`setDelegate`, or the fallbacks of `setFallbackRequestHandler`). */
  private delegate: SessionDelegate<unknown> | undefined;
  /** What the delegate is told with each call. */
  private owner: unknown;
  /** ms a request waits when it passes no `timeoutMs`. */
  readonly defaultTimeoutMs: number;
  private closed = false;

  // The two callbacks are declared, not defined: a session served through a delegate
  // (`setDelegate`) holds no slot for them.
  /** Called once when the transport closes. */
  declare onclose?: () => void;
  /** Non-fatal problems: a handler that failed to answer, a transport write error. */
  declare onerror?: (error: Error) => void;

  /** @param options `defaultTimeoutMs` (ms) for requests that pass no `timeoutMs`. */
  constructor(options: JsonRpcSessionOptions = {}) {
    this.defaultTimeoutMs = options.defaultTimeoutMs ?? 60_000;
  }

  /**
   * The timeout timers of outbound requests, reused from one request to the next (made on first use).
   * @internal
   */
  get timers(): RequestTimers {
    const own = this.ownRequests();
    own.timers ??= new RequestTimers();
    return own.timers;
  }

  /** Whether a transport is attached and has not closed. */
  get isConnected(): boolean {
    return this.transport !== undefined && !this.closed;
  }

  /** The transport given to `connect`, even after it closed. */
  get currentTransport(): Transport | undefined {
    return this.transport;
  }

  /** Installs the negotiated revision's rules. */
  setGate(gate: MessageGate): void {
    this.gate = gate;
  }

  /** Answers requests for `method` with `handler`, replacing any earlier one (also `ping`'s). */
  setRequestHandler(method: string, handler: RequestHandler): void {
    this.handlers ??= { requests: undefined, notifications: undefined };
    this.handlers.requests ??= new Map();
    this.handlers.requests.set(method, handler);
  }

  /**
   * Answers every request whose method `accepts` says yes to with one `handler` (the request
   * names its method in `InboundRequest.method`), where no handler was set for that method by
   * `setRequestHandler`. A fixed table of methods then costs no map per session.
   */
  setFallbackRequestHandler(accepts: (method: string) => boolean, handler: RequestHandler): void {
    this.fallbacks().requests = { accepts, handler };
  }

  /** Like `setFallbackRequestHandler`, for notifications; the handler is told the method. */
  setFallbackNotificationHandler(accepts: (method: string) => boolean, handler: FallbackNotificationHandler): void {
    this.fallbacks().notifications = { accepts, handler };
  }

  /**
   * Hands what no handler set by name serves, and the session's errors and end, to `delegate`,
   * which is told `owner` with each call; it replaces the fallback handlers, as they replace it.
   * Many sessions can share one delegate, so that each holds no closure of its own for any of it.
   */
  setDelegate<T>(delegate: SessionDelegate<T>, owner: T): void {
    this.delegate = delegate as SessionDelegate<unknown>;
    this.owner = owner;
  }

  private fallbacks(): Fallbacks {
    if (!(this.delegate instanceof Fallbacks)) this.setDelegate(new Fallbacks(), undefined);
    return this.delegate as Fallbacks;
  }

  /**
   * Handles notifications for `method`, replacing any earlier handler; replacing the session's own
   * `notifications/cancelled` or `notifications/progress` handler turns that utility off.
   */
  setNotificationHandler(method: string, handler: NotificationHandler): void {
    this.handlers ??= { requests: undefined, notifications: undefined };
    this.handlers.notifications ??= new Map();
    this.handlers.notifications.set(method, handler);
  }

  /**
   * Makes the ids of this session's own requests strings: `prefix` and then the number (and so
   * their progress tokens). Several peers answering one client (the instances of a fleet) keep
   * their ids apart this way. Call before the first request.
   */
  setRequestIdPrefix(prefix: string): void {
    this.ownRequests().idPrefix = prefix;
  }

  /**
   * Starts the transport and begins serving. Throws `SdkError("ALREADY_CONNECTED")` on a second
   * call, and when the transport was started already (another session serves it, and goes on hearing it).
   */
  async connect(transport: Transport): Promise<void> {
    if (this.transport) throw new SdkError("ALREADY_CONNECTED", "This session is already connected to a transport");
    const { onmessage, onerror, onclose } = transport;
    this.transport = transport;
    attachReceiver(transport, this);
    try {
      await transport.start();
    } catch (error) {
      // Another session serves this transport: it keeps hearing it, and this one stays unconnected.
      if (error instanceof SdkError && error.code === "ALREADY_CONNECTED") {
        transport.onmessage = onmessage;
        transport.onerror = onerror;
        transport.onclose = onclose;
        this.transport = undefined;
      }
      throw error;
    }
  }

  /**
   * Closes the transport; requests in flight reject with `SdkError("CONNECTION_CLOSED")` and
   * handlers see their signal abort, even when the transport's own close fails (that error is rethrown).
   */
  async close(): Promise<void> {
    try {
      await this.transport?.close();
    } finally {
      this.handleClose();
    }
  }

  /**
   * Sends a request and resolves with its result.
   * @throws ProtocolError the peer's JSON-RPC error (its code, message and data).
   * @throws SdkError "REQUEST_TIMEOUT" after `timeoutMs`, "REQUEST_CANCELLED" on abort,
   *   "CONNECTION_CLOSED" when the transport closes, or the gate's refusal (e.g. "CAPABILITY_NOT_SUPPORTED").
   */
  request(method: string, params?: Params, options: RequestOptions = NO_REQUEST_OPTIONS): Promise<Result> {
    const transport = this.transport;
    if (!transport || this.closed) {
      return Promise.reject(new SdkError("NOT_CONNECTED", `Cannot send ${method}: not connected`));
    }
    if (options.signal?.aborted) return Promise.reject(cancelled(method, options.signal));
    const own = this.ownRequests();
    const id: RequestId = own.idPrefix === undefined ? own.nextId++ : `${own.idPrefix}${own.nextId++}`;
    const progressToken = options.onprogress ? id : undefined;
    const sentParams =
      progressToken === undefined
        ? params
        : { ...params, _meta: { ...(params?._meta as Params | undefined), progressToken } };
    const message: JsonRpcRequest =
      sentParams === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params: sentParams };
    const refusal = this.gate.checkOutbound(message);
    if (refusal) return Promise.reject(refusal);

    return new Promise<Result>((resolve, reject) => {
      const pending = new Pending(this, id, method, options, resolve, reject, progressToken);
      own.pending.add(pending);
      if (progressToken !== undefined) {
        own.progressTokens ??= new Map();
        own.progressTokens.set(progressToken, id);
      }
      const sendOptions =
        options.relatedRequestId === undefined ? NO_SEND_OPTIONS : { relatedRequestId: options.relatedRequestId };
      const written = this.write(message, sendOptions);
      // The timeout starts once the transport has the message, so that arming it does not delay the
      // write; unless a transport that answers at once has already settled the request.
      if (own.pending.get(id) === pending) pending.arm();
      if (written !== SENT) {
        written.catch((error: unknown) => {
          own.settle(id)?.reject(asError(error));
        });
      }
    });
  }

  private ownRequests(): OwnRequests {
    this.#own ??= new OwnRequests();
    return this.#own;
  }

  /** Forgets a progress token whose request settled. */
  forgetProgressToken(token: ProgressToken): void {
    this.#own?.progressTokens?.delete(token);
  }

  /** Sends a notification. Throws the gate's SdkError when the revision or peer does not allow it. */
  async notify(method: string, params?: Params, options: { relatedRequestId?: RequestId } = {}): Promise<void> {
    if (!this.transport || this.closed) throw new SdkError("NOT_CONNECTED", `Cannot send ${method}: not connected`);
    const message: JsonRpcNotification =
      params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params };
    const refusal = this.gate.checkOutbound(message);
    if (refusal) throw refusal;
    await this.write(message, options);
  }

  /**
   * `encode: false` sends the message as it is. The gate pairs each response with the request it
   * answers and then forgets that request, so a refusal of a duplicate id must not pass through it:
   * the gate would forget the first request, still in flight, under the same id.
   */
  private write(message: JsonRpcMessage, options: SendOptions, encode = true): Promise<void> {
    const transport = this.transport;
    if (!transport || this.closed) return Promise.reject(new SdkError("CONNECTION_CLOSED", "The connection is closed"));
    try {
      return transport.send(encode ? this.gate.encode(message) : message, options);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** Gives up on an outbound request: tells the peer, rejects locally, drops any late answer. */
  abandon(id: RequestId, reason: SdkError): void {
    const pending = this.#own?.settle(id);
    if (!pending) return;
    pending.reject(reason);
    if (this.isConnected) {
      this.notify("notifications/cancelled", { requestId: id, reason: reason.message }).catch(() => {});
    }
  }

  /** @internal As `Transport.onerror` (`TransportReceiver`). */
  transportFailed(error: Error): void {
    this.report(error);
  }

  /** @internal As `Transport.onclose` (`TransportReceiver`). */
  transportClosed(): void {
    this.handleClose();
  }

  /** A non-fatal problem: to the delegate, then `onerror`. */
  private report(error: Error): void {
    this.delegate?.failed?.(this.owner, error);
    this.onerror?.(error);
  }

  /** @internal As `Transport.onmessage` (`TransportReceiver`). */
  receive(message: JsonRpcMessage | JsonRpcMessage[], extra?: MessageExtra): void {
    if (Array.isArray(message)) {
      if (!this.gate.acceptsBatch) {
        this.write(batchRefused(), {}).catch((error: unknown) => this.report(asError(error)));
        return;
      }
      for (const item of message) this.receiveOne(item, extra);
      return;
    }
    this.receiveOne(message, extra);
  }

  private receiveOne(message: JsonRpcMessage, extra: MessageExtra | undefined): void {
    if (isRequest(message)) this.receiveRequest(message, extra);
    else if (isNotification(message)) this.receiveNotification(message, extra);
    else this.receiveResponse(message);
  }

  private receiveResponse(response: JsonRpcResponse): void {
    if (!isRequestId(response.id)) {
      if (isErrorResponse(response)) this.report(ProtocolError.fromJson(response.error));
      return;
    }
    // A response to a request we cancelled or never sent is dropped (spec: cancellation).
    const pending = this.#own?.settle(response.id);
    if (!pending) return;
    if (isErrorResponse(response)) pending.reject(ProtocolError.fromJson(response.error));
    else pending.resolve(this.gate.decodeResult?.(pending.method, response.result) ?? response.result);
  }

  private receiveNotification(message: JsonRpcNotification, extra: MessageExtra | undefined): void {
    if (this.checkInbound(message) !== undefined) return;
    const { method } = message;
    const handler = this.handlers?.notifications?.get(method);
    const delegate = handler ? undefined : this.delegate;
    if (!handler && delegate?.acceptsNotification(this.owner, method) !== true) {
      // The session's own utilities, unless the application replaced them.
      if (method === "notifications/cancelled") this.onCancelled(message.params ?? {});
      else if (method === "notifications/progress") this.#own?.progressed(message.params ?? {});
      return;
    }
    // Run at once, in arrival order: a progress notification that precedes its response must be
    // seen before the response settles the request.
    try {
      const params = message.params ?? {};
      const outcome = handler ? handler(params, extra) : delegate?.serveNotification(this.owner, method, params, extra);
      if (outcome instanceof Promise) outcome.catch((error: unknown) => this.report(asError(error)));
    } catch (error) {
      this.report(asError(error));
    }
  }

  private receiveRequest(message: JsonRpcRequest, extra: MessageExtra | undefined): void {
    const { id, method } = message;
    if (this.inbound?.has(id)) {
      this.write(idInUse(id), { relatedRequestId: id }, false).catch((error: unknown) => this.report(asError(error)));
      return;
    }
    const refusal = this.checkInbound(message);
    if (refusal) {
      this.reply({ jsonrpc: "2.0", id, error: refusal.toJson() });
      return;
    }
    const named = this.handlers?.requests?.get(method);
    // `undefined` with `delegated`: the delegate serves it.
    const delegated = named === undefined && this.delegate?.acceptsRequest(this.owner, method) === true;
    const handler = named ?? (delegated || method !== "ping" ? undefined : answerPing);
    if (!handler && !delegated) {
      this.reply(methodNotFound(id, method));
      return;
    }
    const params = message.params ?? {};
    const call = new InboundCall(this, id, method, params._meta as Params | undefined, extra);
    this.inbound ??= new Map();
    this.inbound.set(id, call);
    this.answer(call, handler, params);
  }

  /**
   * The gate's verdict on an inbound message. A gate that throws (a validator that cannot be
   * loaded, say) refuses the message with -32603, so that a request is still answered, and the
   * error goes to `onerror`; its text stays on this side.
   */
  private checkInbound(message: JsonRpcRequest | JsonRpcNotification): ProtocolError | undefined {
    try {
      return this.gate.checkInbound(message);
    } catch (error) {
      this.report(asError(error));
      return new ProtocolError(ErrorCode.InternalError, "Internal error");
    }
  }

  /**
   * Runs the handler in a microtask of its own (never synchronously within `receive`) and sends its
   * answer unless cancelled. A handler that answers at once is answered within that microtask.
   */
  private answer(call: InboundCall, handler: RequestHandler | undefined, params: Params): void {
    queueMicrotask(() => {
      let outcome: unknown;
      let thenable: boolean;
      try {
        outcome =
          handler === undefined
            ? (this.delegate as SessionDelegate<unknown>).serveRequest(this.owner, params, call)
            : handler(params, call);
        // Read here: a `then` getter that throws is the handler's failure too.
        thenable = isPromiseLike(outcome);
      } catch (error) {
        this.respond(call, { jsonrpc: "2.0", id: call.id, error: toErrorObject(error) });
        return;
      }
      if (!thenable) {
        this.respond(call, this.resultResponse(call, outcome));
        return;
      }
      Promise.resolve(outcome).then(
        (result: unknown) => this.respond(call, this.resultResponse(call, result)),
        (error: unknown) => this.respond(call, { jsonrpc: "2.0", id: call.id, error: toErrorObject(error) }),
      );
    });
  }

  private resultResponse(call: InboundCall, result: unknown): JsonRpcResponse {
    if (isResultObject(result)) return { jsonrpc: "2.0", id: call.id, result };
    this.report(notAResult(call.method, result));
    return internalError(call.id);
  }

  /** Sends the answer to `call`, unless it was cancelled: a cancelled request gets none (spec: basic/utilities/cancellation). */
  private respond(call: InboundCall, response: JsonRpcResponse): void {
    if (this.inbound?.get(call.id) !== call || call.aborted) return;
    this.forgetInbound(call.id);
    void this.reply(response);
  }

  private reply(response: JsonRpcResponse): Promise<void> {
    const written = this.write(response, { relatedRequestId: response.id ?? undefined });
    return written === SENT ? written : written.catch((error: unknown) => this.report(asError(error)));
  }

  /** Drops an answered or cancelled request; the map goes with the last one, as an idle session holds none. */
  private forgetInbound(id: RequestId): void {
    const inbound = this.inbound as Map<RequestId, InboundCall>;
    inbound.delete(id);
    if (inbound.size === 0) this.inbound = undefined;
  }

  /**
   * Whether `call` is still the live request under its id (not answered, cancelled or closed).
   * @internal
   */
  isLive(call: InboundCall): boolean {
    return this.inbound?.get(call.id) === call;
  }

  private onCancelled(params: Params): void {
    const requestId = params.requestId;
    if (!isRequestId(requestId)) return;
    const call = this.inbound?.get(requestId);
    if (!call) return;
    this.forgetInbound(requestId);
    call.cancelledByPeer(params.reason);
  }

  private handleClose(): void {
    if (this.closed) return;
    this.closed = true;
    // An error (and its stack) only when something is still waiting, which a closed idle session is not.
    if ((this.#own?.pending.size ?? 0) > 0 || (this.inbound?.size ?? 0) > 0) {
      const error = new SdkError("CONNECTION_CLOSED", "The connection closed");
      for (const id of this.#own?.pending.ids() ?? []) this.#own?.settle(id)?.reject(error);
      for (const call of this.inbound?.values() ?? []) call.abort(error);
      this.inbound?.clear();
    }
    this.#own?.timers?.clear();
    this.delegate?.closed?.(this.owner);
    this.onclose?.();
  }
}
