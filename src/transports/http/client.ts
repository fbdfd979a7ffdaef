/**
 * The client side of Streamable HTTP (spec: basic/transports § Streamable HTTP): every
 * message is a POST; answers come back as JSON or as an SSE stream; a GET stream carries
 * what the server sends on its own. Broken SSE streams are resumed with `Last-Event-ID`.
 */
import { ErrorCode, SdkError } from "../../jsonrpc/errors.js";
import { decodeFrame, errorResponse } from "../../jsonrpc/frame.js";
import {
  isNotification,
  isRequest,
  isRequestId,
  isResponse,
  type JsonRpcMessage,
  type RequestId,
} from "../../jsonrpc/messages.js";
import type { MessageExtra, SendOptions, Transport } from "../transport.js";
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

/** Options of `new StreamableHttpClientTransport(url, options)`. */
export interface StreamableHttpClientOptions {
  /** Default: the global `fetch`. `McpAuthorization.fetch` (mcp-handoff/auth) adds OAuth authorization. */
  fetch?: typeof fetch;
  /** Sent with every request (e.g. `Authorization`). */
  headers?: HeadersInit;
  /** Continue an existing session instead of starting one. */
  sessionId?: string;
  /** How broken SSE streams are resumed; default 3 attempts from 1,000 ms, doubling, at most 30,000 ms apart. */
  reconnect?: Partial<ReconnectOptions>;
  /** Called with each SSE event id, to pass back later as `SendOptions.resumptionToken`. */
  onresumptiontoken?: (token: string) => void;
}

/**
 * The client end of Streamable HTTP: every message is a POST to `url`; answers come as JSON or
 * SSE, and a GET stream (opened after `notifications/initialized`) carries what the server sends
 * on its own. A 404 on a known session rejects `send` with a `StreamableHttpError` whose
 * `sessionExpired` is true (spec: basic/transports § Streamable HTTP). A request the client
 * cancelled (`notifications/cancelled`) stops being followed at once.
 */
export class StreamableHttpClientTransport implements Transport {
  onmessage?: (message: JsonRpcMessage | JsonRpcMessage[], extra?: MessageExtra) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;

  private session: string | undefined;
  private version: string | undefined;
  private readonly fetchFn: typeof fetch;
  private readonly reconnect: ReconnectOptions;
  /** Aborted on close: ends the waits between reconnection attempts. */
  private readonly abort = new AbortController();
  /**
   * One controller per fetch, kept while its body is read, so that close() can stop them all.
   * A single long-lived signal would collect an abort listener per request: fetch removes its
   * listeners only when the request is garbage-collected.
   */
  private readonly live = new Set<AbortController>();
  private readonly liveOf = new WeakMap<Response, AbortController>();
  /** The exchanges of requests still being answered, by JSON-RPC id, for `cancelRequest`. */
  private readonly exchanges = new Map<RequestId, { controller: AbortController; pending: Set<RequestId> }>();
  private readonly exchangeOf = new WeakMap<AbortController, RequestId>();
  private started = false;
  private closed = false;
  private standaloneOpened = false;

  /** @param url the server's MCP endpoint, e.g. `http://127.0.0.1:3000/mcp`. */
  constructor(
    readonly url: URL,
    private readonly options: StreamableHttpClientOptions = {},
  ) {
    this.session = options.sessionId;
    this.fetchFn = options.fetch ?? ((input, init) => fetch(input, init));
    this.reconnect = { maxRetries: 3, initialDelayMs: 1_000, maxDelayMs: 30_000, ...options.reconnect };
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
   * With `resumptionToken`, resumes that request's SSE stream with a GET instead.
   * @throws StreamableHttpError on a network failure or an HTTP error status;
   *   `sessionExpired` is true for 404 on a session. SdkError "CONNECTION_CLOSED" after close.
   */
  async send(message: JsonRpcMessage, options: SendOptions = {}): Promise<void> {
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
    const response = await this.request(
      "POST",
      {
        headers: this.headers({
          ...options.headers,
          accept: `${JSON_MEDIA_TYPE}, ${SSE_MEDIA_TYPE}`,
          "content-type": JSON_MEDIA_TYPE,
        }),
        body: JSON.stringify(message),
      },
      ids[0] === undefined ? undefined : { id: ids[0], pending },
    );
    let streaming = false;
    try {
      const assigned = response.headers.get(SESSION_ID_HEADER);
      if (assigned !== null) this.session = assigned;
      if (ids.length > 0 && pending.size === 0) {
        await response.body?.cancel().catch(() => {});
        return;
      }
      // A JSON-RPC error answering this very request (400, or 404 outside a session) is the
      // server's answer, not a transport failure: the stateless era reports -32022 and -32601 so.
      if (!response.ok && (response.status === 400 || (response.status === 404 && sentSession === undefined))) {
        const answer = isRequest(message) ? await errorAnswer(response.clone(), message.id) : undefined;
        if (answer !== undefined) {
          await response.body?.cancel();
          this.onmessage?.(answer);
          return;
        }
      }
      if (!response.ok) throw await this.failure(response, sentSession);
      if (response.status === 202 || ids.length === 0) {
        await response.body?.cancel();
        // Normal operation starts with `notifications/initialized`; before it the server has nothing to say.
        if ("method" in message && message.method === "notifications/initialized") this.openStandaloneStream();
        return;
      }
      const type = mediaTypeOf(response.headers.get("content-type"));
      if (type === JSON_MEDIA_TYPE) {
        this.receive(await response.text(), undefined);
      } else if (type === SSE_MEDIA_TYPE) {
        streaming = true;
        void this.follow({ pending, response, lastEventId: undefined });
      } else {
        await response.body?.cancel();
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
    const exchange = this.exchanges.get(id);
    if (exchange === undefined) return false;
    this.exchanges.delete(id);
    exchange.pending.clear();
    exchange.controller.abort();
    return true;
  }

  /** Stops all streams, ends the session on the server (DELETE; 405 is fine), fires `onclose`. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.abort.abort(CLOSED);
    try {
      await this.terminateSession();
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
    // The ended session's streams usually end within this turn; a stream that ended is not aborted,
    // so its connection goes back to the pool instead of being torn down and opened anew.
    if (this.live.size > 0) await new Promise<void>((resolve) => setTimeout(resolve, 0));
    for (const controller of this.live) controller.abort();
    this.live.clear();
    this.exchanges.clear();
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
    let response: Response;
    try {
      response = await this.fetchFn(this.url, { method: "DELETE", headers: this.headers({}) });
    } catch (error) {
      throw new StreamableHttpError(undefined, `DELETE ${this.url} failed: ${fetchFailure(error)}`, { cause: error });
    }
    await response.body?.cancel();
    if (!response.ok && response.status !== 405 && response.status !== 404) {
      throw new StreamableHttpError(response.status, `DELETE ${this.url} failed with HTTP ${response.status}`);
    }
    if (this.session === sessionId) this.session = undefined;
  }

  /**
   * Follows one logical SSE stream to its end, reconnecting when the connection drops. Requests
   * whose responses the stream still owes when it is given up get a -32000 error response, so
   * that they fail instead of waiting for a response that can no longer come.
   */
  private async follow(state: StreamState): Promise<void> {
    const session = this.session;
    await followStream(state, {
      reconnect: this.reconnect,
      signal: this.abort.signal,
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
    if (this.closed || state.pending === undefined || state.pending.size === 0) return;
    for (const id of [...state.pending]) {
      state.pending.delete(id);
      this.onmessage?.(
        errorResponse(id, ErrorCode.ConnectionClosed, "The connection closed before the response arrived"),
      );
    }
  }

  private openStandaloneStream(): void {
    if (this.standaloneOpened || this.closed) return;
    this.standaloneOpened = true;
    void this.follow({ pending: undefined, response: undefined, lastEventId: undefined });
  }

  /** One GET for a stream: the response, "retry" after a transient failure, or "stop". */
  private async connectStream(state: StreamState): Promise<Response | "retry" | "stop"> {
    const sentSession = this.session;
    const extra: Record<string, string> = { accept: SSE_MEDIA_TYPE };
    if (state.lastEventId !== undefined) extra[LAST_EVENT_ID_HEADER] = state.lastEventId;
    let response: Response;
    try {
      response = await this.request("GET", { headers: this.headers(extra) });
    } catch {
      return this.closed ? "stop" : "retry";
    }
    if (response.ok && mediaTypeOf(response.headers.get("content-type")) === SSE_MEDIA_TYPE) return response;
    try {
      await response.body?.cancel().catch(() => {});
      // 405: the server offers no standalone stream, which is allowed.
      if (response.status === 405 && state.pending === undefined) return "stop";
      if (response.status >= 500 || response.status === 429) return "retry";
      if (!response.ok) this.report(await this.failure(response, sentSession));
      else this.report(new StreamableHttpError(response.status, "The server answered a GET without an SSE stream"));
      return "stop";
    } finally {
      this.release(response);
    }
  }

  private receiveEvent(event: EventSourceMessage, pending: Set<RequestId> | undefined): void {
    if (event.event !== undefined && event.event !== "message") return;
    // An event with an id and empty data only primes `Last-Event-ID`.
    if (event.data === "") return;
    this.receive(event.data, pending);
  }

  private receive(text: string, pending: Set<RequestId> | undefined): void {
    const frame = decodeFrame(text);
    if (!frame.ok) {
      this.report(
        new StreamableHttpError(undefined, `The server sent a malformed message: ${frame.error.error.message}`),
      );
      return;
    }
    for (const message of frame.messages) {
      if (!isResponse(message)) continue;
      if (message.id === null) pending?.clear();
      else pending?.delete(message.id);
    }
    this.onmessage?.(frame.batch ? frame.messages : (frame.messages[0] as JsonRpcMessage));
  }

  /**
   * One fetch with a signal of its own, live until `release(response)` or close. A request's
   * exchange is registered with the responses it owes, for `cancelRequest`.
   */
  private async request(
    method: "GET" | "POST",
    init: RequestInit,
    exchange?: { id: RequestId; pending: Set<RequestId> },
  ): Promise<Response> {
    const controller = new AbortController();
    if (this.closed) controller.abort();
    this.live.add(controller);
    if (exchange !== undefined) {
      this.exchanges.set(exchange.id, { controller, pending: exchange.pending });
      this.exchangeOf.set(controller, exchange.id);
    }
    try {
      const response = await this.fetchFn(this.url, { ...init, method, signal: controller.signal });
      this.liveOf.set(response, controller);
      return response;
    } catch (error) {
      this.live.delete(controller);
      this.forgetExchange(controller);
      throw new StreamableHttpError(undefined, `${method} ${this.url} failed: ${fetchFailure(error)}`, {
        cause: error,
      });
    }
  }

  /** The response's body is read or given up: close() no longer needs to abort its fetch. */
  private release(response: Response): void {
    const controller = this.liveOf.get(response);
    if (controller === undefined) return;
    this.live.delete(controller);
    this.forgetExchange(controller);
  }

  private forgetExchange(controller: AbortController): void {
    const id = this.exchangeOf.get(controller);
    if (id !== undefined && this.exchanges.get(id)?.controller === controller) this.exchanges.delete(id);
  }

  /** The error for a non-2xx answer; a 404 on a session also forgets that session and its revision. */
  private async failure(response: Response, sentSession: string | undefined): Promise<StreamableHttpError> {
    const detail = await errorDetail(response);
    if (response.status === 404 && sentSession !== undefined) {
      if (this.session === sentSession) {
        this.session = undefined;
        this.version = undefined;
        this.standaloneOpened = false;
      }
      return new StreamableHttpError(404, `The session has ended or expired: ${detail}`, { sessionExpired: true });
    }
    return new StreamableHttpError(response.status, `HTTP ${response.status} from ${this.url}: ${detail}`);
  }

  private headers(extra: Record<string, string>): Headers {
    const headers = new Headers(this.options.headers);
    for (const [name, value] of Object.entries(extra)) headers.set(name, value);
    if (this.session !== undefined) headers.set(SESSION_ID_HEADER, this.session);
    if (this.version !== undefined) headers.set(PROTOCOL_VERSION_HEADER, this.version);
    return headers;
  }

  private report(error: Error): void {
    if (!this.closed) this.onerror?.(error);
  }
}

/** The reason the waits between reconnections end with: one shared value, not an error built per close. */
const CLOSED = "closed";

/** The id of the request a `notifications/cancelled` message cancels, or `undefined`. */
function cancelledRequestId(message: JsonRpcMessage): RequestId | undefined {
  if (!isNotification(message) || message.method !== "notifications/cancelled") return undefined;
  const id = message.params?.requestId;
  return isRequestId(id) ? id : undefined;
}

/** The body as a JSON-RPC error response to request `id`, or `undefined`. */
async function errorAnswer(response: Response, id: RequestId): Promise<JsonRpcMessage | undefined> {
  const frame = decodeFrame(await response.text().catch(() => ""));
  const message = frame.ok && !frame.batch ? frame.messages[0] : undefined;
  return message !== undefined && isResponse(message) && "error" in message && message.id === id ? message : undefined;
}

/** The JSON-RPC error message of an error body, or the start of its text. */
async function errorDetail(response: Response): Promise<string> {
  const text = await response.text().catch(() => "");
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } };
    if (typeof body.error?.message === "string") return body.error.message;
  } catch {
    // Not JSON: fall through to the raw text.
  }
  return text.slice(0, 200) || response.statusText;
}
