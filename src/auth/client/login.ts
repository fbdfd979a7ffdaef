/**
 * Logging in for an MCP server as a native client (spec 2025-11-25: basic/authorization):
 * discovery from the server's 401, a pre-configured client id or dynamic client registration
 * (RFC 7591), authorization code + PKCE S256 with the `resource` indicator (RFC 8707), the
 * redirect received on a loopback listener, `state` and `iss` (RFC 9207) checked, then the
 * code exchanged and the tokens stored.
 */
import { authorizationCodeGrant } from "./authorization-code.js";
import { discoverAuthorizationServer, discoverResource } from "./discovery.js";
import { clientFor } from "./registration.js";
import type { StoredToken, TokenStore } from "./token-store.js";
import { storedToken } from "./tokens.js";
import { loopbackUserAgent } from "./user-agent.js";

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
  const attempt = await loopbackUserAgent(options.openUrl).begin();
  try {
    const credentials = await clientFor(as, attempt.redirectUri, {
      clients: options.clientId === undefined ? [] : [{ clientId: options.clientId, tokenEndpointAuthMethod: "none" }],
      clientName: options.clientName ?? "handoff",
      ...(signal === undefined ? {} : { signal }),
    });
    const timeout = AbortSignal.timeout(options.timeoutMs ?? DEFAULT_LOGIN_TIMEOUT_MS);
    const response = await authorizationCodeGrant({
      as,
      credentials,
      resource: found.resource,
      scopes: options.scopes ?? found.scopes,
      attempt,
      signal: signal === undefined ? timeout : AbortSignal.any([signal, timeout]),
    });
    const token = storedToken(response, {
      issuer: as.issuer,
      resource: found.resource,
      clientId: credentials.clientId,
      now: options.now ?? Date.now,
    });
    await options.store.put(token);
    return token;
  } finally {
    await attempt.close();
  }
}
