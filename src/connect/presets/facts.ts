/**
 * What a provider preset states about its authorization server, each fact with the public page
 * it was read from, and how a preset turns those facts into an `AuthorizationServerConfig`: the
 * connect flow reads only the config, so a preset describes and the flow stays generic.
 */
import type { AuthorizationServerConfig, AuthorizationServerMetadata, ScopeDelimiter } from "../oauth-server.js";

/** One stated fact: its value, the page (https URL) it comes from, and what the value leaves out. */
export interface Fact<T> {
  readonly value: T;
  readonly source: string;
  readonly note?: string;
}

/** Where the endpoints come from: discovery at an issuer, or stated because the provider publishes no metadata document. */
export type EndpointsFact =
  | { readonly discovery: true; readonly issuer: string }
  | {
      readonly discovery: false;
      /** The identifier an `iss` in its answers would have to equal. */
      readonly issuer: string;
      readonly authorization: string;
      readonly token: string;
      /** Where the account's identity is read, when there is such an endpoint; `null` when none. */
      readonly userinfo: string | null;
    };

/** How scopes are written in the authorization request and read back from the token response; `none` when the provider has no scopes. */
export interface ScopeSyntax {
  readonly request: ScopeDelimiter | "none";
  readonly granted: ScopeDelimiter | "none";
}

/**
 * Whether the authorization response carries `iss` (RFC 9207): `sent` (then one without it is
 * refused), `not-sent` (the documented response has only `code` and `state`), `not-documented`,
 * or `as-discovered` (the discovery document's `authorization_response_iss_parameter_supported`).
 * Only `sent` makes `iss` required; it is checked whenever present.
 */
export type IssFact = "sent" | "not-sent" | "not-documented" | "as-discovered";

/** PKCE (RFC 7636) support; the flow sends an S256 challenge in every case. */
export type PkceFact = "S256" | "not-documented" | "as-discovered";

/**
 * Refresh tokens: `always`; `when-asked` (a scope such as `offline_access` or a parameter such as
 * `access_type=offline`, which the preset sends); `app-setting` (only when the app is registered
 * with expiring tokens); `none`. Without a refresh token an expired credential is forgotten and
 * the user is handed off again.
 */
export type RefreshFact = "always" | "when-asked" | "app-setting" | "none";

/**
 * Revocation upstream: an RFC 7009 endpoint; `provider-specific` (an API of the provider's own,
 * not RFC 7009, described in `how`); `none`; or `as-discovered` (the metadata's `revocation_endpoint`).
 */
export type RevocationFact =
  | { readonly kind: "rfc7009"; readonly endpoint: string }
  | { readonly kind: "provider-specific"; readonly how: string }
  | { readonly kind: "none" }
  | { readonly kind: "as-discovered" };

/** The facts of one provider; every one is stated, with its source. */
export interface ProviderFacts {
  /** The provider's name as people know it, e.g. `GitHub`. */
  readonly name: string;
  readonly endpoints: Fact<EndpointsFact>;
  readonly scopes: Fact<ScopeSyntax>;
  readonly iss: Fact<IssFact>;
  readonly pkce: Fact<PkceFact>;
  readonly refresh: Fact<RefreshFact>;
  readonly revocation: Fact<RevocationFact>;
  readonly tokenEndpointAuth: Fact<"client_secret_post" | "client_secret_basic">;
  /** Exact host names (lowercase, no scheme, port or path) its access tokens are meant for; operators may add a port. */
  readonly apiHosts: Fact<readonly string[]>;
}

/** What every preset takes. */
export interface PresetOptions {
  clientId: string;
  clientSecret: string;
  /** Scopes asked for in every grant, besides the preset's own (e.g. `offline_access`) and those a tool asks for. */
  scopes?: readonly string[];
  /** The hosts its tokens may be sent to, instead of the preset's `apiHosts`: exact lowercase host names. */
  apiHosts?: readonly string[];
  /** How the connect pages name the provider; default the preset's `name`. */
  displayName?: string;
}

/** A bare lowercase host name (no scheme, path or upper case), with a port only when it is not 443. */
const HOST =
  /^(?=[^:]{1,253}(?::|$))[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*(?::(?!443$)[1-9]\d{0,4})?$/;

/** Whether `host` is a bare lowercase host name, with a port when not 443, as `apiHosts` lists them. */
export function isBareHost(host: string): boolean {
  return HOST.test(host) && Number(host.split(":")[1] ?? 1) <= 65_535;
}

/** The provider-specific parts of a config that no fact names: wire details each preset documents where it sets them. */
export type Wire = Pick<
  AuthorizationServerConfig,
  "authorizationParams" | "bearerTokenTypes" | "tokenErrorsWithStatus200" | "scopes"
>;

/**
 * The config the flow reads, from a preset's facts, the operator's options and its wire details.
 * @throws RangeError when an `apiHosts` entry is not a bare lowercase host name.
 */
export function configOf(
  facts: ProviderFacts,
  options: Omit<PresetOptions, "clientSecret"> & { clientSecret?: string | undefined },
  wire: Wire = {},
): AuthorizationServerConfig {
  const apiHosts = options.apiHosts ?? facts.apiHosts.value;
  for (const host of apiHosts) {
    if (!isBareHost(host)) {
      throw new RangeError(
        `${facts.name} API host ${JSON.stringify(host)} must be a bare lowercase host name, e.g. ${facts.apiHosts.value[0] ?? "api.example.com"}`,
      );
    }
  }
  const endpoints = facts.endpoints.value;
  const config: AuthorizationServerConfig = {
    issuer: endpoints.issuer,
    clientId: options.clientId,
    displayName: options.displayName ?? facts.name,
    apiHosts: [...apiHosts],
    tokenEndpointAuthMethod: facts.tokenEndpointAuth.value,
  };
  if (options.clientSecret !== undefined) config.clientSecret = options.clientSecret;
  if (!endpoints.discovery) {
    const metadata: AuthorizationServerMetadata = {
      authorization_endpoint: endpoints.authorization,
      token_endpoint: endpoints.token,
      authorization_response_iss_parameter_supported: facts.iss.value === "sent",
    };
    if (endpoints.userinfo !== null) metadata.userinfo_endpoint = endpoints.userinfo;
    const revocation = facts.revocation.value;
    if (revocation.kind === "rfc7009") metadata.revocation_endpoint = revocation.endpoint;
    config.metadata = metadata;
  }
  if (facts.iss.value === "sent") config.requireIss = true;
  const { request, granted } = facts.scopes.value;
  if (request !== "none") config.scopeDelimiter = request;
  if (granted !== "none") config.grantedScopeDelimiter = granted;
  const scopes = [...new Set([...(wire.scopes ?? []), ...(options.scopes ?? [])])];
  if (scopes.length > 0) config.scopes = scopes;
  if (wire.authorizationParams !== undefined) config.authorizationParams = { ...wire.authorizationParams };
  if (wire.bearerTokenTypes !== undefined) config.bearerTokenTypes = [...wire.bearerTokenTypes];
  if (wire.tokenErrorsWithStatus200 === true) config.tokenErrorsWithStatus200 = true;
  return config;
}
