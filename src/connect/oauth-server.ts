/**
 * One OAuth 2.0 / OpenID Connect authorization server as the connect flow talks to it through
 * `oauth4webapi`: its metadata found once by discovery, the client's credentials, and the
 * request options (plain http is allowed only on a loopback issuer, for development and tests).
 */
import * as oauth from "oauth4webapi";

/** How the connect flow reaches one authorization server. */
export interface AuthorizationServerConfig {
  /** The issuer identifier; its metadata is read from `/.well-known/openid-configuration`. */
  issuer: string;
  clientId: string;
  /** Sent with `client_secret_post`; without it the client is public (`none`). */
  clientSecret?: string;
  /** How the connect pages name this server to the user, e.g. `GitHub`; default its name in `providers`. */
  displayName?: string;
  /**
   * The API hosts the provider's access token may be sent to by `ctx.credentials.fetch`: exact
   * host names (with a port when not 443), https only; loopback over http only in development.
   * Default: none, so `fetch` refuses every destination until they are listed.
   */
  apiHosts?: readonly string[];
}

export interface OAuthServer {
  readonly as: oauth.AuthorizationServer;
  readonly client: oauth.Client;
  readonly auth: oauth.ClientAuth;
  /** Options for every `oauth4webapi` request to this server. */
  readonly options: { [oauth.allowInsecureRequests]?: boolean };
}

/** Whether `url` names this machine (http is then acceptable). */
export function isLoopback(url: URL): boolean {
  const host = url.hostname;
  return host === "localhost" || host === "[::1]" || host === "::1" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** Discovers servers lazily and remembers them; a failed discovery is retried next time. */
export class OAuthServers {
  readonly #found = new Map<string, Promise<OAuthServer>>();

  get(config: AuthorizationServerConfig): Promise<OAuthServer> {
    const key = `${config.issuer}\n${config.clientId}`;
    let found = this.#found.get(key);
    if (found === undefined) {
      found = discover(config);
      found.catch(() => this.#found.delete(key));
      this.#found.set(key, found);
    }
    return found;
  }
}

async function discover(config: AuthorizationServerConfig): Promise<OAuthServer> {
  const issuer = new URL(config.issuer);
  const options = isLoopback(issuer) && issuer.protocol === "http:" ? { [oauth.allowInsecureRequests]: true } : {};
  const response = await oauth.discoveryRequest(issuer, { ...options, algorithm: "oidc" });
  const as = await oauth.processDiscoveryResponse(issuer, response);
  const auth = config.clientSecret === undefined ? oauth.None() : oauth.ClientSecretPost(config.clientSecret);
  return { as, client: { client_id: config.clientId }, auth, options };
}
