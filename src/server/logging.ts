/** Log levels of `notifications/message` (spec: server/utilities/logging; RFC 5424 severities). */

/** The eight syslog severities, least severe first. */
export const LOGGING_LEVELS = [
  "debug",
  "info",
  "notice",
  "warning",
  "error",
  "critical",
  "alert",
  "emergency",
] as const;

/** One of `LOGGING_LEVELS`: `debug` up to `emergency`. */
export type LoggingLevel = (typeof LOGGING_LEVELS)[number];

export function isLoggingLevel(value: unknown): value is LoggingLevel {
  return typeof value === "string" && (LOGGING_LEVELS as readonly string[]).includes(value);
}

/** Whether a message at `level` passes a session whose threshold is `threshold`. */
export function isAtLeast(level: LoggingLevel, threshold: LoggingLevel): boolean {
  return LOGGING_LEVELS.indexOf(level) >= LOGGING_LEVELS.indexOf(threshold);
}

export type { Logger } from "../jsonrpc/logger.js";
