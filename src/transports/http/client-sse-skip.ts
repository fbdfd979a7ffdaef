/**
 * What the Streamable HTTP client needs to skip an SSE event over its size limit and read on
 * (spec: basic/transports § Resumability and Redelivery): the `id` of the event being read and
 * where that event ends. The SSE parser gives up its own state once its buffer overflows, so this
 * tracks the lines alongside it, keeping no more of a line than an `id` field needs.
 */

const LF = 10;
/** Longest `id` line kept, in characters; a longer one is taken for no id. */
const MAX_ID_LINE = 1024;

export class SseEventTracker {
  /** The `id` of the event being read so far (its last `id:` line). */
  private id: string | undefined;
  /** The first characters of the line being read: 3 until they are `id:`, then up to `MAX_ID_LINE`. */
  private line = "";
  private lineLength = 0;
  /** The previous text ended with CR: a LF starting the next is the same line break. */
  private afterCr = false;

  /**
   * Reads `text`, which follows what it read before. With `untilEventEnd`, it stops after the
   * blank line that ends the event being read and returns where the rest of `text` starts, with
   * that event's id; else, or when `text` does not end the event, it reads all and returns `undefined`.
   */
  feed(text: string, untilEventEnd: boolean): { rest: number; id: string | undefined } | undefined {
    if (text === "") return undefined;
    let at = 0;
    if (this.afterCr && text.charCodeAt(0) === LF) at = 1;
    this.afterCr = false;
    let lf = text.indexOf("\n", at);
    let cr = text.indexOf("\r", at);
    while (at < text.length) {
      if (lf !== -1 && lf < at) lf = text.indexOf("\n", at);
      if (cr !== -1 && cr < at) cr = text.indexOf("\r", at);
      const end = cr === -1 ? lf : lf === -1 ? cr : Math.min(cr, lf);
      if (end === -1) {
        this.take(text, at, text.length);
        return undefined;
      }
      this.take(text, at, end);
      at = end + 1;
      if (end === cr) {
        if (at === text.length) this.afterCr = true;
        else if (text.charCodeAt(at) === LF) at++;
      }
      const id = this.id;
      if (this.endLine() && untilEventEnd) return { rest: at, id };
    }
    return undefined;
  }

  /** Counts `text` from `from` to `to` into the line being read, keeping only what an `id` needs. */
  private take(text: string, from: number, to: number): void {
    this.lineLength += to - from;
    let at = from;
    if (this.line.length < 3) {
      const head = text.slice(at, Math.min(to, at + 3 - this.line.length));
      this.line += head;
      at += head.length;
    }
    if (at < to && this.line.length <= MAX_ID_LINE && this.line.startsWith("id:")) {
      this.line += text.slice(at, Math.min(to, at + MAX_ID_LINE + 1 - this.line.length));
    }
  }

  /** Ends the line being read; @returns whether it was blank, which ends the event. */
  private endLine(): boolean {
    const blank = this.lineLength === 0;
    if (blank) this.id = undefined;
    else if (this.lineLength <= MAX_ID_LINE && this.line.startsWith("id:")) {
      const value = this.line.slice(this.line.charCodeAt(3) === 32 ? 4 : 3);
      if (!value.includes("\0")) this.id = value;
    }
    this.line = "";
    this.lineLength = 0;
    return blank;
  }
}
