/**
 * The access token to send to an MCP server: the stored one while it is fresh, else one obtained
 * with the refresh token (kept with the `resource` it was issued for), else none, which means
 * logging in again.
 */
import type * as oauth from "oauth4webapi";
import { refreshTokenGrant } from "./authorization-code.js";
import { discoverAuthorizationServer } from "./discovery.js";
import type { StoredToken, TokenStore } from "./token-store.js";

/** ms before `expiresAt` from which a token counts as expired, so it does not lapse in flight. */
export const EXPIRY_MARGIN_MS = 30_000;

export interface AccessTokenOptions {
  store: TokenStore;
  /** The clock, epoch ms; default `Date.now`. */
  now?: () => number;
  signal?: AbortSignal;
}

/**
 * The access token for `resource`, refreshed when it has expired.
 * @returns `undefined` when nothing is stored, or it expired and cannot be refreshed (then the
 *   stored entry is removed, so the next run asks for a login at once).
 * @throws LoginError "discovery" | "token" when the authorization server cannot be reached to refresh.
 */
export async function accessTokenFor(resource: string | URL, options: AccessTokenOptions): Promise<string | undefined> {
  const now = options.now ?? Date.now;
  const stored = await options.store.find(new URL(resource).href);
  if (stored === undefined) return undefined;
  if (stored.expiresAt === undefined || now() < stored.expiresAt - EXPIRY_MARGIN_MS) return stored.accessToken;
  const refreshed = await refresh(stored, options.signal, now);
  if (refreshed === undefined) {
    await options.store.delete(stored.issuer, stored.resource);
    return undefined;
  }
  await options.store.put(refreshed);
  return refreshed.accessToken;
}

/**
 * Renews `stored` with its refresh token.
 * @returns the new token (the old refresh token kept when the server issued none), or
 *   `undefined` when there is no refresh token or the server refused it.
 * @throws LoginError "discovery" when the authorization server's metadata cannot be read, "token"
 *   when its token endpoint cannot be reached.
 */
export async function refresh(
  stored: StoredToken,
  signal?: AbortSignal,
  now: () => number = Date.now,
): Promise<StoredToken | undefined> {
  if (stored.refreshToken === undefined) return undefined;
  const as = await discoverAuthorizationServer(stored.issuer, signal);
  const result = await refreshTokenGrant(
    as,
    { clientId: stored.clientId },
    stored.refreshToken,
    stored.resource,
    signal,
  );
  if (result === undefined) return undefined;
  const renewed = storedToken(result, { ...stored, now });
  return renewed.refreshToken === undefined ? { ...renewed, refreshToken: stored.refreshToken } : renewed;
}

/** A token endpoint response as it is stored. */
export function storedToken(
  response: oauth.TokenEndpointResponse,
  where: { issuer: string; resource: string; clientId: string; now: () => number },
): StoredToken {
  return {
    issuer: where.issuer,
    resource: where.resource,
    clientId: where.clientId,
    accessToken: response.access_token,
    ...(response.refresh_token === undefined ? {} : { refreshToken: response.refresh_token }),
    ...(response.expires_in === undefined ? {} : { expiresAt: where.now() + response.expires_in * 1000 }),
    ...(response.scope === undefined ? {} : { scope: response.scope }),
  };
}
