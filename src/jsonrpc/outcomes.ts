/** What a `JsonRpcSession`'s handler returned or threw, made into what the session sends or reports. */
import { ErrorCode, ProtocolError } from "./errors.js";
import type { Result } from "./session-types.js";

/** Whether a handler's value can be sent as a JSON-RPC result: an object, not `null` nor an array. */
export function isResultObject(value: unknown): value is Result {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** How to report a handler's value that is no result object: the peer would wait for ever for a response without one. */
export function notAResult(method: string, value: unknown): Error {
  const kind = value === null ? "null" : Array.isArray(value) ? "an array" : typeof value;
  return new Error(`The ${method} handler returned ${kind} instead of a result object`);
}

/** Anything thrown, as an `Error` to report. */
export function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/**
 * Only a `ProtocolError` says what went wrong on the wire; anything else is an internal failure
 * whose text (a file path, a connection string) stays local: `McpServer` reports it to its logger.
 */
export function toErrorObject(error: unknown) {
  if (error instanceof ProtocolError) return error.toJson();
  return { code: ErrorCode.InternalError, message: "Internal error" };
}
