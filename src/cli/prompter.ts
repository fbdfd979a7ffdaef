/**
 * The few terminal prompts the command needs, behind an interface so that commands can be
 * driven in tests with scripted answers. `clackPrompter` is the real one, on `@clack/prompts`.
 */
import type { Readable, Writable } from "node:stream";
import * as clack from "@clack/prompts";
import { promptFrame } from "./prompt-frame.js";

/**
 * What a prompt returns when the user pressed Ctrl-C or Escape, its `signal` was aborted, or
 * stdin ended (EOF counts as the user cancelling).
 */
export const CANCELLED: unique symbol = Symbol("cancelled");
export type Cancelled = typeof CANCELLED;

export interface Choice {
  value: string;
  label: string;
  hint?: string;
}

interface Common {
  message: string;
  /** Closes the prompt (answering {@link CANCELLED}) when aborted; a terminal prompt is then erased. */
  signal?: AbortSignal;
}

export interface TextPrompt extends Common {
  /** Shown greyed out while the field is empty. */
  placeholder?: string;
  /** Pre-filled, editable. */
  initialValue?: string;
  /** A message to show for a value that is not acceptable, or `undefined` to accept it. */
  validate?: (value: string) => string | undefined;
}

export interface ConfirmPrompt extends Common {
  initialValue?: boolean;
  /**
   * Shown under the message while the question is open, after a turning spinner and the time
   * since it opened (`12s`, `1m 05s`), updated every second: what the question waits for.
   */
  waiting?: string;
}

export interface SelectPrompt extends Common {
  choices: Choice[];
  initialValue?: string;
}

export interface MultiSelectPrompt extends Common {
  choices: Choice[];
  initialValues?: string[];
  /** Whether at least one choice must be ticked. */
  required: boolean;
}

export interface Prompter {
  text(prompt: TextPrompt): Promise<string | Cancelled>;
  confirm(prompt: ConfirmPrompt): Promise<boolean | Cancelled>;
  select(prompt: SelectPrompt): Promise<string | Cancelled>;
  multiselect(prompt: MultiSelectPrompt): Promise<string[] | Cancelled>;
}

/**
 * Prompts at a terminal. They are drawn on `output` (stderr by default), so that stdout carries
 * only the command's result even while it asks. When `input` (stdin by default) ends, the open
 * prompt and every later one answer {@link CANCELLED}, and one line on `output` says why.
 */
export function clackPrompter(input?: Readable, output: Writable = process.stderr): Prompter {
  const io = { output, ...(input === undefined ? {} : { input }) };
  // A prompt left waiting on an ended stdin would never settle, and Node would quit with code 13.
  const ended = endOf(input ?? process.stdin);
  let told = false;
  const answer = <T>(value: T): Exclude<T, symbol> | Cancelled => {
    if (!clack.isCancel(value)) return value as Exclude<T, symbol>;
    if (ended.aborted && !told) {
      told = true;
      output.write("Input ended; cancelled.\n");
    }
    return CANCELLED;
  };
  const until = (signal: AbortSignal | undefined) => ({
    signal: signal === undefined ? ended : AbortSignal.any([signal, ended]),
  });
  /**
   * Runs a prompt drawn on a watched `output`: closed by its signal (not by the user, nor by stdin
   * ending), its frame is erased, so that no question the user can no longer answer is left on
   * the screen.
   */
  const drawn = async <T>(
    signal: AbortSignal | undefined,
    ask: (output: Writable, redraw: () => void) => Promise<T>,
  ): Promise<T> => {
    const frame = promptFrame(output);
    const value = await ask(frame.output, frame.redraw);
    if (signal?.aborted === true && !ended.aborted) frame.erase();
    return value;
  };
  const options = (choices: Choice[]) =>
    choices.map(({ value, label, hint }) => (hint === undefined ? { value, label } : { value, label, hint }));
  return {
    async text({ message, signal, placeholder, initialValue, validate }) {
      return answer(
        await drawn(signal, (output) =>
          clack.text({
            ...io,
            output,
            message,
            ...until(signal),
            ...(placeholder === undefined ? {} : { placeholder }),
            ...(initialValue === undefined ? {} : { initialValue }),
            ...(validate === undefined ? {} : { validate: (value) => validate(value ?? "") }),
          }),
        ),
      );
    },
    async confirm({ message, signal, initialValue, waiting }) {
      return answer(
        await drawn(signal, async (output, redraw) => {
          // Read by the prompt at each frame it draws: the waiting line is rewritten every second.
          const prompt = {
            ...io,
            output,
            message,
            ...until(signal),
            ...(initialValue === undefined ? {} : { initialValue }),
          };
          if (waiting === undefined) return clack.confirm(prompt);
          const opened = Date.now();
          let turn = 0;
          const tick = () => {
            prompt.message = `${message}\n${SPINNER[turn++ % SPINNER.length]} ${waiting} ${elapsed(Date.now() - opened)}`;
          };
          tick();
          const timer = setInterval(() => {
            tick();
            redraw();
          }, 1000);
          try {
            return await clack.confirm(prompt);
          } finally {
            clearInterval(timer);
          }
        }),
      );
    },
    async select({ message, signal, choices, initialValue }) {
      return answer(
        await drawn(signal, (output) =>
          clack.select<string>({
            ...io,
            output,
            message,
            options: options(choices),
            ...until(signal),
            ...(initialValue === undefined ? {} : { initialValue }),
          }),
        ),
      );
    },
    async multiselect({ message, signal, choices, initialValues, required }) {
      return answer(
        await drawn(signal, (output) =>
          clack.multiselect<string>({
            ...io,
            output,
            message,
            options: options(choices),
            required,
            ...until(signal),
            ...(initialValues === undefined ? {} : { initialValues }),
          }),
        ),
      );
    },
  };
}

/** The frames of the waiting line's spinner, as the prompt library's own spinner turns. */
const SPINNER = ["◒", "◐", "◓", "◑"];

/** `12s`, `1m 05s`: the time a question has been open, `ms` in milliseconds. */
export function elapsed(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  const minutes = Math.floor(seconds / 60);
  return minutes === 0 ? `${seconds}s` : `${minutes}m ${String(seconds % 60).padStart(2, "0")}s`;
}

/** A signal aborted once `input` has ended or closed. */
function endOf(input: Readable): AbortSignal {
  const controller = new AbortController();
  if (input.readableEnded || input.destroyed) controller.abort();
  else for (const event of ["end", "close"]) input.once(event, () => controller.abort());
  return controller.signal;
}
