/** The local error the Streamable HTTP client raises for an HTTP failure. */
import { SdkError } from "../../jsonrpc/errors.js";

/**
 * An HTTP request of the client transport failed. `sessionExpired` is true for a 404 on a
 * request that carried a session id: the server ended the session, and the client must
 * initialize a new one (spec: basic/transports § Session Management). The transport has
 * already forgotten the old session id by then.
 */
export class StreamableHttpError extends SdkError {
  /** True for a 404 on a request that carried a session id: initialize again. */
  readonly sessionExpired: boolean;

  /** @param status the HTTP status, or `undefined` when no answer came (network failure). */
  constructor(
    readonly status: number | undefined,
    message: string,
    options: { sessionExpired?: boolean; cause?: unknown } = {},
  ) {
    super("TRANSPORT_ERROR", message, options.cause === undefined ? undefined : { cause: options.cause });
    this.sessionExpired = options.sessionExpired ?? false;
  }
}

/**
 * Why a `fetch` rejected, as one phrase: undici's "fetch failed" names its reason only in
 * `cause` (`ECONNREFUSED 127.0.0.1:1`, a DNS failure, a reset), which is what a user needs to read.
 */
export function fetchFailure(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const cause = error instanceof Error ? (error.cause as { code?: unknown; message?: unknown } | undefined) : undefined;
  const reason = typeof cause?.message === "string" && cause.message !== "" ? cause.message : undefined;
  const code = typeof cause?.code === "string" ? cause.code : undefined;
  if (reason === undefined) return code === undefined ? text : `${text} (${code})`;
  return code === undefined || reason.includes(code) ? `${text}: ${reason}` : `${text}: ${code}, ${reason}`;
}
