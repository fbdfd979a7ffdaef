/**
 * What a long request shows while it runs: the server's progress (`notifications/progress`), its
 * log messages (`notifications/message`), and the wait for a page the user has open in the
 * browser. On a terminal this is drawn by `terminalActivity`; elsewhere, and with `--json`, it is
 * plain lines on stderr, one per event, without escape codes.
 */
import type { Progress } from "../client/index.js";
import type { LoggingMessageParams } from "../client/types.js";
import { printableLine } from "./text.js";

export interface Activity {
  /** One `notifications/progress` of the request in flight. */
  progress(progress: Progress): void;
  /** One `notifications/message` from the server. */
  log(message: LoggingMessageParams): void;
  /**
   * The user is on a page in the browser and the server will say when it is done: shows `message`
   * with the time spent waiting. The returned function ends the wait, with a line saying why
   * (none for "").
   */
  waiting(message: string): (outcome: string) => void;
  /** A prompt is about to take the terminal: whatever is drawn is cleared (and drawn again on the next event). */
  pause(): void;
  /** The request is over: a progress bar is left at its last state. */
  end(): void;
}

/**
 * Lines on stderr. Text: `Progress 3/10 (30%): message`, `[server warning] text`. With `json`,
 * each event as the notification came (`{"method":"notifications/progress","params":{...}}`,
 * without the progress token), so that a script can read stderr line by line.
 */
export function lineActivity(write: (text: string) => void, json: boolean): Activity {
  return {
    progress(progress) {
      if (json) write(`${JSON.stringify({ method: "notifications/progress", params: progress })}\n`);
      else write(`${progressLine(progress)}\n`);
    },
    log(message) {
      if (json) write(`${JSON.stringify({ method: "notifications/message", params: message })}\n`);
      else write(`${logLine(message)}\n`);
    },
    waiting(message) {
      write(`${message}…\n`);
      return (outcome) => {
        if (outcome !== "") write(`${outcome}\n`);
      };
    },
    pause() {},
    end() {},
  };
}

/** `3/10 (30%): Downloading`, or `3: Downloading` when the total is not known; escaped. */
export function progressText({ progress, total, message }: Progress): string {
  const amount =
    total !== undefined && total > 0
      ? `${progress}/${total} (${Math.min(100, Math.floor((progress / total) * 100))}%)`
      : `${progress}`;
  return message === undefined ? amount : `${amount}: ${printableLine(message)}`;
}

function progressLine(progress: Progress): string {
  return `Progress ${progressText(progress)}`;
}

/** `[server warning] text` (with the logger's name when given); `data` that is not a string as JSON. Escaped. */
export function logLine({ level, logger, data }: LoggingMessageParams): string {
  const text = typeof data === "string" ? data : JSON.stringify(data);
  const from = logger === undefined ? "" : ` ${printableLine(logger)}`;
  return `[server ${printableLine(level)}${from}] ${printableLine(text ?? "")}`;
}
