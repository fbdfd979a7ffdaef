/** The shapes a `JsonRpcSession` takes and gives: params, results, request options, handlers. */

import type { RequestId } from "./messages.js";
import type { Progress, ProgressCallback, ProgressToken } from "./progress.js";
import type { MessageExtra } from "./transport.js";

/** The `params` of a request or notification as the session carries them (`{}` when absent). */
export type Params = Record<string, unknown>;
/** The `result` of a response: always an object. */
export type Result = Record<string, unknown>;

/** Options of one outbound request. */
export interface RequestOptions {
  /** Aborting sends `notifications/cancelled` and rejects with `SdkError("REQUEST_CANCELLED")`. */
  signal?: AbortSignal;
  /** ms without an answer before the request is cancelled; `Infinity` waits forever. */
  timeoutMs?: number;
  /** Asks the peer for progress (adds `_meta.progressToken`) and receives it. */
  onprogress?: ProgressCallback;
  /** Restart the timeout each time progress arrives. */
  resetTimeoutOnProgress?: boolean;
  /** ms cap on the whole request, even with progress resetting the timeout. */
  maxTotalTimeoutMs?: number;
  /** The inbound request this one is made on behalf of (Streamable HTTP routes it on that stream). */
  relatedRequestId?: RequestId;
}

/** What a request handler gets besides the params. */
export interface InboundRequest {
  /** The request's JSON-RPC id, as received (`0` and `""` included). */
  readonly id: RequestId;
  readonly method: string;
  /** Aborted when the peer cancels the request or the connection closes. */
  readonly signal: AbortSignal;
  /** `params._meta` as received. */
  readonly meta: Params | undefined;
  /** `params._meta.progressToken`, when the peer asked for progress. */
  readonly progressToken: ProgressToken | undefined;
  /** Where the message came from (HTTP session, auth info). */
  readonly extra: MessageExtra | undefined;
  /**
   * Sends `notifications/progress` for this request; a no-op when the peer asked for none, and once
   * the request is answered, cancelled or its connection closed.
   */
  sendProgress(progress: Progress): Promise<void>;
  /** Sends a notification tied to this request. */
  notify(method: string, params?: Params): Promise<void>;
  /** Sends a request tied to this request; cancelled with it. */
  request(method: string, params?: Params, options?: RequestOptions): Promise<Result>;
}

/**
 * Answers one inbound request. The value returned (an object) is the `result`; a thrown
 * `ProtocolError` is sent as that error; anything else thrown is sent as -32603 with its message.
 * Nothing is sent for a request the peer cancelled.
 */
export type RequestHandler = (params: Params, request: InboundRequest) => Result | Promise<Result>;
/** Handles one inbound notification; handlers run in arrival order, and what they throw goes to `onerror`. */
export type NotificationHandler = (params: Params, extra: MessageExtra | undefined) => void | Promise<void>;

/** A notification handler that serves several methods and is told which one arrived. */
export type FallbackNotificationHandler = (
  method: string,
  params: Params,
  extra: MessageExtra | undefined,
) => void | Promise<void>;

/**
 * What serves the methods of a session that no handler set by name serves, and hears of its
 * errors and its end (`JsonRpcSession.setDelegate`): one object that many sessions share, each
 * call told the `owner` the session was given, so that a session holds no closure for any of it.
 */
export interface SessionDelegate<T> {
  /** Whether `serveRequest` serves requests for `method`. */
  acceptsRequest(owner: T, method: string): boolean;
  /** Answers one request as a `RequestHandler` does; the request names its method. */
  serveRequest(owner: T, params: Params, request: InboundRequest): Result | Promise<Result>;
  /** Whether `serveNotification` handles notifications for `method`. */
  acceptsNotification(owner: T, method: string): boolean;
  /** Handles one notification as a `FallbackNotificationHandler` does. */
  serveNotification(owner: T, method: string, params: Params, extra: MessageExtra | undefined): void | Promise<void>;
  /** A non-fatal problem, as `onerror` hears it (before it). */
  failed?(owner: T, error: Error): void;
  /** The transport closed, as `onclose` hears it (before it). */
  closed?(owner: T): void;
}

/** Options of `new JsonRpcSession(options)`. */
export interface JsonRpcSessionOptions {
  /** ms; default 60,000. A request waiting for a human passes its own `timeoutMs`. */
  defaultTimeoutMs?: number;
}
