/**
 * What a failed query tells the caller. PostgreSQL out of reach (refused, reset, timed out, shutting
 * down, refusing the login) is SdkError "STORE_UNAVAILABLE" naming the operation; the driver's error
 * is never passed on as it is, since some carry the connection string (a URL that fails to parse
 * keeps it in `input`), but as a plain `Error` with its code and a message without any password.
 */
import { SdkError } from "../jsonrpc/errors.js";
import { codeOf, NETWORK_CODES, plainError, redactUrls } from "../stores/driver-errors.js";

/**
 * SQLSTATEs of a server that will not serve: class 08 (connection exception), class 28 (the login
 * was refused), 53300 (too many connections), 57P01 to 57P03 (shutting down, crashed, starting up).
 */
const UNAVAILABLE_STATE = /^(08|28)|^53300$|^57P0[123]$/;

/** What pg says when a connection breaks or never opens, without a code. */
const UNAVAILABLE_MESSAGE =
  /Connection terminated|timeout exceeded when trying to connect|Query read timeout|not queryable|connection timeout/i;

const POOL_ENDED = /Cannot use a pool after calling end/;

/** `22021` and `22P05`: text PostgreSQL cannot store, such as the character U+0000. */
const UNSTORABLE_TEXT = /^(22021|22P05)$/;

const UNDEFINED_TABLE = "42P01";

/**
 * The error to reject `operation` with, for `error` thrown by pg: SdkError "STORE_UNAVAILABLE" when
 * PostgreSQL cannot be reached or refuses to serve, "CONNECTION_CLOSED" once the pool was ended,
 * "INVALID_ARGUMENT" for text PostgreSQL cannot store; any other refusal of the server, an `SdkError`
 * or a value that is no `Error` as it is; any other error as a plain `Error` with its code and its
 * message without passwords.
 */
export function storeError(error: unknown, operation: string): unknown {
  if (error instanceof SdkError || !(error instanceof Error)) return error;
  const code = codeOf(error);
  const reason = describe(error);
  if (POOL_ENDED.test(error.message)) {
    return new SdkError("CONNECTION_CLOSED", `The PostgreSQL pool is closed (${operation}).`);
  }
  if (isUnavailable(error, code)) {
    return new SdkError(
      "STORE_UNAVAILABLE",
      `PostgreSQL could not serve ${operation}: ${reason}. It is used again as soon as it answers.`,
      { cause: plainError(reason, code) },
    );
  }
  if (code === UNDEFINED_TABLE) {
    return new SdkError(
      "STORE_UNAVAILABLE",
      `PostgreSQL has no table for ${operation} (${reason}): apply the migrations first, with migrate() or \`handoff migrate\`.`,
      { cause: plainError(reason, code) },
    );
  }
  if (code !== undefined && UNSTORABLE_TEXT.test(code)) {
    return new SdkError("INVALID_ARGUMENT", `PostgreSQL cannot store this text (${operation}): ${reason}.`);
  }
  // The server's own refusals (a constraint, a bad query) name no connection setting: passed on whole.
  if ("severity" in error && code !== undefined) return error;
  return plainError(`${operation} failed: ${reason}`, code);
}

function isUnavailable(error: Error, code: string | undefined): boolean {
  if (code !== undefined && (NETWORK_CODES.has(code) || UNAVAILABLE_STATE.test(code))) return true;
  return UNAVAILABLE_MESSAGE.test(error.message);
}

/** The error's message (or its parts' messages, or its code), with any password of a URL cut out. */
function describe(error: Error): string {
  const inner = (error as { errors?: unknown }).errors;
  const parts =
    error.message !== ""
      ? [error.message]
      : Array.isArray(inner)
        ? inner.map((part) => (part instanceof Error ? part.message : "")).filter((text) => text !== "")
        : [];
  const text = parts.join("; ") || codeOf(error) || error.name;
  return redactUrls(text);
}
