/**
 * Where the package reports its own troubles: a pino-compatible logger, so `pino()` (or any logger
 * with the same four methods) can be passed as it is. Nothing here goes to an MCP client.
 */
import { Console } from "node:console";

/**
 * Four levels of pino's call shape: a record of fields first (`err` for an error, `sessionId`),
 * then the message. A pino `Logger` is one as it is; so is `console`-backed `consoleLogger()`.
 */
export interface Logger {
  error(fields: object, message?: string): void;
  warn(fields: object, message?: string): void;
  info(fields: object, message?: string): void;
  debug(fields: object, message?: string): void;
}

/** What a logger writes through: `console`, or a `Console` on other streams. */
export type ConsoleLike = Pick<Console, "error" | "warn" | "info" | "debug">;

/** Fields printed after the message; an empty record prints nothing. */
function rest(fields: object): unknown[] {
  return Object.keys(fields).length === 0 ? [] : [fields];
}

/**
 * A logger on `target` (default the global `console`): `error` and `warn` go to its stderr, `info`
 * and `debug` to its stdout, as `console` does. Not for a stdio server, whose stdout carries
 * JSON-RPC: use `stderrLogger()` there.
 */
export function consoleLogger(target: ConsoleLike = console): Logger {
  return {
    error: (fields, message) => target.error(message ?? "", ...rest(fields)),
    warn: (fields, message) => target.warn(message ?? "", ...rest(fields)),
    info: (fields, message) => target.info(message ?? "", ...rest(fields)),
    debug: (fields, message) => target.debug(message ?? "", ...rest(fields)),
  };
}

/** A logger that writes every level to the process's stderr, never to stdout (where stdio carries JSON-RPC). */
export function stderrLogger(): Logger {
  return consoleLogger(new Console({ stdout: process.stderr, stderr: process.stderr }));
}
