/**
 * The server end of stdio (spec: basic/transports § stdio): messages arrive on stdin and
 * leave on stdout, one per line. Nothing else may be written to stdout; logs go to stderr.
 */
import type { Readable, Writable } from "node:stream";
import { type StdioStreamOptions, StdioStreamTransport } from "./stream.js";

/** Options of `new StdioServerTransport(stdin, stdout, options)`: `maxLineBytes` and `endOnClose`. */
export type StdioServerTransportOptions = Omit<StdioStreamOptions, "answerInvalidFrames">;

/**
 * Serves one client over `stdin`/`stdout` (by default the process's own). A line that is not
 * valid JSON is answered with -32700, one with a bad JSON-RPC shape or over `maxLineBytes`
 * (bytes, default 64 MiB) with -32600, both with `id: null` when the id cannot be read; the
 * next line is served as usual. EOF on stdin closes the transport and fires `onclose` once.
 * `process.stdout` is left open on close; any other writable is ended.
 */
export class StdioServerTransport extends StdioStreamTransport {
  constructor(
    stdin: Readable = process.stdin,
    stdout: Writable = process.stdout,
    options: StdioServerTransportOptions = {},
  ) {
    super(stdin, stdout, {
      ...options,
      answerInvalidFrames: true,
      endOnClose: options.endOnClose ?? stdout !== process.stdout,
    });
  }
}
