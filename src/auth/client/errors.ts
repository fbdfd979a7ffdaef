/**
 * Why a login at an MCP authorization server failed. Messages never quote a token, a code or a
 * `state` value; `cause` holds the underlying error (an `oauth4webapi` one, a network failure).
 */

export type LoginFailure =
  /** The resource or authorization server metadata could not be found or is not acceptable. */
  | "discovery"
  /** No client id was given and the authorization server offers no dynamic registration, or it failed. */
  | "registration"
  /** The user (or the server) refused the authorization (`error=access_denied` and the like). */
  | "denied"
  /** The redirect came back with a wrong `state` or `iss`, or without a code: it is not ours. */
  | "callback"
  /** The token endpoint refused the code or the refresh token. */
  | "token"
  /** No redirect came back within the time allowed, or the wait was aborted. */
  | "timeout";

export class LoginError extends Error {
  override readonly name = "LoginError";
  constructor(
    readonly failure: LoginFailure,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
