/**
 * The activity of a long request drawn on a terminal with `@clack/prompts`: a progress bar (a
 * spinner when the server gives no total), the server's log messages as lines above it, and a
 * spinner with the time spent while the user is on a page in the browser.
 */
import type { Writable } from "node:stream";
import * as clack from "@clack/prompts";
import type { Progress } from "../client/index.js";
import type { LoggingLevel } from "../client/types.js";
import { type Activity, logLine, progressText } from "./activity.js";

/** Steps of the bar: percents. */
const STEPS = 100;

type Indicator =
  | { kind: "bar"; bar: clack.ProgressResult; steps: number }
  | { kind: "spinner"; spinner: clack.SpinnerResult };

/**
 * Draws on `output` (a terminal). While a spinner turns, `@clack/prompts` holds `input` in raw mode
 * and would end the process on Ctrl-C; `input` is put back in its normal mode, so that Ctrl-C
 * stays the signal that cancels the request (and closes the server) as everywhere else.
 */
export function terminalActivity(output: Writable, input: NodeJS.ReadStream = process.stdin): Activity {
  let shown: Indicator | undefined;
  let last: Progress | undefined;
  let wait: { spinner: clack.SpinnerResult; message: string } | undefined;

  const cooked = () => {
    if (input.isTTY) input.setRawMode(false);
  };

  const draw = () => {
    if (last === undefined || wait !== undefined) return;
    const text = progressText(last);
    const known = last.total !== undefined && last.total > 0;
    if (shown !== undefined && (shown.kind === "bar") !== known) hide();
    if (shown === undefined) {
      shown = known
        ? { kind: "bar", bar: clack.progress({ output, max: STEPS, size: 30 }), steps: 0 }
        : { kind: "spinner", spinner: clack.spinner({ output }) };
      if (shown.kind === "bar") shown.bar.start(text);
      else shown.spinner.start(text);
      cooked();
    }
    if (shown.kind === "spinner") {
      shown.spinner.message(text);
      return;
    }
    const steps = Math.max(0, Math.min(STEPS, Math.floor(((last.progress ?? 0) / (last.total ?? 1)) * STEPS)));
    shown.bar.advance(Math.max(0, steps - shown.steps), text);
    shown.steps = Math.max(shown.steps, steps);
  };

  const hide = () => {
    if (shown?.kind === "bar") shown.bar.clear();
    else shown?.spinner.clear();
    shown = undefined;
  };

  return {
    progress(progress) {
      last = progress;
      draw();
    },
    log(message) {
      hide();
      const text = logLine(message);
      const mark = LOG[message.level];
      if (mark === undefined) clack.log.message(text, { output });
      else mark(text, { output });
      draw();
    },
    waiting(message) {
      hide();
      const spinner = clack.spinner({ output, indicator: "timer" });
      wait = { spinner, message };
      spinner.start(message);
      cooked();
      return (outcome) => {
        if (wait?.spinner !== spinner) return;
        wait = undefined;
        if (outcome === "") spinner.clear();
        else spinner.stop(outcome);
        draw();
      };
    },
    pause() {
      hide();
      if (wait !== undefined) {
        wait.spinner.clear();
        wait = undefined;
      }
    },
    end() {
      if (shown?.kind === "bar" && last !== undefined) shown.bar.stop(`Progress ${progressText(last)}`);
      else if (shown?.kind === "spinner" && last !== undefined) shown.spinner.stop(`Progress ${progressText(last)}`);
      shown = undefined;
      last = undefined;
      if (wait !== undefined) {
        wait.spinner.clear();
        wait = undefined;
      }
    },
  };
}

/** How each level is marked: info with a dot, warnings with a triangle, errors and worse with a square. */
const LOG: Partial<Record<LoggingLevel, (text: string, options: { output: Writable }) => void>> = {
  info: clack.log.info,
  notice: clack.log.info,
  warning: clack.log.warn,
  error: clack.log.error,
  critical: clack.log.error,
  alert: clack.log.error,
  emergency: clack.log.error,
};
