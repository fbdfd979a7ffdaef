/**
 * Logging in for an MCP server as a native client (spec 2025-11-25: basic/authorization):
 * discovery from the server's 401, a pre-configured client id or dynamic client registration
 * (RFC 7591), authorization code + PKCE S256 with the `resource` indicator (RFC 8707), the
 * redirect received on a loopback listener, `state` and `iss` (RFC 9207) checked, then the
 * code exchanged and the tokens stored.
 */
import * as oauth from "oauth4webapi";
import { discoverAuthorizationServer, discoverResource, requestOptions } from "./discovery.js";
import { LoginError } from "./errors.js";
import { startLoopbackRedirect } from "./loopback.js";
import type { StoredToken, TokenStore } from "./token-store.js";
import { storedToken } from "./tokens.js";

/** ms to wait for the browser to come back: 5 minutes. */
export const DEFAULT_LOGIN_TIMEOUT_MS = 300_000;

export interface LoginOptions {
  /** The MCP server's URL (the protected resource). */
  resource: string | URL;
  /** Where the tokens go. */
  store: TokenStore;
  /**
   * Shows the authorization URL to the user: opens the browser, or prints it. Called once, after
   * the loopback listener is up; the login goes on when the browser reaches it.
   */
  openUrl: (url: string, info: { issuer: string }) => Promise<void>;
  /** A client id registered beforehand; without it the client registers dynamically. */
  clientId?: string;
  /** `client_name` for dynamic registration. Default `"handoff"`. */
  clientName?: string;
  /** Scopes to ask for instead of the ones the server suggests. */
  scopes?: readonly string[];
  /** ms to wait for the redirect; default 300,000 (5 minutes). */
  timeoutMs?: number;
  /** Aborting stops waiting; the login rejects with `LoginError` "timeout". */
  signal?: AbortSignal;
  /** The clock, epoch ms; default `Date.now`. */
  now?: () => number;
}

/**
 * Runs the whole login and stores the tokens.
 * @returns the stored token.
 * @throws LoginError "discovery" | "registration" | "denied" | "callback" | "token" | "timeout";
 *   nothing is stored then.
 */
export async function login(options: LoginOptions): Promise<StoredToken> {
  const resource = new URL(options.resource);
  const { signal } = options;
  const found = await discoverResource(resource, signal);
  const as = await discoverAuthorizationServer(found.issuer, signal);
  const listener = await startLoopbackRedirect();
  try {
    const client = await clientFor(as, listener.redirectUri, options);
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const scopes = options.scopes ?? found.scopes;
    const endpoint = as.authorization_endpoint;
    if (endpoint === undefined) throw new LoginError("discovery", `${as.issuer} has no authorization endpoint`);
    const url = new URL(endpoint);
    url.searchParams.set("response_type", "code");
    url.searchParams.set("client_id", client.client_id);
    url.searchParams.set("redirect_uri", listener.redirectUri);
    url.searchParams.set("code_challenge", await oauth.calculatePKCECodeChallenge(verifier));
    url.searchParams.set("code_challenge_method", "S256");
    url.searchParams.set("state", state);
    url.searchParams.set("resource", found.resource);
    if (scopes.length > 0) url.searchParams.set("scope", scopes.join(" "));

    const timeout = AbortSignal.timeout(options.timeoutMs ?? DEFAULT_LOGIN_TIMEOUT_MS);
    const wait = signal === undefined ? timeout : AbortSignal.any([signal, timeout]);
    const received = listener.receive(
      (callback) =>
        finish(as, client, callback, { state, verifier, redirectUri: listener.redirectUri, resource: found.resource }),
      wait,
    );
    // The browser may come back before `openUrl` resolves; its failure is reported below, not lost.
    received.catch(() => {});
    await options.openUrl(url.href, { issuer: as.issuer });
    let response: oauth.TokenEndpointResponse;
    try {
      response = await received;
    } catch (error) {
      if (error instanceof LoginError) throw error;
      throw new LoginError("timeout", "The browser did not come back to the login in time", { cause: error });
    }
    const token = storedToken(response, {
      issuer: as.issuer,
      resource: found.resource,
      clientId: client.client_id,
      now: options.now ?? Date.now,
    });
    await options.store.put(token);
    return token;
  } finally {
    await listener.close();
  }
}

async function clientFor(
  as: oauth.AuthorizationServer,
  redirectUri: string,
  options: LoginOptions,
): Promise<oauth.Client> {
  if (options.clientId !== undefined) return { client_id: options.clientId, token_endpoint_auth_method: "none" };
  if (as.registration_endpoint === undefined) {
    throw new LoginError(
      "registration",
      `${as.issuer} offers no dynamic client registration; give the client id registered there`,
    );
  }
  try {
    const response = await oauth.dynamicClientRegistrationRequest(
      as,
      {
        client_name: options.clientName ?? "handoff",
        redirect_uris: [redirectUri],
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        token_endpoint_auth_method: "none",
        application_type: "native",
      },
      requestOptions(new URL(as.issuer)),
    );
    return await oauth.processDynamicClientRegistrationResponse(response);
  } catch (error) {
    throw new LoginError("registration", `${as.issuer} refused to register this client`, { cause: error });
  }
}

/** Checks the redirect (`state`, `iss`, an error) and exchanges its code. */
async function finish(
  as: oauth.AuthorizationServer,
  client: oauth.Client,
  callback: URL,
  expected: { state: string; verifier: string; redirectUri: string; resource: string },
): Promise<oauth.TokenEndpointResponse> {
  let params: URLSearchParams;
  try {
    params = oauth.validateAuthResponse(as, client, callback, expected.state);
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
      oauth.None(),
      params,
      expected.redirectUri,
      expected.verifier,
      { ...requestOptions(new URL(as.issuer)), additionalParameters: { resource: expected.resource } },
    );
    return await oauth.processAuthorizationCodeResponse(as, client, response);
  } catch (error) {
    throw new LoginError("token", `${as.issuer} did not exchange the code for a token`, { cause: error });
  }
}
