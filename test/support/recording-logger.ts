/**
 * A `Logger` that keeps what it is told, as `{ level, message, error, sessionId }` entries, so a
 * test can check what a server or the connect pages reported (and that nothing was).
 */
import type { Logger } from "../../src/server/index.js";

export interface LogEntry {
  level: "error" | "warn" | "info" | "debug";
  message: string;
  /** The `err` field. */
  error?: unknown;
  sessionId?: string;
}

/** A logger that records into `entries`, and hands each entry to `also` as well. */
export function recordingLogger(also?: (entry: LogEntry) => void): Logger & { entries: LogEntry[] } {
  const entries: LogEntry[] = [];
  const at =
    (level: LogEntry["level"]) =>
    (fields: object, message?: string): void => {
      const { err, sessionId } = fields as { err?: unknown; sessionId?: string };
      const entry: LogEntry = { level, message: message ?? "" };
      if (err !== undefined) entry.error = err;
      if (sessionId !== undefined) entry.sessionId = sessionId;
      entries.push(entry);
      also?.(entry);
    };
  return { entries, error: at("error"), warn: at("warn"), info: at("info"), debug: at("debug") };
}
