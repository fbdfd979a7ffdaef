/** Any OpenID Connect provider (or OAuth 2.0 server with RFC 8414 metadata), found by discovery at its issuer. */
import type { AuthorizationServerConfig } from "../oauth-server.js";
import { configOf, type PresetOptions, type ProviderFacts } from "./facts.js";

/** The facts of a generic provider at `issuer`: what the standards say, the rest read from its discovery document. */
export function oidcFacts(issuer = "{issuer}"): ProviderFacts {
  return {
    name: "OpenID Connect",
    endpoints: {
      value: { discovery: true, issuer },
      source: "https://openid.net/specs/openid-connect-discovery-1_0.html",
    },
    scopes: {
      value: { request: " ", granted: " " },
      source: "https://www.rfc-editor.org/rfc/rfc6749#section-3.3",
    },
    iss: {
      value: "as-discovered",
      source: "https://www.rfc-editor.org/rfc/rfc9207#section-3",
      note: "Required when the metadata has authorization_response_iss_parameter_supported: true.",
    },
    pkce: {
      value: "as-discovered",
      source: "https://www.rfc-editor.org/rfc/rfc8414#section-2",
      note: "code_challenge_methods_supported; an S256 challenge is sent in every case.",
    },
    refresh: {
      value: "when-asked",
      source: "https://openid.net/specs/openid-connect-core-1_0.html#OfflineAccess",
      note: "Ask for offline_access in scopes; servers differ, and any refresh token returned is kept.",
    },
    revocation: {
      value: { kind: "as-discovered" },
      source: "https://www.rfc-editor.org/rfc/rfc8414#section-2",
      note: "The metadata's revocation_endpoint (RFC 7009), when it has one.",
    },
    tokenEndpointAuth: {
      value: "client_secret_post",
      source: "https://www.rfc-editor.org/rfc/rfc6749#section-2.3.1",
      note: "Or client_secret_basic with tokenEndpointAuthMethod.",
    },
    apiHosts: {
      value: [],
      source: "https://www.rfc-editor.org/rfc/rfc6750#section-5.2",
      note: "None by default: a provider's tokens are for whichever resource servers it serves, which apiHosts must name.",
    },
  };
}

/**
 * A provider found by discovery at `options.issuer`; without `clientSecret` the client is public.
 * Its API hosts are what `options.apiHosts`
 * lists (default none, so no destination receives its token until they are listed).
 * @throws RangeError when an `apiHosts` entry is not a bare lowercase host name.
 */
export function oidc(
  options: Omit<PresetOptions, "clientSecret"> & {
    issuer: string;
    clientSecret?: string;
    tokenEndpointAuthMethod?: "client_secret_post" | "client_secret_basic";
  },
): AuthorizationServerConfig {
  const config = configOf(oidcFacts(options.issuer), options);
  // Without a name of its own, the connect pages name it by its key in `providers`.
  if (options.displayName === undefined) delete config.displayName;
  if (options.tokenEndpointAuthMethod !== undefined) config.tokenEndpointAuthMethod = options.tokenEndpointAuthMethod;
  return config;
}
