/**
 * Writing a long string to a Node.js HTTP message (a `ServerResponse`, a `ClientRequest`) in
 * slices. Node encodes each string written into a buffer of three bytes per UTF-16 code unit
 * and keeps it until the socket took it all: for a string of tens of MiB that buffer is fresh
 * memory from the operating system every time (the C allocator maps allocations past 32 MiB on
 * their own), where a slice's buffer, a few MiB, is reused from one write to the next.
 */

/** UTF-16 code units per slice; a string no longer than this is written whole. */
export const SLICE_LENGTH = 1 << 20;

/** What of `ServerResponse` and `ClientRequest` slicing uses. */
export interface SliceTarget {
  /** Absent on HTTP/2's compatibility response, whose `stream` says it instead. */
  readonly destroyed?: boolean;
  readonly stream?: { readonly destroyed?: boolean };
  write(chunk: string): boolean;
  end(chunk?: string): unknown;
  once(event: "drain" | "close", listener: () => void): unknown;
  removeListener(event: "drain" | "close", listener: () => void): unknown;
}

/** Whether the peer left: `destroyed`, or, on HTTP/2's compatibility layer, its stream's. */
const isGone = (out: SliceTarget): boolean => out.destroyed === true || out.stream?.destroyed === true;

/**
 * Writes `text` and ends `out`: at once when it is at most `SLICE_LENGTH` code units, else in
 * slices of that many (never between the two halves of a surrogate pair), each once the one
 * before has drained. Writing stops, without ending, when `out` is destroyed (the peer left).
 * Errors are `out`'s own, reported as its 'error' event.
 */
export function endInSlices(out: SliceTarget, text: string): void {
  if (text.length <= SLICE_LENGTH) {
    out.end(text);
    return;
  }
  let at = 0;
  // A peer that leaves while a slice waits for 'drain' never drains: let go of the text on 'close'.
  const release = (): void => {
    out.removeListener("drain", next);
  };
  const next = (): void => {
    out.removeListener("close", release);
    while (!isGone(out)) {
      let end = Math.min(at + SLICE_LENGTH, text.length);
      // A high surrogate at the end of a slice would be written as U+FFFD, its pair as another.
      if (end < text.length && (text.charCodeAt(end - 1) & 0xfc00) === 0xd800) end--;
      const slice = text.slice(at, end);
      at = end;
      if (at === text.length) {
        out.end(slice);
        return;
      }
      if (!out.write(slice)) {
        out.once("drain", next);
        out.once("close", release);
        return;
      }
    }
  };
  next();
}
