/**
 * Where the server writes the messages of one HTTP response: an SSE stream (one event per
 * message, flushed as written) or a single JSON body sent once every request is answered.
 */
import { ErrorCode } from "../../jsonrpc/errors.js";
import { errorResponse } from "../../jsonrpc/frame.js";
import { isResponse, type JsonRpcMessage, type JsonRpcResponse, type RequestId } from "../../jsonrpc/messages.js";
import { MAX_SSE_BACKLOG_BYTES, SSE_MEDIA_TYPE } from "./constants.js";
import type { HttpReply } from "./exchange.js";
import { jsonResponse } from "./responses.js";

export interface Sink {
  /** False once the client went away or the sink was ended. */
  readonly open: boolean;
  /** Whether the sink can carry requests and notifications, not only responses. */
  readonly streaming: boolean;
  write(message: JsonRpcMessage, eventId?: string): void;
  /** Ends the response; `unanswered` lists requests that will never get a response. */
  end(unanswered?: readonly RequestId[]): void;
}

/** Where an SSE sink's text goes once the adapter has the connection; a `ServerResponse` is one. */
export interface SseOutput {
  write(text: string): unknown;
  end(): unknown;
  /** Bytes written that the client has not taken yet, where the adapter knows. */
  readonly writableLength?: number;
  /** Drops the connection at once. */
  destroy?(): unknown;
}

/**
 * One SSE response body. Events written before the adapter attaches the connection wait in a
 * string; `cancel` (the client went away) runs `oncancel` once. A client that leaves more than
 * `MAX_SSE_BACKLOG_BYTES` unread when an event is due is dropped the same way.
 */
export class SseSink implements Sink {
  readonly streaming = true;
  private out: SseOutput | undefined;
  private pending = "";
  private isOpen = true;
  private cancelled = false;

  constructor(private readonly oncancel: () => void) {}

  get open(): boolean {
    return this.isOpen;
  }

  write(message: JsonRpcMessage, eventId?: string): void {
    if (!this.isOpen) return;
    const id = eventId === undefined ? "" : idField(eventId);
    // JSON.stringify escapes line breaks, so the data always fits on one `data:` line.
    this.emit(`${id}event: message\ndata: ${JSON.stringify(message)}\n\n`);
  }

  /**
   * Writes the priming event: an id and empty data, which clients keep as `Last-Event-ID`
   * but do not dispatch as a message, and `retry` (ms) to wait before reconnecting.
   */
  prime(eventId: string, retryMs?: number): void {
    if (!this.isOpen) return;
    const retry = retryMs === undefined ? "" : `retry: ${retryMs}\n`;
    this.emit(`${idField(eventId)}${retry}data: \n\n`);
  }

  end(): void {
    if (!this.isOpen) return;
    this.isOpen = false;
    this.out?.end();
  }

  /** @internal Called by the adapter with the connection; what was written so far goes first. */
  attach(out: SseOutput): void {
    if (this.cancelled) return;
    this.out = out;
    if (this.pending !== "") out.write(this.pending);
    this.pending = "";
    if (!this.isOpen) out.end();
  }

  /** @internal The client went away: nothing more is written, and `oncancel` runs. */
  cancel(): void {
    const wasOpen = this.isOpen;
    this.isOpen = false;
    this.out = undefined;
    this.pending = "";
    if (this.cancelled || !wasOpen) return;
    this.cancelled = true;
    this.oncancel();
  }

  /** The 200 answer carrying this stream. */
  reply(headers: Record<string, string>, cacheControl = "no-cache, no-transform"): HttpReply {
    return {
      status: 200,
      headers: { ...headers, "content-type": SSE_MEDIA_TYPE, "cache-control": cacheControl },
      stream: this,
    };
  }

  private emit(text: string): void {
    const out = this.out;
    if (out === undefined) {
      this.pending += text;
    } else if ((out.writableLength ?? 0) > MAX_SSE_BACKLOG_BYTES) {
      this.cancel();
      out.destroy?.();
    } else {
      out.write(text);
    }
  }
}

function idField(eventId: string): string {
  if (/[\r\n\0]/.test(eventId)) throw new TypeError("An SSE event id must not contain line breaks or NUL");
  return `id: ${eventId}\n`;
}

/** Collects responses and answers with one JSON body: an object, or an array for a batch. */
export class JsonSink implements Sink {
  readonly streaming = false;
  readonly reply: Promise<HttpReply>;
  private readonly responses: JsonRpcResponse[] = [];
  private resolve: ((reply: HttpReply) => void) | undefined;
  private isOpen = true;

  constructor(
    private readonly batch: boolean,
    private readonly headers: Record<string, string>,
  ) {
    this.reply = new Promise((resolve) => {
      this.resolve = resolve;
    });
  }

  get open(): boolean {
    return this.isOpen;
  }

  write(message: JsonRpcMessage): void {
    if (this.isOpen && isResponse(message)) this.responses.push(message);
  }

  end(unanswered: readonly RequestId[] = []): void {
    if (!this.isOpen) return;
    this.isOpen = false;
    for (const id of unanswered) {
      this.responses.push(errorResponse(id, ErrorCode.ConnectionClosed, "The connection closed before a response"));
    }
    // Every request was cancelled: there is nothing to answer with, as for a POST of notifications.
    if (this.responses.length === 0) {
      this.resolve?.({ status: 202, headers: this.headers });
      return;
    }
    // A refused batch is answered with one error object, as JSON-RPC 2.0 prescribes.
    const refusal = this.responses.find((r) => r.id === null);
    const body = refusal ?? (this.batch ? this.responses : this.responses[0]);
    this.resolve?.(jsonResponse(200, body, this.headers));
  }
}
