/**
 * One OAuth 2.0 / OpenID Connect authorization server as the connect flow talks to it through
 * `oauth4webapi`: its metadata found once by discovery (or stated, for a provider without a
 * discovery document), the client's credentials, and the request options (plain http is allowed
 * only on a loopback issuer, for development and tests).
 */
import { createHash } from "node:crypto";
import * as oauth from "oauth4webapi";

/**
 * The endpoints of an authorization server that publishes no metadata document (RFC 8414 § 2
 * names these fields), stated instead of discovered. All are absolute https URLs (http only on
 * loopback, for development and tests).
 */
export interface AuthorizationServerMetadata {
  authorization_endpoint: string;
  token_endpoint: string;
  /** An RFC 7009 revocation endpoint; leave it out when the provider has none or revokes some other way. */
  revocation_endpoint?: string;
  /** The OpenID Connect UserInfo endpoint, when there is one. */
  userinfo_endpoint?: string;
  /** Whether every authorization response carries `iss` (RFC 9207 § 3); a response without it is then refused. */
  authorization_response_iss_parameter_supported?: boolean;
}

/** How scopes are joined in an authorization request, or split in a token response. */
export type ScopeDelimiter = " " | ",";

/** How the connect flow reaches one authorization server. */
export interface AuthorizationServerConfig {
  /**
   * The issuer identifier. Without `metadata`, the server's metadata is read from
   * `<issuer>/.well-known/openid-configuration`; with it, the issuer only names the server (an
   * `iss` in an authorization response must equal it, RFC 9207 § 2.4).
   */
  issuer: string;
  clientId: string;
  /** Sent as `tokenEndpointAuthMethod` says; without it the client is public (`none`). */
  clientSecret?: string;
  /** How the connect pages name this server to the user, e.g. `GitHub`; default its name in `providers`. */
  displayName?: string;
  /**
   * The API hosts the provider's access token may be sent to by `ctx.credentials.fetch`: exact
   * host names (with a port when not 443), https only; loopback over http only in development.
   * Default: none, so `fetch` refuses every destination until they are listed.
   */
  apiHosts?: readonly string[];
  /** The server's endpoints, for a provider without a discovery document; default: discovered from `issuer`. */
  metadata?: AuthorizationServerMetadata;
  /**
   * Refuse an authorization response without `iss` (RFC 9207), even when discovery does not
   * announce it; default false (then `iss` is required only when the metadata says it is sent,
   * and checked whenever it is present).
   */
  requireIss?: boolean;
  /** Scopes asked for in every grant, besides those a tool asks for, e.g. `offline_access`; default none. */
  scopes?: readonly string[];
  /** How scopes are joined in the authorization request (RFC 6749 § 3.3 says `" "`); default `" "`. */
  scopeDelimiter?: ScopeDelimiter;
  /** How the `scope` of a token response is split; default `" "`. */
  grantedScopeDelimiter?: ScopeDelimiter;
  /**
   * More query parameters of the authorization request, e.g. `{ access_type: "offline" }`. They
   * cannot replace the flow's own (`client_id`, `redirect_uri`, `response_type`, `scope`,
   * `state`, `code_challenge`, `code_challenge_method`), which are set after them.
   */
  authorizationParams?: Readonly<Record<string, string>>;
  /** How the client authenticates at the token endpoint when it has a secret (RFC 6749 § 2.3.1); default `client_secret_post`. */
  tokenEndpointAuthMethod?: "client_secret_post" | "client_secret_basic";
  /**
   * `token_type` values, besides `Bearer` and `DPoP` (compared without case), whose access token is
   * used as a bearer token, e.g. Slack's `bot`; default none (another type is refused).
   */
  bearerTokenTypes?: readonly string[];
  /**
   * The token endpoint answers a refused grant with HTTP 200 and an `error` member (GitHub, Slack),
   * not the 400 of RFC 6749 § 5.2: such an answer is then read as that error, so a refused refresh
   * token ends the credential rather than counting as an outage. Default false.
   */
  tokenErrorsWithStatus200?: boolean;
}

export interface OAuthServer {
  readonly as: oauth.AuthorizationServer;
  readonly client: oauth.Client;
  readonly auth: oauth.ClientAuth;
  /** Options for every `oauth4webapi` request to this server. */
  readonly options: { [oauth.allowInsecureRequests]?: boolean; [oauth.customFetch]?: typeof fetch };
  /** Options for reading its token responses (`processAuthorizationCodeResponse`, `processRefreshTokenResponse`). */
  readonly tokenResponse: { recognizedTokenTypes?: oauth.RecognizedTokenTypes };
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
    // Everything that shapes the server as found; the secret as a digest, so that the map holds
    // no secret and two clients that share an id but not a secret never share a client authentication.
    const key = JSON.stringify([
      config.issuer,
      config.clientId,
      config.clientSecret === undefined ? null : createHash("sha256").update(config.clientSecret).digest("base64url"),
      config.metadata ?? null,
      config.requireIss === true,
      config.tokenEndpointAuthMethod ?? null,
      config.bearerTokenTypes ?? [],
      config.tokenErrorsWithStatus200 === true,
    ]);
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
  const insecure = isLoopback(issuer) && issuer.protocol === "http:";
  let as: oauth.AuthorizationServer;
  if (config.metadata === undefined) {
    const options = insecure ? { [oauth.allowInsecureRequests]: true } : {};
    const response = await oauth.discoveryRequest(issuer, { ...options, algorithm: "oidc" });
    as = await oauth.processDiscoveryResponse(issuer, response);
  } else {
    as = statedMetadata(config.issuer, config.metadata, insecure);
  }
  if (config.requireIss === true) as = { ...as, authorization_response_iss_parameter_supported: true };
  const auth =
    config.clientSecret === undefined
      ? oauth.None()
      : config.tokenEndpointAuthMethod === "client_secret_basic"
        ? oauth.ClientSecretBasic(config.clientSecret)
        : oauth.ClientSecretPost(config.clientSecret);
  const options: OAuthServer["options"] = insecure ? { [oauth.allowInsecureRequests]: true } : {};
  if (config.tokenErrorsWithStatus200 === true) options[oauth.customFetch] = errorsAsStatus400;
  const types = config.bearerTokenTypes ?? [];
  const tokenResponse =
    types.length === 0
      ? {}
      : { recognizedTokenTypes: Object.fromEntries(types.map((type) => [type.toLowerCase(), () => {}])) };
  return { as, client: { client_id: config.clientId }, auth, options, tokenResponse };
}

/**
 * Metadata stated by the operator: each endpoint must be a URL, and plain http is accepted only
 * when the issuer itself is http on loopback and so is that endpoint.
 * @throws TypeError naming the field that is not an acceptable URL.
 */
function statedMetadata(
  issuer: string,
  metadata: AuthorizationServerMetadata,
  insecure: boolean,
): oauth.AuthorizationServer {
  const endpoints = ["authorization_endpoint", "token_endpoint", "revocation_endpoint", "userinfo_endpoint"] as const;
  for (const field of endpoints) {
    const value = metadata[field];
    if (value === undefined) continue;
    const url = URL.canParse(value) ? new URL(value) : undefined;
    const acceptable =
      url !== undefined && (url.protocol === "https:" || (insecure && url.protocol === "http:" && isLoopback(url)));
    if (!acceptable) throw new TypeError(`The ${field} of ${issuer} must be an https URL (http only on loopback)`);
  }
  return { ...metadata, issuer };
}

/**
 * Error codes that such a provider answers with HTTP 200 when it is down rather than refusing
 * (Slack's Web API: https://docs.slack.dev/apis/web-api/#responses), and the outage codes of
 * RFC 6749: these become a 503, so that a renewal keeps the credential.
 */
const OUTAGE_ERRORS = new Set([
  "internal_error",
  "fatal_error",
  "service_unavailable",
  "request_timeout",
  "ratelimited",
  "server_error",
  "temporarily_unavailable",
]);

/**
 * A fetch that turns a 200 JSON answer carrying a string `error` and no `access_token` into a
 * 400 with the same body, as RFC 6749 § 5.2 has it, or into a 503 when the error says the
 * provider is down (`OUTAGE_ERRORS`).
 */
const errorsAsStatus400: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  if (response.status !== 200 || !(response.headers.get("content-type") ?? "").includes("json")) return response;
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const refused =
    typeof body === "object" &&
    body !== null &&
    typeof (body as { error?: unknown }).error === "string" &&
    !("access_token" in body);
  const headers = { "content-type": response.headers.get("content-type") ?? "application/json" };
  if (!refused) return new Response(text, { status: 200, headers });
  const down = OUTAGE_ERRORS.has((body as { error: string }).error);
  return new Response(text, { status: down ? 503 : 400, headers });
};
