/**
 * Where the server writes the messages of one HTTP response: an SSE stream (one event per
 * message, flushed as written) or a single JSON body sent once every request is answered.
 */
import { ErrorCode } from "../../jsonrpc/errors.js";
import { errorResponse, wellFormedJson } from "../../jsonrpc/frame.js";
import { noteWritten, searchWorthwhile, spliceLargeStrings } from "../../jsonrpc/large-strings.js";
import { isResponse, type JsonRpcMessage, type JsonRpcResponse, type RequestId } from "../../jsonrpc/messages.js";
import { clock, epochOf } from "./clock.js";
import { MAX_SSE_BACKLOG_BYTES, SSE_MEDIA_TYPE } from "./constants.js";
import type { HttpReply, ReplyStream, SseOutput } from "./exchange.js";
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

/**
 * @internal Hears of the sinks it made, as methods of one object (the session transport) rather
 * than closures held by each sink; each call is told the `key` the sink was made with.
 */
export interface SseSinkOwner {
  /** The client went away from `sink` (see `SseSink.cancel`). */
  sinkCancelled(sink: SseSink, key: unknown): void;
  /** `sink` reached its allowed age (see `SseSink.onexpire`). */
  sinkExpired(sink: SseSink, key: unknown): void;
}

/** Bits of `SseSink.flags`: the sink was ended or cancelled; the client went away (or the text was taken); `expire` ran. */
const SHUT = 1;
const CANCELLED = 2;
const EXPIRING = 4;
/** `onexpire` was set. */
const EXPIRES = 8;

/** The SSE comment a quiet stream carries to show the connection is alive; parsers dispatch no event for it. */
const KEEP_ALIVE_COMMENT = ": keep-alive\n\n";

/**
 * One SSE response body. Events written before the adapter attaches the connection wait in a
 * string; `cancel` (the client went away) runs `oncancel` once (or tells its owner). A client that leaves more than
 * `MAX_SSE_BACKLOG_BYTES` unread when an event is due is dropped the same way, and so is one
 * found gone or stalled by `keepAlive`.
 */
export class SseSink implements Sink, ReplyStream {
  /**
   * The connection once the adapter attached it; until then the text written so far, which it
   * gets first (one field for both: an idle stream holds one).
   */
  private conn: SseOutput | string = "";
  /** `SHUT`, `CANCELLED` and `EXPIRING`, as bits of one number (one field per sink, not three). */
  private flags = 0;
  /** `clock()` of the last write; only kept while the server watches this sink for keep-alives. */
  private lastWriteAt = 0;
  /** Bytes unread right after the last keep-alive; -1 when something was written since. */
  private unreadAtKeepAlive = -1;
  /** The server's set of sinks watched for keep-alives; the sink leaves it when it ends. */
  private watchers: Set<SseSink> | undefined;
  /** `clock()` when the server began to watch this sink: the age of its connection counts from then. */
  private watchedAt = 0;

  /**
   * `oncancel`: runs once when the client goes away; or the owner told of it, with `key`.
   * `key` is only kept with an owner: with a callback its slot holds `onexpire`'s (one field, not two).
   */
  constructor(
    private readonly oncancel: (() => void) | SseSinkOwner,
    private key?: unknown,
  ) {}

  /**
   * @internal Set by the session transport where this connection can close without losing
   * anything (the client reconnects, resuming where events are stored): what to do once the
   * connection reaches its allowed age; `true`: tell the owner (`SseSinkOwner.sinkExpired`), for
   * a sink made with one; a function, for a sink made with a callback. Left unset, the connection
   * stays until its stream ends.
   */
  get onexpire(): (() => void) | true | undefined {
    if ((this.flags & EXPIRES) === 0) return undefined;
    return typeof this.oncancel === "function" ? (this.key as () => void) : true;
  }

  set onexpire(onexpire: (() => void) | true | undefined) {
    if (onexpire === undefined) {
      this.flags &= ~EXPIRES;
      return;
    }
    const owned = typeof this.oncancel !== "function";
    if (owned !== (onexpire === true)) {
      throw new TypeError("onexpire is true for a sink made with an owner, a function for one made with a callback");
    }
    if (!owned) this.key = onexpire;
    this.flags |= EXPIRES;
  }

  /** The attached connection, if any. */
  private get out(): SseOutput | undefined {
    const conn = this.conn;
    return typeof conn === "string" ? undefined : conn;
  }

  get open(): boolean {
    return (this.flags & SHUT) === 0;
  }

  private get isOpen(): boolean {
    return (this.flags & SHUT) === 0;
  }

  /** Whether the client went away, or the connection was attached or taken whole: nothing more goes to it. */
  private get cancelled(): boolean {
    return (this.flags & CANCELLED) !== 0;
  }

  /** Always: an SSE stream carries requests and notifications too (a getter: no field per sink). */
  get streaming(): boolean {
    return true;
  }

  write(message: JsonRpcMessage, eventId?: string): void {
    if (!this.isOpen) return;
    const id = eventId === undefined ? "" : idField(eventId);
    // JSON escapes line breaks, so the data always fits on one `data:` line. While large messages
    // are being written, one carrying a string of MiBs has it joined in as it is, and the socket
    // flattens the event once.
    const large = searchWorthwhile() ? spliceLargeStrings(message) : undefined;
    if (large !== undefined) {
      noteWritten(large.length);
      this.emit(`${id}event: message\ndata: ${large}\n\n`);
      return;
    }
    // Otherwise the event is searched for escaped lone surrogates as a whole: JSON.stringify's
    // text is a tree of pieces, and the search joins them into the event's one string, which the
    // socket then takes as it is (the search of the data alone would copy the data once more).
    const data = JSON.stringify(message);
    noteWritten(data.length);
    const event = `${id}event: message\ndata: ${data}\n\n`;
    this.emit(event.includes("\\ud") ? `${id}event: message\ndata: ${wellFormedJson(data)}\n\n` : event);
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

  /**
   * Ends the connection, not the stream: a last event carries `retry` (ms before reconnecting)
   * and, where events are stored, the id to resume after. A client that left bytes unread is not
   * reading, so it is let go of at once instead, as by `keepAlive`.
   */
  close(retryMs: number, eventId?: string): void {
    if (!this.isOpen) return;
    const out = this.out;
    if (out !== undefined && (out.writableLength ?? 0) > 0) {
      this.drop(out);
      return;
    }
    const id = eventId === undefined ? "" : idField(eventId);
    // Empty data makes it an event that clients dispatch and ignore, so it counts as one received.
    this.emit(`${id}retry: ${retryMs}\ndata: \n\n`);
    this.end();
  }

  end(): void {
    if (!this.isOpen) return;
    this.flags |= SHUT;
    this.watchers?.delete(this);
    this.out?.end();
  }

  /** @internal `Date.now()` of the last write to this sink (events, priming or keep-alive) since it was watched. */
  get writtenAt(): number {
    return epochOf(this.lastWriteAt);
  }

  /** @internal Adds this open sink to `watchers` (the server's keep-alive sweep); it leaves once it ends. */
  watch(watchers: Set<SseSink>): void {
    if (!this.isOpen) return;
    this.watchers = watchers;
    this.lastWriteAt = clock();
    this.watchedAt = this.lastWriteAt;
    watchers.add(this);
  }

  /** @internal Date.now() when the server began to watch this sink. */
  get openedAt(): number {
    return epochOf(this.watchedAt);
  }

  /** @internal Whether the connection is open and can be closed once it reaches its allowed age. */
  get expirable(): boolean {
    return this.isOpen && this.onexpire !== undefined && (this.flags & EXPIRING) === 0;
  }

  /** @internal The connection reached its allowed age: `onexpire` runs, once. */
  expire(): void {
    if (!this.expirable) return;
    this.flags |= EXPIRING;
    const onexpire = this.onexpire;
    if (onexpire === true) (this.oncancel as SseSinkOwner).sinkExpired(this, this.key);
    else onexpire?.();
  }

  /**
   * @internal Writes an SSE comment (`: keep-alive`), which no parser dispatches as an event, so a
   * quiet connection is not dropped by proxies and a dead one shows up. The client counts as
   * gone, as when it disconnects (`cancel`, then the connection is dropped), when the write
   * throws, or when the bytes left unread after the previous keep-alive are still all unread: a
   * peer that took nothing for a whole keep-alive interval (its socket vanished without a FIN).
   */
  keepAlive(): void {
    if (!this.isOpen) return;
    this.lastWriteAt = clock();
    const out = this.out;
    if (out === undefined) return;
    const unread = out.writableLength ?? 0;
    if (unread > 0 && this.unreadAtKeepAlive >= 0 && unread >= this.unreadAtKeepAlive) {
      this.drop(out);
      return;
    }
    try {
      out.write(KEEP_ALIVE_COMMENT);
    } catch {
      this.drop(out);
      return;
    }
    this.unreadAtKeepAlive = out.writableLength ?? 0;
  }

  /** @internal Called by the adapter with the connection; what was written so far goes first. */
  attach(out: SseOutput): void {
    if (this.cancelled) return;
    const pending = this.conn;
    this.conn = out;
    if (typeof pending === "string" && pending !== "") out.write(pending);
    if (!this.isOpen) out.end();
  }

  /** @internal See `ReplyStream.takeComplete`. */
  takeComplete(): string | undefined {
    const text = this.conn;
    if (this.isOpen || this.cancelled || typeof text !== "string") return undefined;
    this.conn = "";
    // Counted as attached: a later `attach` writes nothing.
    this.flags |= CANCELLED;
    return text;
  }

  /** @internal The client went away: nothing more is written, and `oncancel` runs. */
  cancel(): void {
    const wasOpen = this.isOpen;
    this.flags |= SHUT;
    this.watchers?.delete(this);
    this.conn = "";
    if (this.cancelled || !wasOpen) return;
    this.flags |= CANCELLED;
    const oncancel = this.oncancel;
    if (typeof oncancel === "function") oncancel();
    else oncancel.sinkCancelled(this, this.key);
  }

  /** The 200 answer carrying this stream. */
  reply(headers: Record<string, string>, cacheControl = "no-cache, no-transform"): HttpReply {
    // Copied then set, not spread with the two after: V8 spreads into a literal with more
    // properties on a slow path, some microseconds per answer.
    const all = Object.assign({}, headers);
    all["content-type"] = SSE_MEDIA_TYPE;
    all["cache-control"] = cacheControl;
    return { status: 200, headers: all, stream: this };
  }

  private emit(text: string): void {
    if (this.watchers !== undefined) {
      this.lastWriteAt = clock();
      this.unreadAtKeepAlive = -1;
    }
    const out = this.conn;
    if (typeof out === "string") {
      this.conn = out + text;
    } else if ((out.writableLength ?? 0) > MAX_SSE_BACKLOG_BYTES) {
      this.drop(out);
    } else {
      out.write(text);
    }
  }

  /** The client is not there or not reading: let go of it as if it had left, and drop the connection. */
  private drop(out: SseOutput): void {
    this.cancel();
    out.destroy?.();
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

  /** The client went away: nothing more is collected, and the pending answer settles as 202 nobody reads. */
  cancel(): void {
    if (!this.isOpen) return;
    this.isOpen = false;
    this.resolve?.({ status: 202, headers: this.headers });
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
