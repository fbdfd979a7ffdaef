/**
 * The rows a terminal prompt of `@clack/prompts` draws, seen through the stream it draws on: so
 * that a prompt closed from outside (its signal aborted) can be taken off the screen, and one
 * whose text changes over time can be drawn again. The prompt library draws its whole frame,
 * already wrapped to the terminal's width, in one write after hiding the cursor, and redraws
 * through `resize` events on that stream.
 */
import type { Writable } from "node:stream";

const HIDE_CURSOR = "\u001b[?25l";

export interface PromptFrame {
  /** The stream to give the prompt: it writes through to the terminal. */
  output: Writable;
  /**
   * Takes the prompt's last frame off the screen, once the prompt has closed: the cursor goes back
   * to the row where the frame began, and everything from there down is erased.
   */
  erase(): void;
  /** Makes the prompt draw its frame again, as after a resize of the terminal. */
  redraw(): void;
}

export function promptFrame(terminal: Writable): PromptFrame {
  let hidden = false;
  /** Rows of the frame as first drawn (a confirm keeps its height), plus the line its close ends. */
  let rows = 0;
  const redraws = new Set<(...args: unknown[]) => void>();
  const output = new Proxy(terminal, {
    get(target, property) {
      if (property === "write") {
        return (chunk: unknown, ...rest: unknown[]) => {
          if (typeof chunk === "string") {
            if (chunk === HIDE_CURSOR) hidden = true;
            else if (hidden && rows === 0) rows = chunk.split("\n").length;
          }
          return (target.write as (...args: unknown[]) => boolean)(chunk, ...rest);
        };
      }
      if (property === "on" || property === "off") {
        return (event: string | symbol, listener: (...args: unknown[]) => void) => {
          if (event === "resize") {
            if (property === "on") redraws.add(listener);
            else redraws.delete(listener);
          }
          target[property](event, listener);
          return output;
        };
      }
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return {
    output,
    erase() {
      if (rows === 0) return;
      terminal.write(`\u001b[${rows}A\r\u001b[J`);
      rows = 0;
    },
    redraw() {
      for (const draw of redraws) draw();
    },
  };
}
