/**
 * Where the server writes the messages of one HTTP response: an SSE stream (one event per
 * message, flushed as written) or a single JSON body sent once every request is answered.
 */
import { ErrorCode } from "../../jsonrpc/errors.js";
import { errorResponse } from "../../jsonrpc/frame.js";
import { isResponse, type JsonRpcMessage, type JsonRpcResponse, type RequestId } from "../../jsonrpc/messages.js";
import { JSON_MEDIA_TYPE, SSE_MEDIA_TYPE } from "./constants.js";

export interface Sink {
  /** False once the client went away or the sink was ended. */
  readonly open: boolean;
  /** Whether the sink can carry requests and notifications, not only responses. */
  readonly streaming: boolean;
  write(message: JsonRpcMessage, eventId?: string): void;
  /** Ends the response; `unanswered` lists requests that will never get a response. */
  end(unanswered?: readonly RequestId[]): void;
}

const encoder = new TextEncoder();

/** One SSE response body. `oncancel` runs when the client disconnects. */
export class SseSink implements Sink {
  readonly streaming = true;
  readonly body: ReadableStream<Uint8Array>;
  private controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  private isOpen = true;

  constructor(oncancel: () => void) {
    this.body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.controller = controller;
      },
      cancel: () => {
        this.isOpen = false;
        oncancel();
      },
    });
  }

  get open(): boolean {
    return this.isOpen;
  }

  write(message: JsonRpcMessage, eventId?: string): void {
    if (!this.isOpen) return;
    const id = eventId === undefined ? "" : idField(eventId);
    // JSON.stringify escapes line breaks, so the data always fits on one `data:` line.
    this.controller?.enqueue(encoder.encode(`${id}event: message\ndata: ${JSON.stringify(message)}\n\n`));
  }

  /**
   * Writes the priming event: an id and empty data, which clients keep as `Last-Event-ID`
   * but do not dispatch as a message, and `retry` (ms) to wait before reconnecting.
   */
  prime(eventId: string, retryMs?: number): void {
    if (!this.isOpen) return;
    const retry = retryMs === undefined ? "" : `retry: ${retryMs}\n`;
    this.controller?.enqueue(encoder.encode(`${idField(eventId)}${retry}data: \n\n`));
  }

  end(): void {
    if (!this.isOpen) return;
    this.isOpen = false;
    this.controller?.close();
  }

  response(headers: Record<string, string>): Response {
    return new Response(this.body, {
      status: 200,
      headers: { ...headers, "content-type": SSE_MEDIA_TYPE, "cache-control": "no-cache, no-transform" },
    });
  }
}

function idField(eventId: string): string {
  if (/[\r\n\0]/.test(eventId)) throw new TypeError("An SSE event id must not contain line breaks or NUL");
  return `id: ${eventId}\n`;
}

/** Collects responses and answers with one JSON body: an object, or an array for a batch. */
export class JsonSink implements Sink {
  readonly streaming = false;
  readonly response: Promise<Response>;
  private readonly responses: JsonRpcResponse[] = [];
  private resolve: ((response: Response) => void) | undefined;
  private isOpen = true;

  constructor(
    private readonly batch: boolean,
    private readonly headers: Record<string, string>,
  ) {
    this.response = new Promise((resolve) => {
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
      this.resolve?.(new Response(null, { status: 202, headers: this.headers }));
      return;
    }
    // A refused batch is answered with one error object, as JSON-RPC 2.0 prescribes.
    const refusal = this.responses.find((r) => r.id === null);
    const body = refusal ?? (this.batch ? this.responses : this.responses[0]);
    this.resolve?.(
      new Response(JSON.stringify(body), {
        status: 200,
        headers: { ...this.headers, "content-type": JSON_MEDIA_TYPE },
      }),
    );
  }
}
