/**
 * JSON-RPC over a pair of byte streams, one message per line (spec: basic/transports § stdio).
 * Both stdio ends build on this: the server over its own stdin/stdout, the client over the
 * pipes of the process it started.
 */
import type { Readable, Writable } from "node:stream";
import { ErrorCode, ProtocolError, SdkError } from "../../jsonrpc/errors.js";
import { encodeFrame, errorResponse, InvalidFrame, readFrame } from "../../jsonrpc/frame.js";
import {
  isNotification,
  isRequest,
  isRequestId,
  isResponse,
  type JsonRpcMessage,
  type RequestId,
} from "../../jsonrpc/messages.js";
import { type MessageExtra, SENT, type Transport } from "../../jsonrpc/transport.js";
import { LineReader } from "./line-reader.js";

/** Options of `new StdioStreamTransport(readable, writable, options)`. */
export interface StdioStreamOptions {
  /** Largest accepted inbound line in bytes, without its terminator. Default 64 MiB. */
  maxLineBytes?: number;
  /**
   * Write the JSON-RPC error response for a frame that cannot be read (-32700 bad JSON or
   * UTF-8, -32600 bad shape or too long) back to the peer. Default `true`.
   */
  answerInvalidFrames?: boolean;
  /** End the writable stream when the transport closes, so the peer sees EOF. Default `true`. */
  endOnClose?: boolean;
  /**
   * Ms the transport stays open after the readable ended, to send the answers still owed to
   * requests that arrived before the end (a client may write its last request and close the
   * server's stdin). It closes as soon as none is owed. Default 0: close at the end of input.
   */
  endGraceMs?: number;
}

/**
 * Characters from which a message is written apart from its newline rather than joined with it
 * (and with the other lines of its tick): joining copies the text.
 */
const JOIN_LIMIT = 64 * 1024;
const NEWLINE = "\n";

/** Characters of an unreadable line kept in {@link InvalidLineError.text}. */
const KEPT_CHARS = 200;

/**
 * A line of the peer's output that is not a JSON-RPC message (bad JSON, bad shape, too long, bad
 * UTF-8), as `onerror` gets it: the ProtocolError of the frame, with where it was and how it began.
 */
export class InvalidLineError extends ProtocolError {
  constructor(
    code: number,
    message: string,
    /** 1 for the first line read from the stream; blank lines are not counted. */
    readonly lineNumber: number,
    /** The line's first 200 characters as received (control characters included); "" when it was not kept. */
    readonly text: string,
  ) {
    super(code, message);
  }
}

/**
 * A {@link Transport} over a readable and a writable byte stream. EOF or an error on either
 * stream closes it. Frames that cannot be read are reported through `onerror` as a
 * `ProtocolError` carrying the JSON-RPC code (an {@link InvalidLineError}), and the stream keeps
 * being served.
 */
export class StdioStreamTransport implements Transport {
  onmessage?: (message: JsonRpcMessage | JsonRpcMessage[], extra?: MessageExtra) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;

  readonly #readable: Readable;
  readonly #writable: Writable;
  readonly #reader: LineReader;
  readonly #answerInvalidFrames: boolean;
  readonly #endOnClose: boolean;
  readonly #endGraceMs: number;
  /** Ids of inbound requests not answered yet; kept only with `endGraceMs`. */
  readonly #owed: Set<RequestId> | undefined;
  /** Set once the readable ended while answers were owed: the last one sent closes. */
  #inputEnded = false;
  #started = false;
  #closed = false;
  /** Whether a line was written in this tick (the next ones are held until it ends). */
  #writing = false;
  /** The lines held until the end of the tick, joined, each with its newline. */
  #held = "";
  /** Pending while the writable is over its high-water mark. */
  #drain: Promise<void> | undefined;
  #releaseDrain: (() => void) | undefined;
  /** Lines read so far, blank ones aside. */
  #lines = 0;

  constructor(readable: Readable, writable: Writable, options: StdioStreamOptions = {}) {
    this.#readable = readable;
    this.#writable = writable;
    this.#answerInvalidFrames = options.answerInvalidFrames ?? true;
    this.#endOnClose = options.endOnClose ?? true;
    this.#endGraceMs = options.endGraceMs ?? 0;
    if (!(this.#endGraceMs >= 0)) throw new RangeError(`endGraceMs must be 0 or more, got ${String(this.#endGraceMs)}`);
    this.#owed = this.#endGraceMs > 0 ? new Set() : undefined;
    this.#reader = new LineReader(
      {
        line: (text) => {
          this.#lines++;
          this.#onLine(text);
        },
        oversized: (bytes, max) =>
          this.#rejectLine(
            ErrorCode.InvalidRequest,
            `Invalid Request: a line of ${bytes} bytes exceeds the limit of ${max} bytes and was dropped`,
          ),
        invalidUtf8: () => this.#rejectLine(ErrorCode.ParseError, "Parse error: the line is not valid UTF-8"),
      },
      options.maxLineBytes === undefined ? {} : { maxLineBytes: options.maxLineBytes },
    );
  }

  /** Starts reading. Rejects with `SdkError("ALREADY_CONNECTED")` when called twice. */
  async start(): Promise<void> {
    if (this.#started) throw new SdkError("ALREADY_CONNECTED", "The transport was already started");
    if (this.#closed) throw closedError();
    this.#started = true;
    this.#readable.on("data", this.#onData);
    this.#readable.on("end", this.#onEnd);
    this.#readable.on("close", this.#onEnd);
    this.#readable.on("error", this.#onStreamError);
    this.#writable.on("error", this.#onStreamError);
    this.#writable.on("close", this.#onWritableClose);
    this.#readable.resume();
  }

  /**
   * Writes one message as a line. Resolves once the stream accepted it; while the stream is
   * over its high-water mark, waits for `drain` first. Rejects with `SdkError("NOT_CONNECTED")`
   * before `start`, `SdkError("CONNECTION_CLOSED")` after close, and
   * `SdkError("INVALID_ARGUMENT")` when the message cannot be serialized as JSON.
   */
  send(message: JsonRpcMessage): Promise<void> {
    if (this.#closed) return Promise.reject(closedError());
    if (!this.#started) return Promise.reject(new SdkError("NOT_CONNECTED", "The transport has not been started"));
    let text: string;
    try {
      text = encodeFrame(message);
    } catch (cause) {
      return Promise.reject(new SdkError("INVALID_ARGUMENT", "The message cannot be serialized as JSON", { cause }));
    }
    const written = this.#write(text);
    if (this.#owed !== undefined && isResponse(message) && message.id !== null) this.#settled(message.id);
    return written;
  }

  /** Stops reading, ends the writable (unless `endOnClose: false`) and fires `onclose` once. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#readable.off("data", this.#onData);
    this.#readable.off("end", this.#onEnd);
    this.#readable.off("close", this.#onEnd);
    this.#readable.off("error", this.#onStreamError);
    this.#writable.off("close", this.#onWritableClose);
    // The error listener stays: a late EPIPE must not become an uncaught exception.
    this.#writable.on("error", ignore);
    this.#writable.off("error", this.#onStreamError);
    if (this.#started) this.#readable.pause();
    this.#flushHeld();
    this.#releaseDrain?.();
    if (this.#endOnClose && !this.#writable.writableEnded) this.#writable.end();
    this.onclose?.();
  }

  /**
   * Writes `text` (one message's JSON) and its newline at once unless the stream is waiting for
   * `drain`; the usual case makes no promise of its own.
   */
  #write(text: string): Promise<void> {
    if (this.#drain) return this.#writeAfterDrain(text);
    if (this.#closed) return Promise.reject(closedError());
    if (!this.#writing) {
      // The first line of a tick leaves at once, so that the peer can start on it while this side
      // goes on; lines that follow within the tick (answers to a chunk of requests) are held and
      // leave together, as one string in one system call, when the tick ends.
      this.#writing = true;
      process.nextTick(this.#endTick);
      return this.#put(text);
    }
    if (text.length >= JOIN_LIMIT) {
      this.#flushHeld();
      return this.#put(text);
    }
    this.#held += `${text}\n`;
    const writable = this.#writable;
    // What is held leaves before it reaches the high-water mark, so that `write` reports only
    // the peer's backpressure, not lines this side held back itself.
    if (writable.writableLength + this.#held.length < writable.writableHighWaterMark) return SENT;
    return this.#flushHeld() ? SENT : this.#waitForDrain();
  }

  /**
   * Hands `text` and its newline to the writable. A long text is written, then its newline,
   * since joining them would copy it once more.
   */
  #put(text: string): Promise<void> {
    const writable = this.#writable;
    if (text.length < JOIN_LIMIT) return writable.write(`${text}\n`) ? SENT : this.#waitForDrain();
    writable.write(text);
    return writable.write(NEWLINE) ? SENT : this.#waitForDrain();
  }

  /** Writes the held lines; false when the writable is now over its high-water mark. */
  #flushHeld(): boolean {
    const held = this.#held;
    if (held === "") return true;
    this.#held = "";
    return this.#writable.write(held);
  }

  async #writeAfterDrain(text: string): Promise<void> {
    while (this.#drain) await this.#drain;
    return this.#write(text);
  }

  readonly #endTick = (): void => {
    this.#writing = false;
    if (!this.#flushHeld() && this.#drain === undefined && !this.#closed) void this.#waitForDrain();
  };

  #waitForDrain(): Promise<void> {
    const drained = new Promise<void>((resolve) => {
      const release = () => {
        this.#writable.off("drain", release);
        if (this.#drain === drained) {
          this.#drain = undefined;
          this.#releaseDrain = undefined;
        }
        resolve();
      };
      this.#writable.on("drain", release);
      this.#releaseDrain = release;
    });
    this.#drain = drained;
    return drained;
  }

  readonly #onData = (chunk: Buffer | string): void => {
    this.#reader.push(typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk);
  };

  readonly #onEnd = (): void => {
    if (this.#inputEnded || this.#closed) return;
    this.#reader.end();
    if (this.#owed === undefined || this.#owed.size === 0) {
      void this.close();
      return;
    }
    this.#inputEnded = true;
    // Unref'd: a process with nothing else to do need not wait for answers nobody computes.
    setTimeout(() => void this.close(), this.#endGraceMs).unref();
  };

  /** Request `id` is answered or cancelled; once input ended, the last one owed closes. */
  #settled(id: RequestId): void {
    const owed = this.#owed;
    if (owed === undefined || !owed.delete(id) || !this.#inputEnded || owed.size > 0) return;
    // After the answer's write was queued, so that ending the writable sends it first.
    queueMicrotask(() => void this.close());
  }

  /** Notes the requests `message` carries, and the cancellations that owe them no answer. */
  #track(message: JsonRpcMessage | JsonRpcMessage[]): void {
    if (!Array.isArray(message)) this.#trackOne(message);
    else for (const item of message) this.#trackOne(item);
  }

  #trackOne(message: JsonRpcMessage): void {
    if (isRequest(message)) this.#owed?.add(message.id);
    else if (isNotification(message) && message.method === "notifications/cancelled") {
      const id = message.params?.requestId;
      if (isRequestId(id)) this.#settled(id);
    }
  }

  readonly #onWritableClose = (): void => {
    void this.close();
  };

  readonly #onStreamError = (error: Error): void => {
    this.onerror?.(new SdkError("TRANSPORT_ERROR", `The stdio stream failed: ${error.message}`, { cause: error }));
    void this.close();
  };

  #onLine(text: string): void {
    if (this.#closed) return;
    const message = readFrame(text);
    if (message instanceof InvalidFrame) {
      this.#rejectFrame(message.error.error.code, message.error.error.message, text, message.error.id);
      return;
    }
    if (this.#owed !== undefined) this.#track(message);
    try {
      this.onmessage?.(message);
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
  }

  /** A line that was dropped unread (too long, bad UTF-8). */
  #rejectLine(code: number, message: string): void {
    this.#lines++;
    this.#rejectFrame(code, message, "");
  }

  #rejectFrame(code: number, message: string, text: string, id: string | number | null = null): void {
    if (this.#closed) return;
    this.onerror?.(new InvalidLineError(code, message, this.#lines, text.slice(0, KEPT_CHARS)));
    if (this.#answerInvalidFrames) {
      this.#write(encodeFrame(errorResponse(id, code, message))).catch(ignore);
    }
  }
}

function closedError(): SdkError {
  return new SdkError("CONNECTION_CLOSED", "The transport is closed");
}

function ignore(): void {}
