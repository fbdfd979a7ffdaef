/**
 * The third-party half of an OAuth hand-off: sends the user to the provider's authorization
 * server (authorization code + PKCE, `state` kept server-side) and turns its answer into a stored
 * credential. Also renews an access token with its refresh token.
 */
import * as oauth from "oauth4webapi";
import type { StoredCredential } from "../model/interaction.js";
import { displayName } from "./login.js";
import type { AuthorizationServerConfig, OAuthServer, OAuthServers } from "./oauth-server.js";
import type { GrantStateStore, PendingGrant } from "./state-store.js";

export interface ProviderFlowDeps {
  providers: Readonly<Record<string, AuthorizationServerConfig>>;
  servers: OAuthServers;
  states: GrantStateStore;
  /** The connect pages' base URL, ending in `/`. */
  baseUrl: URL;
  now: () => number;
  /** Told of a step that failed without failing the grant (the provider's userinfo); default none. */
  report?: (message: string, error: unknown) => void;
}

/** What a provider's name may be: it is a path segment of its redirect URI. */
export const PROVIDER_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/**
 * The redirect URI of one provider, `${baseUrl}/connect/callback/<provider>`: each provider has its
 * own, so an answer can be matched to the provider it came from even when it carries no `iss`
 * (RFC 9700 § 4.4.2). Register exactly this URI with the provider.
 * @throws RangeError when `provider` is not 1-64 letters, digits, `.`, `_` or `-`, starting with a letter or digit.
 */
export function redirectUriFor(baseUrl: string | URL, provider: string): string {
  if (!PROVIDER_NAME.test(provider)) {
    throw new RangeError(
      `Provider name ${JSON.stringify(provider)} cannot be part of a redirect URI: use 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit`,
    );
  }
  const base = String(baseUrl);
  return new URL(`connect/callback/${provider}`, base.endsWith("/") ? base : `${base}/`).href;
}

function providerConfig(deps: Pick<ProviderFlowDeps, "providers">, provider: string): AuthorizationServerConfig {
  const config = Object.hasOwn(deps.providers, provider) ? deps.providers[provider] : undefined;
  if (config === undefined) throw new Error(`No provider named ${JSON.stringify(provider)} is configured`);
  return config;
}

/**
 * Stores a fresh `state` for the grant and returns the provider's authorization URL: the
 * config's `authorizationParams`, then the flow's own parameters, with the config's `scopes` and
 * the grant's joined by its `scopeDelimiter`.
 */
export async function startGrant(deps: ProviderFlowDeps, grant: Omit<PendingGrant, "verifier">): Promise<string> {
  const config = providerConfig(deps, grant.provider);
  const server = await deps.servers.get(config);
  const endpoint = server.as.authorization_endpoint;
  if (endpoint === undefined) throw new Error("The provider has no authorization endpoint");
  const state = oauth.generateRandomState();
  const verifier = oauth.generateRandomCodeVerifier();
  await deps.states.put(state, { ...grant, verifier });
  const url = new URL(endpoint);
  for (const [name, value] of Object.entries(config.authorizationParams ?? {})) url.searchParams.set(name, value);
  url.searchParams.set("client_id", server.client.client_id);
  url.searchParams.set("redirect_uri", redirectUriFor(deps.baseUrl, grant.provider));
  url.searchParams.set("response_type", "code");
  const scopes = [...new Set([...(config.scopes ?? []), ...grant.scopes])];
  if (scopes.length > 0) url.searchParams.set("scope", scopes.join(config.scopeDelimiter ?? " "));
  url.searchParams.set("state", state);
  url.searchParams.set("code_challenge", await oauth.calculatePKCECodeChallenge(verifier));
  url.searchParams.set("code_challenge_method", "S256");
  return url.href;
}

function credentialOf(
  provider: string,
  config: AuthorizationServerConfig,
  result: oauth.TokenEndpointResponse,
  fallback: { scopes: string[]; refreshToken?: string | undefined },
  now: number,
): StoredCredential {
  const credential: StoredCredential = { provider, secret: result.access_token, updatedAt: now };
  const refreshToken = result.refresh_token ?? fallback.refreshToken;
  if (refreshToken !== undefined) credential.refreshToken = refreshToken;
  credential.scopes =
    typeof result.scope === "string"
      ? result.scope
          .split(config.grantedScopeDelimiter ?? " ")
          .map((scope) => scope.trim())
          .filter(Boolean)
      : fallback.scopes;
  if (typeof result.expires_in === "number") credential.expiresAt = now + result.expires_in * 1000;
  return credential;
}

/**
 * Exchanges the code of a callback whose `state` was already taken and checked, and which came to
 * `grant.provider`'s own redirect URI. `iss` is checked when the provider sends it, and required
 * when its metadata says it is sent or the config has `requireIss` (RFC 9207). The granted
 * `scope` is split by the config's `grantedScopeDelimiter`.
 */
export async function finishGrant(
  deps: ProviderFlowDeps,
  grant: PendingGrant,
  callback: URL,
  state: string,
): Promise<StoredCredential> {
  const config = providerConfig(deps, grant.provider);
  const server = await deps.servers.get(config);
  const params = oauth.validateAuthResponse(server.as, server.client, callback, state);
  const response = await oauth.authorizationCodeGrantRequest(
    server.as,
    server.client,
    server.auth,
    params,
    redirectUriFor(deps.baseUrl, grant.provider),
    grant.verifier,
    server.options,
  );
  const result = await oauth.processAuthorizationCodeResponse(server.as, server.client, response, {
    ...server.tokenResponse,
    requireIdToken: false,
  });
  const now = deps.now();
  const credential = credentialOf(grant.provider, config, result, { scopes: grant.scopes }, now);
  credential.createdAt = now;
  const account = await accountAt(deps, server, result, credential.scopes ?? []);
  if (account !== undefined) credential.account = account;
  return credential;
}

/**
 * The account the grant belongs to, as the provider names it: from the ID token when the answer
 * has one, else from the userinfo endpoint when the provider has one and the grant includes
 * `openid` (which userinfo requires, OpenID Connect Core § 5.3), else none. A userinfo call that
 * fails is reported and costs only the name: the grant is kept.
 */
async function accountAt(
  deps: Pick<ProviderFlowDeps, "report">,
  server: OAuthServer,
  result: oauth.TokenEndpointResponse,
  scopes: readonly string[],
): Promise<string | undefined> {
  const claims = oauth.getValidatedIdTokenClaims(result);
  if (claims !== undefined) return nameIn(claims);
  if (server.as.userinfo_endpoint === undefined || !scopes.includes("openid")) return undefined;
  try {
    const response = await oauth.userInfoRequest(server.as, server.client, result.access_token, server.options);
    return nameIn(await oauth.processUserInfoResponse(server.as, server.client, oauth.skipSubjectCheck, response));
  } catch (error) {
    deps.report?.("Could not read the provider's userinfo; the grant is stored without its account name", error);
    return undefined;
  }
}

/** `displayName` of the claims, when they name a subject at all. */
function nameIn(claims: Readonly<Record<string, unknown>>): string | undefined {
  return typeof claims.sub === "string" && claims.sub !== "" ? displayName(claims, claims.sub) : undefined;
}

/**
 * A renewed credential; rejects when the provider refuses the refresh token (`ResponseBodyError`)
 * and, with `signal`, once it aborts.
 */
export async function refreshCredential(
  deps: Pick<ProviderFlowDeps, "providers" | "servers" | "now">,
  credential: StoredCredential & { refreshToken: string },
  signal?: AbortSignal,
): Promise<StoredCredential> {
  const config = providerConfig(deps, credential.provider);
  const server = await deps.servers.get(config);
  const response = await oauth.refreshTokenGrantRequest(
    server.as,
    server.client,
    server.auth,
    credential.refreshToken,
    signal === undefined ? server.options : { ...server.options, signal },
  );
  const result = await oauth.processRefreshTokenResponse(server.as, server.client, response, server.tokenResponse);
  const renewed = credentialOf(
    credential.provider,
    config,
    result,
    { scopes: credential.scopes ?? [], refreshToken: credential.refreshToken },
    deps.now(),
  );
  // The same connection, renewed: who it is, since when, and when it was last used stay.
  for (const field of ["account", "createdAt", "lastUsedAt"] as const) {
    if (credential[field] !== undefined) Object.assign(renewed, { [field]: credential[field] });
  }
  return renewed;
}
