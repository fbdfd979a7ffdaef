/**
 * What a failed Redis command tells the caller. Redis out of reach (refused, reset, timed out,
 * the connection down and reconnecting, a login refused) is SdkError "STORE_UNAVAILABLE" naming
 * Redis and the operation; the driver's error is never passed on as it is, but as a plain `Error`
 * with its code and a message in which any password of a URL is cut out.
 */
import { SdkError } from "../jsonrpc/errors.js";
import { codeOf, NETWORK_CODES, plainError, redactUrls } from "../stores/driver-errors.js";

/**
 * What ioredis and Redis say when a command cannot be served: the connection is down (and no
 * command is queued for it), a command timed out or was retried too often, the login was refused,
 * Redis is loading its data or is a replica cut off from its master.
 */
const UNAVAILABLE_MESSAGE =
  /Stream isn't writeable|Connection is closed|Command timed out|Reached the max retries per request|connect ETIMEDOUT|^NOAUTH|^WRONGPASS|^LOADING|^MASTERDOWN|^READONLY|^BUSY |^CLUSTERDOWN|^TRYAGAIN/i;

/** The error once the client was closed for good (`quit()` or `disconnect()`). */
export function closedError(operation: string): SdkError {
  return new SdkError("CONNECTION_CLOSED", `The Redis connection is closed (${operation}).`);
}

/**
 * The error to reject `operation` (such as `"sessions.get"`) with, for `error` thrown by ioredis:
 * SdkError "STORE_UNAVAILABLE" when Redis cannot be reached or will not serve, "CONNECTION_CLOSED"
 * when `closed` says the client was closed for good; an `SdkError` or a value that is no `Error` as
 * it is; any other error as a plain `Error` with its code and its message without passwords.
 */
export function storeError(error: unknown, operation: string, closed = false): unknown {
  if (error instanceof SdkError || !(error instanceof Error)) return error;
  if (closed) return closedError(operation);
  const code = codeOf(error);
  const reason = redactUrls(error.message || code || error.name);
  if ((code !== undefined && NETWORK_CODES.has(code)) || UNAVAILABLE_MESSAGE.test(error.message)) {
    return new SdkError(
      "STORE_UNAVAILABLE",
      `Redis could not serve ${operation}: ${reason}. It is used again as soon as it answers.`,
      { cause: plainError(reason, code) },
    );
  }
  return plainError(`Redis failed ${operation}: ${reason}`, code);
}
