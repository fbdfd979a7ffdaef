/**
 * Newline-delimited framing for stdio (spec: basic/transports § stdio). Chunks are kept as
 * they arrive and joined only when a newline completes a line, so reading a large line costs
 * time linear in its size, and a UTF-8 character split across chunks is decoded whole.
 */
import { isUtf8 } from "node:buffer";

/** 64 MiB: the default largest line, in bytes, not counting its line terminator. */
export const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024;

const LF = 0x0a;
const CR = 0x0d;

export interface LineReaderHandlers {
  /** A complete, non-blank line, decoded as UTF-8, without its `\n` or `\r\n`. */
  line(text: string): void;
  /** A line longer than the limit was dropped; `bytes` is its length as far as it was read. */
  oversized(bytes: number, maxLineBytes: number): void;
  /** A line that is not valid UTF-8 was dropped. */
  invalidUtf8(bytes: number): void;
}

export interface LineReaderOptions {
  /** Largest accepted line in bytes, not counting `\n` or `\r\n`. Default 64 MiB. */
  maxLineBytes?: number;
}

/** Splits a byte stream into lines. Feed it with `push(chunk)` and call `end()` at EOF. */
export class LineReader {
  readonly maxLineBytes: number;
  readonly #handlers: LineReaderHandlers;
  #parts: Buffer[] = [];
  #size = 0;
  /** Set once the current line is known to be too long: its bytes are counted, not kept. */
  #dropping = false;

  constructor(handlers: LineReaderHandlers, options: LineReaderOptions = {}) {
    const max = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
    if (!Number.isInteger(max) || max < 1) {
      throw new RangeError(`maxLineBytes must be a positive integer, got ${String(max)}`);
    }
    this.maxLineBytes = max;
    this.#handlers = handlers;
  }

  /** Takes the next chunk of the stream; calls the handlers for every line it completes. */
  push(chunk: Uint8Array): void {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let start = 0;
    while (start < bytes.length) {
      const newline = bytes.indexOf(LF, start);
      if (newline === -1) {
        this.#collect(bytes.subarray(start));
        return;
      }
      // The usual case, a whole line within one chunk, is decoded in place.
      if (this.#size === 0 && !this.#dropping) this.#emit(bytes, start, newline);
      else {
        this.#collect(bytes.subarray(start, newline));
        this.#finishLine();
      }
      start = newline + 1;
    }
  }

  /** The stream ended: a last line without a trailing newline still counts. */
  end(): void {
    if (this.#dropping || this.#size > 0) this.#finishLine();
  }

  #collect(piece: Buffer): void {
    if (piece.length === 0) return;
    this.#size += piece.length;
    if (this.#dropping) return;
    this.#parts.push(piece);
    // One extra byte is allowed for the `\r` of a `\r\n` terminator.
    if (this.#size > this.maxLineBytes + 1) {
      this.#dropping = true;
      this.#parts = [];
    }
  }

  #finishLine(): void {
    const { maxLineBytes } = this;
    if (this.#dropping) {
      const size = this.#size;
      this.#reset();
      this.#handlers.oversized(size, maxLineBytes);
      return;
    }
    const [first] = this.#parts;
    const joined = this.#parts.length === 1 && first ? first : Buffer.concat(this.#parts, this.#size);
    this.#reset();
    this.#emit(joined, 0, joined.length);
  }

  /** Hands on the line held in `bytes` from `start` up to `end` (its `\n`, excluded). */
  #emit(bytes: Buffer, start: number, end: number): void {
    const { maxLineBytes } = this;
    // As in `#collect`, one extra byte is allowed for the `\r` of a `\r\n` terminator.
    if (end - start > maxLineBytes + 1) {
      this.#handlers.oversized(end - start, maxLineBytes);
      return;
    }
    if (end > start && bytes[end - 1] === CR) end--;
    if (end - start > maxLineBytes) {
      this.#handlers.oversized(end - start, maxLineBytes);
      return;
    }
    const text = bytes.toString("utf8", start, end);
    // Bad UTF-8 decodes to U+FFFD, so only a line showing one needs the full check (a line of
    // ASCII cannot hold that character, and the search ends at once).
    if (text.includes("\uFFFD") && !isUtf8(bytes.subarray(start, end))) {
      this.#handlers.invalidUtf8(end - start);
      return;
    }
    if (text.trim() === "") return;
    this.#handlers.line(text);
  }

  #reset(): void {
    this.#parts = [];
    this.#size = 0;
    this.#dropping = false;
  }
}
