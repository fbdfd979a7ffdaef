/**
 * Failures of bearer-token verification (RFC 6750 § 3.1). Their messages are fixed sentences
 * written here, safe to send as `error_description`: they never quote the token or its claims.
 */

/** The RFC 6750 error codes a protected resource answers with. */
export type BearerErrorCode = "invalid_request" | "invalid_token" | "insufficient_scope";

/** The HTTP status that goes with each code (RFC 6750 § 3.1). */
export const BEARER_ERROR_STATUS: Record<BearerErrorCode, 400 | 401 | 403> = {
  invalid_request: 400,
  invalid_token: 401,
  insufficient_scope: 403,
};

/**
 * A request the resource refuses: `invalid_request` (400, a malformed `Authorization` header),
 * `invalid_token` (401, expired, revoked, malformed, or meant for another resource or issuer) or
 * `insufficient_scope` (403; `scopes` is the scope set the client should ask for).
 */
export class BearerTokenError extends Error {
  override readonly name = "BearerTokenError";
  /** The HTTP status that goes with `code`. */
  readonly status: 400 | 401 | 403;
  /** For `insufficient_scope`: the scopes to challenge with; otherwise empty. */
  readonly scopes: readonly string[];

  constructor(
    readonly code: BearerErrorCode,
    message: string,
    scopes: readonly string[] = [],
  ) {
    super(message);
    this.status = BEARER_ERROR_STATUS[code];
    this.scopes = scopes;
  }
}

/**
 * The token could not be checked because the authorization server's key set, metadata or
 * introspection endpoint did not answer usefully. Not the client's fault: answered with 503,
 * never with a challenge that would make the client throw its token away.
 */
export class AuthorizationServerUnavailableError extends Error {
  override readonly name = "AuthorizationServerUnavailableError";
}
