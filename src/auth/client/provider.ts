/**
 * Authorization for an MCP client's HTTP requests, run as the server asks for it (spec
 * 2025-11-25: basic/authorization): every request carries the current access token; a 401
 * starts discovery from its `WWW-Authenticate` (resource metadata, then the authorization server
 * it names), a client identity for that server and an authorization code grant, then the
 * request is sent again; a 403 `insufficient_scope` asks again for the scopes granted so far
 * plus the challenged ones (§ Scope Challenge Handling). Tokens near expiry are refreshed first.
 *
 * Plug it into the Streamable HTTP client transport through its `authorization` option, which
 * works on both of its HTTP paths (`node:http` on Node.js, `fetch` elsewhere):
 *
 *   const auth = new McpAuthorization(url, { userAgent: loopbackUserAgent(openBrowser) });
 *   await client.connect(new StreamableHttpClientTransport(url, { authorization: auth }));
 *
 * `auth.fetch` is the same as a `fetch`, for the transport's `fetch` option or any other use.
 */
import type * as oauth from "oauth4webapi";
import type { AuthorizableAnswer, RequestAuthorization } from "../../transports/http/client-http.js";
import { authorizationCodeGrant, refreshTokenGrant } from "./authorization-code.js";
import { challengeParameter, discoverAuthorizationServer, resourceFromChallenge } from "./discovery.js";
import { type ClientCredentials, type ClientIdentityOptions, clientFor } from "./registration.js";
import { MemoryTokenStore, type StoredToken, type TokenStore } from "./token-store.js";
import { EXPIRY_MARGIN_MS, storedToken } from "./tokens.js";
import type { AuthorizationUserAgent } from "./user-agent.js";

/** ms one authorization may take, the user's part included: 5 minutes. */
export const DEFAULT_AUTHORIZATION_TIMEOUT_MS = 300_000;

export interface McpAuthorizationOptions extends Omit<ClientIdentityOptions, "signal"> {
  /** Takes the authorization URL to the authorization server and brings the redirect back. */
  userAgent: AuthorizationUserAgent;
  /** Scopes to ask for instead of those the server suggests (challenge `scope`, else `scopes_supported`). */
  scopes?: readonly string[];
  /**
   * Also ask for `offline_access` where the authorization server lists it, to get a refresh
   * token (SEP-2207). Default true.
   */
  offlineAccess?: boolean;
  /** Where tokens are kept; default in memory. A {@link FileTokenStore} shares them with `handoff login`. */
  store?: TokenStore;
  /** ms one authorization may take; default 300,000. */
  timeoutMs?: number;
  /** Scope step-ups tried for one request before its 403 is returned; default 2. */
  maxScopeUpgrades?: number;
  /** The fetch that `McpAuthorization.fetch` sends through; default the global `fetch`. */
  fetch?: typeof fetch;
  /** The clock, epoch ms; default `Date.now`. */
  now?: () => number;
}

/**
 * The authorization state of one MCP server (`resource`, its MCP endpoint URL), applied to the
 * client transport's requests (`authorizeRequest`, its `authorization` option) or through a
 * `fetch`. Concurrent requests that are refused together share one authorization.
 */
export class McpAuthorization implements RequestAuthorization {
  /**
   * `fetch` with the token added and 401 / 403 `insufficient_scope` handled as described above
   * (a refused token with a refresh token is refreshed once before a new authorization). The
   * token goes only to the origin of `resource`; other URLs are fetched untouched. A request
   * whose body cannot be sent twice (a stream) gets its 401 / 403 back as is.
   * @throws LoginError ("discovery" | "registration" | "denied" | "callback" | "token" |
   *   "timeout") when an authorization the server asked for fails; the error names no secret.
   */
  readonly fetch: typeof fetch;
  readonly resource: URL;
  readonly #options: McpAuthorizationOptions;
  readonly #store: TokenStore;
  readonly #base: typeof fetch;
  readonly #now: () => number;
  /** Credentials per issuer: registered once, never shown to another issuer. */
  readonly #clients = new Map<string, ClientCredentials>();
  #token: StoredToken | undefined;
  #loaded = false;
  /** Scopes asked for when the current token was obtained. */
  #requested: readonly string[] = [];
  #running: Promise<void> | undefined;

  constructor(resource: string | URL, options: McpAuthorizationOptions) {
    this.resource = new URL(resource);
    this.#options = options;
    this.#store = options.store ?? new MemoryTokenStore();
    this.#base = options.fetch ?? ((input, init) => fetch(input, init));
    this.#now = options.now ?? Date.now;
    this.fetch = (input, init) => this.#fetch(input, init);
  }

  /**
   * The access token to send now: the current one, refreshed when it is about to expire.
   * @returns `undefined` before the first authorization, or when the token expired and could
   *   not be refreshed (it is forgotten then).
   * @throws LoginError "discovery" | "token" when the authorization server cannot be reached to refresh.
   */
  async accessToken(): Promise<string | undefined> {
    if (this.#running !== undefined) await this.#running.catch(() => {});
    if (!this.#loaded) {
      this.#loaded = true;
      this.#token ??= await this.#store.find(this.resource.href);
    }
    const token = this.#token;
    if (token === undefined) return undefined;
    if (token.expiresAt === undefined || this.#now() < token.expiresAt - EXPIRY_MARGIN_MS) return token.accessToken;
    this.#running ??= this.#refresh(token).finally(() => {
      this.#running = undefined;
    });
    await this.#running;
    return this.#token?.accessToken;
  }

  /**
   * Authorizes again now, as a 401 or 403 with `challenge` (a `WWW-Authenticate` value) asks.
   * With `stepUp`, the scopes asked for before are asked for again along with the challenged ones.
   * @throws LoginError as `fetch` does.
   */
  async authorize(challenge: string, options: { stepUp?: boolean } = {}): Promise<void> {
    if (this.#running !== undefined) {
      await this.#running;
      return;
    }
    this.#running = this.#authorize(challenge, options.stepUp ?? false).finally(() => {
      this.#running = undefined;
    });
    await this.#running;
  }

  /**
   * Sends one request to `url` with the current token (`send` is given the `Authorization`
   * value, `Bearer <token>`, or `undefined` before the first authorization) and handles a 401 or
   * a 403 `insufficient_scope` as `fetch` does: the refused answer is given up and `send` is
   * called again with the new token. The token goes only to the origin of `resource`.
   * @throws LoginError as `fetch` does.
   */
  async authorizeRequest<A extends AuthorizableAnswer>(
    url: URL,
    send: (authorization: string | undefined) => Promise<A>,
  ): Promise<A> {
    // The token is for this server only, whatever else the requests go to.
    if (url.origin !== this.resource.origin) return send(undefined);
    return this.#authorized(send);
  }

  async #fetch(input: string | URL | Request, init: RequestInit = {}): Promise<Response> {
    const target = new URL(input instanceof Request ? input.url : input);
    if (target.origin !== this.resource.origin) return this.#base(input, init);
    const send = async (authorization: string | undefined) => {
      const headers = new Headers(init.headers);
      if (authorization !== undefined) headers.set("authorization", authorization);
      return new FetchedAnswer(await this.#base(input, { ...init, headers }));
    };
    // A body that cannot be sent twice (a stream) gets its 401 / 403 back as is.
    const replayable = !(input instanceof Request) && (init.body == null || typeof init.body === "string");
    return (replayable ? await this.#authorized(send) : await send(await this.#bearer())).response;
  }

  /** `Bearer <token>` with the token to send now, or `undefined`. */
  async #bearer(): Promise<string | undefined> {
    const token = await this.accessToken();
    return token === undefined ? undefined : `Bearer ${token}`;
  }

  async #authorized<A extends AuthorizableAnswer>(send: (authorization: string | undefined) => Promise<A>): Promise<A> {
    let refreshed = false;
    let authorized = false;
    let upgrades = 0;
    for (;;) {
      const token = await this.accessToken();
      const response = await send(token === undefined ? undefined : `Bearer ${token}`);
      if (response.status !== 401 && response.status !== 403) return response;
      const challenge = bearerChallenge(response.header("www-authenticate"));
      if (response.status === 401) {
        // A token that was just obtained and is refused at once will not do better a second time.
        if (authorized) return response;
        await response.cancel();
        // A refused token that can be refreshed is refreshed once before anyone is asked to log in.
        if (!refreshed && token !== undefined && this.#token?.refreshToken !== undefined) {
          refreshed = true;
          await this.#refreshRefused(token);
          if (this.#token !== undefined) continue;
        }
        await this.#renew(token, challenge, false);
        authorized = true;
        continue;
      }
      if (challenge === undefined || challengeParameter(challenge, "error") !== "insufficient_scope") return response;
      const wanted = challengeParameter(challenge, "scope")?.split(" ").filter(Boolean) ?? [];
      const granted = new Set(this.#token?.scope?.split(" ") ?? this.#requested);
      // Asking again for scopes already granted cannot change the answer (a loop otherwise).
      if (upgrades >= (this.#options.maxScopeUpgrades ?? 2) || wanted.every((scope) => granted.has(scope))) {
        return response;
      }
      await response.cancel();
      await this.#renew(token, challenge, true);
      upgrades++;
      authorized = true;
    }
  }

  /** Authorizes unless another request already replaced `used` meanwhile. */
  async #renew(used: string | undefined, challenge: string | undefined, stepUp: boolean): Promise<void> {
    if (this.#running !== undefined) await this.#running.catch(() => {});
    if (this.#token !== undefined && this.#token.accessToken !== used) return;
    await this.authorize(challenge ?? "", { stepUp });
  }

  /** Refreshes the token the server refused (`used`), unless another request already replaced it. */
  async #refreshRefused(used: string): Promise<void> {
    if (this.#running !== undefined) await this.#running.catch(() => {});
    const current = this.#token;
    if (current === undefined || current.accessToken !== used) return;
    this.#running = this.#refresh(current).finally(() => {
      this.#running = undefined;
    });
    await this.#running;
  }

  async #authorize(challenge: string, stepUp: boolean): Promise<void> {
    const old = this.#token;
    // A refused token is gone; one short of scopes still serves other requests until replaced.
    if (old !== undefined && !stepUp) {
      this.#token = undefined;
      await this.#store.delete(old.issuer, old.resource);
    }
    const signal = AbortSignal.timeout(this.#options.timeoutMs ?? DEFAULT_AUTHORIZATION_TIMEOUT_MS);
    const found = await resourceFromChallenge(this.resource, challenge, signal);
    const as = await discoverAuthorizationServer(found.issuer, signal);
    const scopes = new Set(this.#options.scopes ?? found.scopes);
    if (stepUp && old?.issuer === as.issuer) for (const scope of this.#requested) scopes.add(scope);
    if (wantsOfflineAccess(as, this.#options.offlineAccess ?? true)) scopes.add("offline_access");
    const attempt = await this.#options.userAgent.begin();
    try {
      let credentials = this.#clients.get(as.issuer);
      if (credentials === undefined) {
        credentials = await clientFor(as, attempt.redirectUri, { ...this.#options, signal });
        this.#clients.set(as.issuer, credentials);
      }
      const response = await authorizationCodeGrant({
        as,
        credentials,
        resource: found.resource,
        scopes: [...scopes],
        attempt,
        signal,
      });
      const token = storedToken(response, {
        issuer: as.issuer,
        resource: found.resource,
        clientId: credentials.clientId,
        now: this.#now,
      });
      if (old !== undefined && stepUp && (old.issuer !== token.issuer || old.resource !== token.resource)) {
        await this.#store.delete(old.issuer, old.resource);
      }
      await this.#store.put(token);
      this.#token = token;
      this.#requested = [...scopes];
    } finally {
      await attempt.close();
    }
  }

  async #refresh(token: StoredToken): Promise<void> {
    let renewed: oauth.TokenEndpointResponse | undefined;
    if (token.refreshToken !== undefined) {
      const as = await discoverAuthorizationServer(token.issuer);
      const credentials = this.#clients.get(token.issuer) ?? { clientId: token.clientId };
      renewed = await refreshTokenGrant(as, credentials, token.refreshToken, token.resource);
    }
    if (renewed === undefined) {
      this.#token = undefined;
      await this.#store.delete(token.issuer, token.resource);
      return;
    }
    const next = storedToken(renewed, { ...token, now: this.#now });
    this.#token = next.refreshToken === undefined ? { ...next, refreshToken: token.refreshToken } : next;
    await this.#store.put(this.#token);
  }
}

/** A `Response` as the authorization loop reads it. */
class FetchedAnswer implements AuthorizableAnswer {
  constructor(readonly response: Response) {}

  get status(): number {
    return this.response.status;
  }

  header(name: string): string | null {
    return this.response.headers.get(name);
  }

  async cancel(): Promise<void> {
    await this.response.body?.cancel().catch(() => {});
  }
}

/** The `Bearer` challenge of a `WWW-Authenticate` value, or `undefined` when there is none. */
function bearerChallenge(header: string | null): string | undefined {
  if (header === null || !/(?:^|[\s,])bearer\b/i.test(header)) return undefined;
  return header;
}

/** `offline_access` is worth asking for where the server lists it and issues refresh tokens (SEP-2207). */
function wantsOfflineAccess(as: oauth.AuthorizationServer, wanted: boolean): boolean {
  if (!wanted || as.scopes_supported?.includes("offline_access") !== true) return false;
  return as.grant_types_supported === undefined || as.grant_types_supported.includes("refresh_token");
}
