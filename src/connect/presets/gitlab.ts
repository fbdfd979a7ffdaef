/** GitLab (gitlab.com or a self-managed instance) as an authorization server, found by OpenID Connect discovery. */
import type { AuthorizationServerConfig } from "../oauth-server.js";
import { configOf, type PresetOptions, type ProviderFacts } from "./facts.js";

const OAUTH2 = "https://docs.gitlab.com/api/oauth2/";

/** The facts of the GitLab instance at `baseUrl` (default gitlab.com). */
export function gitlabFacts(baseUrl = "https://gitlab.com"): ProviderFacts {
  const base = baseUrl.replace(/\/+$/, "");
  return {
    name: "GitLab",
    endpoints: {
      value: { discovery: true, issuer: base },
      source: "https://docs.gitlab.com/integration/openid_connect_provider/",
    },
    scopes: { value: { request: " ", granted: " " }, source: OAUTH2, note: "Space-delimited, both ways." },
    iss: { value: "not-documented", source: OAUTH2, note: "The documented redirect has code and state." },
    pkce: { value: "S256", source: OAUTH2 },
    refresh: {
      value: "always",
      source: OAUTH2,
      note: "Access tokens expire after two hours; each refresh returns a new refresh token.",
    },
    revocation: {
      value: { kind: "as-discovered" },
      source: OAUTH2,
      note: `RFC 7009 at ${base}/oauth/revoke, which discovery names as revocation_endpoint.`,
    },
    tokenEndpointAuth: { value: "client_secret_post", source: OAUTH2 },
    apiHosts: { value: [new URL(base).host], source: "https://docs.gitlab.com/api/rest/" },
  };
}

/**
 * GitLab's authorization server: gitlab.com, or the self-managed instance at `options.baseUrl`
 * (its REST API then lives on the same host, which becomes the default `apiHosts`).
 * @throws TypeError when `baseUrl` is not a URL; RangeError when an `apiHosts` entry is not a
 *   bare lowercase host name.
 */
export function gitlab(options: PresetOptions & { baseUrl?: string }): AuthorizationServerConfig {
  return configOf(gitlabFacts(options.baseUrl), options);
}
