/**
 * One authorization code grant for an MCP server (spec 2025-11-25: basic/authorization
 * § Authorization Flow Steps): PKCE with S256, the `resource` indicator (RFC 8707) in the
 * authorization and token requests, the redirect's `state` and `iss` (RFC 9207, compared as
 * plain strings) checked before the code leaves the client, then the code exchanged.
 */
import * as oauth from "oauth4webapi";
import { requestOptions } from "./discovery.js";
import { LoginError } from "./errors.js";
import { type ClientCredentials, clientAuthentication } from "./registration.js";
import type { AuthorizationAttempt } from "./user-agent.js";

export interface AuthorizationCodeOptions {
  as: oauth.AuthorizationServer;
  credentials: ClientCredentials;
  /** The protected resource exactly as its metadata spells it. */
  resource: string;
  /** Scopes to ask for; the `scope` parameter is left out when empty. */
  scopes: readonly string[];
  attempt: AuthorizationAttempt;
  signal: AbortSignal;
}

/**
 * Runs the grant through `attempt`.
 * @returns the token endpoint's answer.
 * @throws LoginError "discovery" (no authorization endpoint) | "registration" (unusable client
 *   authentication) | "denied" | "callback" (wrong `state` or `iss`, no code) | "token" | "timeout".
 */
export async function authorizationCodeGrant(options: AuthorizationCodeOptions): Promise<oauth.TokenEndpointResponse> {
  const { as, attempt, resource } = options;
  const { client, auth } = clientAuthentication(as, options.credentials);
  const endpoint = as.authorization_endpoint;
  if (endpoint === undefined) throw new LoginError("discovery", `${as.issuer} has no authorization endpoint`);
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(endpoint);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("client_id", client.client_id);
  url.searchParams.set("redirect_uri", attempt.redirectUri);
  url.searchParams.set("code_challenge", await oauth.calculatePKCECodeChallenge(verifier));
  url.searchParams.set("code_challenge_method", "S256");
  url.searchParams.set("state", state);
  url.searchParams.set("resource", resource);
  if (options.scopes.length > 0) url.searchParams.set("scope", options.scopes.join(" "));

  const finish = async (callback: URL): Promise<oauth.TokenEndpointResponse> => {
    let params: URLSearchParams;
    try {
      params = oauth.validateAuthResponse(as, client, callback, state);
    } catch (error) {
      if (error instanceof oauth.AuthorizationResponseError) {
        const reason = error.error === "access_denied" ? "The authorization was refused" : "The authorization failed";
        throw new LoginError("denied", `${reason} (${error.error})`, { cause: error });
      }
      // The oauth4webapi message names what failed (`state`, `iss`) without quoting the values.
      throw new LoginError("callback", `The redirect was not the answer to this login: ${(error as Error).message}`, {
        cause: error,
      });
    }
    try {
      const response = await oauth.authorizationCodeGrantRequest(
        as,
        client,
        auth,
        params,
        attempt.redirectUri,
        verifier,
        {
          ...requestOptions(new URL(as.issuer)),
          additionalParameters: { resource },
          signal: options.signal,
        },
      );
      return await oauth.processAuthorizationCodeResponse(as, client, response);
    } catch (error) {
      // The server's error code (`invalid_client`, `invalid_grant`) says what to fix; it holds no secret.
      const code = error instanceof oauth.ResponseBodyError ? ` (${error.error})` : "";
      throw new LoginError("token", `${as.issuer} did not exchange the code for a token${code}`, { cause: error });
    }
  };
  return attempt.authorize(url, finish, { signal: options.signal, issuer: as.issuer });
}

/**
 * Renews tokens with `refreshToken` for `resource` (RFC 6749 § 6, RFC 8707 § 2.2).
 * @returns the answer, or `undefined` when the server refused the refresh token (log in again).
 * @throws LoginError "token" when the token endpoint cannot be reached or answers nonsense.
 */
export async function refreshTokenGrant(
  as: oauth.AuthorizationServer,
  credentials: ClientCredentials,
  refreshToken: string,
  resource: string,
  signal?: AbortSignal,
): Promise<oauth.TokenEndpointResponse | undefined> {
  const { client, auth } = clientAuthentication(as, credentials);
  try {
    const response = await oauth.refreshTokenGrantRequest(as, client, auth, refreshToken, {
      ...requestOptions(new URL(as.issuer)),
      additionalParameters: { resource },
      ...(signal === undefined ? {} : { signal }),
    });
    return await oauth.processRefreshTokenResponse(as, client, response);
  } catch (error) {
    if (error instanceof oauth.ResponseBodyError) return undefined;
    throw new LoginError("token", `${as.issuer} could not be asked for a new token`, { cause: error });
  }
}
