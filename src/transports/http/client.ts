/**
 * The client side of Streamable HTTP (spec: basic/transports § Streamable HTTP): every
 * message is a POST; answers come back as JSON or as an SSE stream; a GET stream carries
 * what the server sends on its own. Broken SSE streams are resumed with `Last-Event-ID`.
 */
import { ErrorCode, SdkError } from "../../jsonrpc/errors.js";
import { decodeFrame, encodeFrame, errorResponse } from "../../jsonrpc/frame.js";
import {
  isNotification,
  isRequest,
  isRequestId,
  isResponse,
  type JsonRpcMessage,
  type RequestId,
} from "../../jsonrpc/messages.js";
import type { MessageExtra, Transport } from "../../jsonrpc/transport.js";
import type {
  CancellingTransport,
  HttpSendOptions,
  ProtocolVersionTransport,
  SessionIdTransport,
} from "../features.js";
import {
  type AnswerFailure,
  CONNECTION_CLOSED,
  DEFAULT_MAX_MESSAGE_BYTES,
  isOk,
  MessageTooLargeError,
  readJsonAnswer,
  refusalOf,
  resumeGoneError,
  streamRefusalOf,
  tooLargeFailure,
} from "./client-answers.js";
import { ClientExchanges } from "./client-exchanges.js";
import { type HttpAnswer, type HttpCarrier, type HttpPath, type HttpRequest, headerRecord } from "./client-http.js";
import { carrierFor, type StreamableHttpClientOptions } from "./client-options.js";
import { CrossOriginRedirectError } from "./client-redirect.js";
import { type EventSourceMessage, followStream, type ReconnectOptions, type StreamState } from "./client-sse.js";
import {
  JSON_MEDIA_TYPE,
  LAST_EVENT_ID_HEADER,
  PROTOCOL_VERSION_HEADER,
  SESSION_ID_HEADER,
  SSE_MEDIA_TYPE,
} from "./constants.js";
import { fetchFailure, StreamableHttpError } from "./errors.js";
import { mediaTypeOf } from "./headers.js";

export type { StreamableHttpClientOptions };

/**
 * The client end of Streamable HTTP: every message is a POST to `url`; answers come as JSON or
 * SSE, and a GET stream (opened after `notifications/initialized`) carries what the server sends
 * on its own. A 404 to a POST on a known session rejects `send` with a `StreamableHttpError`
 * whose `sessionExpired` is true (spec: basic/transports § Streamable HTTP). The GET stream is
 * optional: 400, 404, 405 and 406 to it mean the server offers none; 409 (the server still holds a
 * lost one) is tried again with back-off; a 410 to its resumption (the events since `Last-Event-ID`
 * are gone) is reported, and the stream is opened again without that id.
 * A request the client cancelled (`notifications/cancelled`) stops being followed at once.
 */
export class StreamableHttpClientTransport
  implements Transport, SessionIdTransport, ProtocolVersionTransport, CancellingTransport
{
  onmessage?: (message: JsonRpcMessage | JsonRpcMessage[], extra?: MessageExtra) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;

  private session: string | undefined;
  private version: string | undefined;
  private readonly carrier: HttpCarrier;
  /** `options.headers`, lower-cased once. */
  private readonly baseHeaders: Record<string, string>;
  private readonly reconnect: ReconnectOptions;
  /**
   * Aborted on close: ends the waits between reconnection attempts. Made on the first such wait,
   * since most transports never wait and an `AbortController` costs more than a request's headers.
   */
  private abortOnClose: AbortController | undefined;
  private readonly exchanges: ClientExchanges;
  private started = false;
  private closed = false;
  private standaloneOpened = false;
  private readonly maxMessageBytes: number;

  /** @param url the server's MCP endpoint, e.g. `http://127.0.0.1:3000/mcp`. */
  constructor(
    readonly url: URL,
    private readonly options: StreamableHttpClientOptions = {},
  ) {
    this.session = options.sessionId;
    this.carrier = carrierFor(options);
    this.baseHeaders = headerRecord(options.headers);
    this.exchanges = new ClientExchanges(this.carrier, url, options.authorization);
    this.reconnect = { maxRetries: 3, initialDelayMs: 1_000, maxDelayMs: 30_000, ...options.reconnect };
    this.maxMessageBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    if (!Number.isInteger(this.maxMessageBytes) || this.maxMessageBytes < 1) {
      throw new RangeError(`maxMessageBytes must be a positive integer, got ${String(options.maxMessageBytes)}`);
    }
  }

  /** The HTTP machinery this transport's requests go through (`StreamableHttpClientOptions.http`). */
  get http(): HttpPath {
    return this.carrier.path;
  }

  /** The `Mcp-Session-Id` the server assigned, once it did. */
  get sessionId(): string | undefined {
    return this.session;
  }

  /** From now on every request carries `MCP-Protocol-Version: <version>`. */
  setProtocolVersion(version: string): void {
    this.version = version;
  }

  /**
   * Nothing to open until the first message is sent; with `options.sessionId` the GET stream
   * of that session opens now. @throws SdkError "ALREADY_CONNECTED" on a second call.
   */
  async start(): Promise<void> {
    if (this.started) throw new SdkError("ALREADY_CONNECTED", "This transport is already started");
    this.started = true;
    if (this.session !== undefined) this.openStandaloneStream();
  }

  /**
   * POSTs one message. Resolves once the server accepted it; responses arrive on `onmessage`.
   * With `resumptionToken`, resumes that request's SSE stream with a GET instead. An answer that
   * cannot be read (a JSON body that does not parse, -32700 with `data.status`; one over
   * `maxMessageBytes`; one without the response) fails the request at once and is reported.
   * @throws StreamableHttpError on a network failure or an HTTP error status;
   *   `sessionExpired` is true for 404 on a session; a 413 names the server's limit when it
   *   gave one. SdkError "CONNECTION_CLOSED" after close.
   */
  async send(message: JsonRpcMessage, options: HttpSendOptions = {}): Promise<void> {
    if (this.closed) throw new SdkError("CONNECTION_CLOSED", "The transport is closed");
    // The client gave up on that request (a timeout, an aborted signal): its exchange ends here,
    // so that the server ending its stream without a response is not taken for a failure.
    const cancelled = cancelledRequestId(message);
    if (cancelled !== undefined) this.cancelRequest(cancelled);
    const ids = isRequest(message) ? [message.id] : [];
    // The responses this POST owes; emptied by a cancellation even before the answer arrives.
    const pending = new Set(ids);
    if (options.resumptionToken !== undefined) {
      void this.follow({ pending, response: undefined, lastEventId: options.resumptionToken });
      return;
    }
    const sentSession = this.session;
    const body = encodeFrame(message);
    const response = await this.request(
      { method: "POST", url: this.url, headers: this.headers(POST_HEADERS, options.headers), body },
      ids[0] === undefined ? undefined : { id: ids[0], pending },
    );
    let streaming = false;
    try {
      const assigned = response.header(SESSION_ID_HEADER);
      if (assigned !== null) this.session = assigned;
      if (ids.length > 0 && pending.size === 0) {
        await response.cancel();
        return;
      }
      if (!isOk(response.status)) {
        const refusal = await refusalOf(response, {
          url: this.url,
          requestId: ids[0],
          sentSession,
          body,
          maxBytes: this.maxMessageBytes,
        });
        if ("answer" in refusal) {
          this.onmessage?.(refusal.answer);
          return;
        }
        if (refusal.error.sessionExpired) this.forgetSession(sentSession);
        throw refusal.error;
      }
      if (response.status === 202 || ids.length === 0) {
        await response.cancel();
        // Normal operation starts with `notifications/initialized`; before it the server has nothing to say.
        if ("method" in message && message.method === "notifications/initialized") this.openStandaloneStream();
        return;
      }
      const type = mediaTypeOf(response.header("content-type"));
      if (type === JSON_MEDIA_TYPE) {
        await this.receiveJson(response, pending);
      } else if (type === SSE_MEDIA_TYPE) {
        streaming = true;
        void this.follow({ pending, response, lastEventId: undefined });
      } else {
        await response.cancel();
        throw new StreamableHttpError(response.status, `Unexpected Content-Type "${type}" in the answer to a request`);
      }
    } finally {
      if (!streaming) this.release(response);
    }
  }

  /**
   * Ends the HTTP exchange of request `id`: aborts its POST or closes its response stream, and
   * owes no response for it. For the stateless era, where that is the cancellation signal.
   * @returns false when the request is already answered or unknown.
   */
  cancelRequest(id: RequestId): boolean {
    return this.exchanges.cancel(id);
  }

  /** Stops all streams, ends the session on the server (DELETE; 405 is fine), fires `onclose`. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.exchanges.refuseNew();
    this.abortOnClose?.abort(CLOSED);
    try {
      await this.terminateSession();
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
    // The ended session's streams usually end within a turn or two; a stream that ended is not
    // aborted, so its connection goes back to the pool instead of being torn down and opened anew.
    await this.exchanges.settled(CLOSE_SETTLE_MS);
    this.exchanges.stopAll();
    this.onclose?.();
  }

  /**
   * Sends DELETE for the current session and forgets its id. 405 (the server does not let
   * clients end sessions) and 404 (already gone) count as done.
   * @throws StreamableHttpError for other failures.
   */
  async terminateSession(): Promise<void> {
    const sessionId = this.session;
    if (sessionId === undefined) return;
    let response: HttpAnswer;
    try {
      // Not one of the live exchanges: close() sends it after refusing new ones.
      response = await this.exchanges.sendAside({ method: "DELETE", url: this.url, headers: this.headers(NO_HEADERS) });
    } catch (error) {
      if (error instanceof StreamableHttpError) throw error;
      throw new StreamableHttpError(undefined, `DELETE ${this.url} failed: ${fetchFailure(error)}`, { cause: error });
    }
    await response.cancel();
    if (!isOk(response.status) && response.status !== 405 && response.status !== 404) {
      throw new StreamableHttpError(response.status, `DELETE ${this.url} failed with HTTP ${response.status}`);
    }
    if (this.session === sessionId) this.session = undefined;
  }

  /**
   * Follows one logical SSE stream to its end, reconnecting when the connection drops. Requests
   * whose responses the stream still owes when it is given up get a -32000 error response (naming
   * the limit when an event was too large), so that they fail instead of waiting for a response
   * that can no longer come.
   */
  private async follow(state: StreamState): Promise<void> {
    const session = this.session;
    const ended = await followStream(state, {
      reconnect: this.reconnect,
      closeSignal: () => this.closeSignal(),
      maxEventBytes: this.maxMessageBytes,
      isClosed: () => this.closed,
      // A stream belongs to its session: once the session is replaced, reconnecting would open a duplicate.
      connect: () => (this.session === session ? this.connectStream(state) : Promise.resolve("stop" as const)),
      onEvent: (event) => {
        if (event.id !== undefined) this.options.onresumptiontoken?.(event.id);
        this.receiveEvent(event, state.pending);
      },
      report: (error) => this.report(error),
      release: (response) => this.release(response),
    });
    if (this.closed || state.pending === undefined) return;
    this.failPending(state.pending, ended instanceof MessageTooLargeError ? tooLargeFailure(ended) : CONNECTION_CLOSED);
  }

  /** Answers every request still in `pending` with `failure`'s JSON-RPC error. */
  private failPending(pending: Set<RequestId>, failure: AnswerFailure): void {
    for (const id of [...pending]) {
      pending.delete(id);
      this.onmessage?.(errorResponse(id, failure.code, failure.message, failure.data));
    }
  }

  /** The signal aborted on close (already aborted once closed). */
  private closeSignal(): AbortSignal {
    if (this.abortOnClose === undefined) {
      this.abortOnClose = new AbortController();
      if (this.closed) this.abortOnClose.abort(CLOSED);
    }
    return this.abortOnClose.signal;
  }

  private openStandaloneStream(): void {
    if (this.standaloneOpened || this.closed) return;
    this.standaloneOpened = true;
    void this.follow({ pending: undefined, response: undefined, lastEventId: undefined });
  }

  /** One GET for a stream: the response, "retry" after a transient failure, or "stop". */
  private async connectStream(state: StreamState): Promise<HttpAnswer | "retry" | "stop"> {
    const extra: Record<string, string> = { accept: SSE_MEDIA_TYPE };
    if (state.lastEventId !== undefined) extra[LAST_EVENT_ID_HEADER] = state.lastEventId;
    let response: HttpAnswer;
    try {
      response = await this.request({ method: "GET", url: this.url, headers: this.headers(extra) });
    } catch (error) {
      // A redirect refused (to another origin) would only be refused again: it is reported instead.
      const refused = !this.closed && error instanceof Error && error.cause instanceof CrossOriginRedirectError;
      if (refused) this.report(error);
      return this.closed || refused ? "stop" : "retry";
    }
    if (isOk(response.status) && mediaTypeOf(response.header("content-type")) === SSE_MEDIA_TYPE) {
      state.connected = true;
      return response;
    }
    if (response.status === 410 && state.pending === undefined && state.lastEventId !== undefined) {
      // The server no longer has what was sent since that id. The GET stream owes no response,
      // so it goes on from now, and the application hears that notifications were lost.
      await response.cancel().catch(() => {});
      this.release(response);
      this.report(resumeGoneError(state.lastEventId));
      state.lastEventId = undefined;
      return this.connectStream(state);
    }
    try {
      const refusal = await streamRefusalOf(response, {
        url: this.url,
        standalone: state.pending === undefined,
        wasOpen: state.connected === true,
        maxBytes: this.maxMessageBytes,
      });
      if (refusal === "retry") return "retry";
      if (refusal !== undefined) this.report(refusal);
      return "stop";
    } finally {
      this.release(response);
    }
  }

  private receiveEvent(event: EventSourceMessage, pending: Set<RequestId> | undefined): void {
    if (event.event !== undefined && event.event !== "message") return;
    // An event with an id and empty data only primes `Last-Event-ID`.
    if (event.data === "") return;
    const frame = decodeFrame(event.data);
    if (!frame.ok) {
      this.report(
        new StreamableHttpError(undefined, `The server sent a malformed message: ${frame.error.error.message}`),
      );
      return;
    }
    this.deliver(frame, pending);
  }

  /**
   * A JSON answer holds the responses of its POST: when it is too large, does not parse or lacks
   * one of them, the requests it owes fail at once (and the problem is reported), rather than
   * waiting for their timeout.
   */
  private async receiveJson(response: HttpAnswer, pending: Set<RequestId>): Promise<void> {
    const answer = await readJsonAnswer(response, this.maxMessageBytes);
    if ("failure" in answer) {
      this.report(answer.problem);
      this.failPending(pending, answer.failure);
      return;
    }
    this.deliver(answer.frame, pending);
    if (pending.size === 0) return;
    const { status } = response;
    const message = `The server's JSON answer (HTTP ${status}) held no response to the request`;
    this.report(new StreamableHttpError(status, message));
    this.failPending(pending, { code: ErrorCode.ConnectionClosed, message, data: { status } });
  }

  /**
   * Hands a decoded frame on, crossing off the requests it answers. An error with id `null` is
   * the server refusing the message it answers: the requests still owed fail with that error.
   */
  private deliver(frame: { messages: JsonRpcMessage[]; batch: boolean }, pending: Set<RequestId> | undefined): void {
    let refusal: AnswerFailure | undefined;
    for (const message of frame.messages) {
      if (!isResponse(message)) continue;
      if (message.id !== null) pending?.delete(message.id);
      else if ("error" in message) refusal = message.error;
    }
    this.onmessage?.(frame.batch ? frame.messages : (frame.messages[0] as JsonRpcMessage));
    if (refusal !== undefined && pending !== undefined) this.failPending(pending, refusal);
  }

  /** One of the live exchanges (see `ClientExchanges`), authorized when the options say so. */
  private request(request: HttpRequest, owed?: { id: RequestId; pending: Set<RequestId> }): Promise<HttpAnswer> {
    return this.exchanges.send(request, owed);
  }

  private release(response: HttpAnswer): void {
    this.exchanges.release(response);
  }

  /** The server ended session `ended`: forget it and its revision, unless another replaced it already. */
  private forgetSession(ended: string | undefined): void {
    if (this.session !== ended) return;
    this.session = undefined;
    this.version = undefined;
    this.standaloneOpened = false;
  }

  /**
   * The headers of one request: `options.headers`, then the message's own (`SendOptions.headers`),
   * then `extra`, the session id and the protocol version; names lower-case.
   */
  private headers(
    extra: Readonly<Record<string, string>>,
    own?: Readonly<Record<string, string>>,
  ): Record<string, string> {
    const headers = { ...this.baseHeaders };
    if (own !== undefined) for (const name in own) headers[name.toLowerCase()] = own[name] as string;
    Object.assign(headers, extra);
    if (this.session !== undefined) headers[SESSION_ID_HEADER] = this.session;
    if (this.version !== undefined) headers[PROTOCOL_VERSION_HEADER] = this.version;
    return headers;
  }

  private report(error: Error): void {
    if (!this.closed) this.onerror?.(error);
  }
}

/** What every POST says it accepts and carries. */
const POST_HEADERS: Readonly<Record<string, string>> = {
  accept: `${JSON_MEDIA_TYPE}, ${SSE_MEDIA_TYPE}`,
  "content-type": JSON_MEDIA_TYPE,
};
const NO_HEADERS: Readonly<Record<string, string>> = {};

/** How long `close()` lets the session's streams end on their own before it aborts them, in ms. */
const CLOSE_SETTLE_MS = 1;

/** The reason the waits between reconnections end with: one shared value, not an error built per close. */
const CLOSED = "closed";

/** The id of the request a `notifications/cancelled` message cancels, or `undefined`. */
function cancelledRequestId(message: JsonRpcMessage): RequestId | undefined {
  if (!isNotification(message) || message.method !== "notifications/cancelled") return undefined;
  const id = message.params?.requestId;
  return isRequestId(id) ? id : undefined;
}
