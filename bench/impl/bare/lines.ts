/**
 * Newline-delimited JSON over a byte stream, as plainly as it can be done: chunks are kept until
 * a newline arrives, so a long line costs time linear in its size.
 */
import type { Readable, Writable } from "node:stream";

/** Calls `onMessage` with each parsed line of `input`. */
export function readLines(input: Readable, onMessage: (message: Record<string, unknown>) => void): void {
  let parts: Buffer[] = [];
  input.on("data", (chunk: Buffer) => {
    let start = 0;
    let newline = chunk.indexOf(10);
    while (newline !== -1) {
      parts.push(chunk.subarray(start, newline));
      const line = parts.length === 1 ? parts[0]! : Buffer.concat(parts);
      parts = [];
      if (line.length > 0) onMessage(JSON.parse(line.toString("utf8")));
      start = newline + 1;
      newline = chunk.indexOf(10, start);
    }
    if (start < chunk.length) parts.push(chunk.subarray(start));
  });
}

/** Writes one message as a line. */
export function writeLine(output: Writable, message: unknown): void {
  output.write(`${JSON.stringify(message)}\n`);
}
