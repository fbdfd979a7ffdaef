/**
 * The server end of stdio (spec: basic/transports § stdio): messages arrive on stdin and
 * leave on stdout, one per line. Nothing else may be written to stdout; logs go to stderr.
 */
import type { Readable, Writable } from "node:stream";
import type { StdoutTransport } from "../features.js";
import { type StdioStreamOptions, StdioStreamTransport } from "./stream.js";

/**
 * Options of `new StdioServerTransport(stdin, stdout, options)`: `maxLineBytes`, `endOnClose` and
 * `endGraceMs` (default here 2000 ms: about what a client waits after closing stdin before SIGTERM).
 */
export type StdioServerTransportOptions = Omit<StdioStreamOptions, "answerInvalidFrames">;

/** Ms a server keeps answering after stdin ended, by default. */
const DEFAULT_END_GRACE_MS = 2000;

/**
 * Serves one client over `stdin`/`stdout` (by default the process's own). A line that is not
 * valid JSON is answered with -32700, one with a bad JSON-RPC shape or over `maxLineBytes`
 * (bytes, default 64 MiB) with -32600, both with `id: null` when the id cannot be read; the
 * next line is served as usual. EOF on stdin closes the transport and fires `onclose` once,
 * as soon as the requests read before it are answered (a last line without a newline counts),
 * and at the latest `endGraceMs` later.
 * `process.stdout` is left open on close; any other writable is ended.
 */
export class StdioServerTransport extends StdioStreamTransport implements StdoutTransport {
  /** Whether this transport writes to `process.stdout`, where nothing else may then go. */
  readonly ownsStdout: boolean;

  constructor(
    stdin: Readable = process.stdin,
    stdout: Writable = process.stdout,
    options: StdioServerTransportOptions = {},
  ) {
    super(stdin, stdout, {
      ...options,
      answerInvalidFrames: true,
      endGraceMs: options.endGraceMs ?? DEFAULT_END_GRACE_MS,
      endOnClose: options.endOnClose ?? stdout !== process.stdout,
    });
    this.ownsStdout = stdout === process.stdout;
  }
}
