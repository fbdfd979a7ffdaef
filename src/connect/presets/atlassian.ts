/**
 * Atlassian Cloud (Jira, Confluence: OAuth 2.0 "3LO" apps) as an authorization server. Atlassian
 * documents no metadata document, so its endpoints are stated.
 */
import type { AuthorizationServerConfig } from "../oauth-server.js";
import { configOf, type PresetOptions, type ProviderFacts } from "./facts.js";

const THREE_LO = "https://developer.atlassian.com/cloud/jira/platform/oauth-2-3lo-apps/";

export const atlassianFacts: ProviderFacts = {
  name: "Atlassian",
  endpoints: {
    value: {
      discovery: false,
      issuer: "https://auth.atlassian.com",
      authorization: "https://auth.atlassian.com/authorize",
      token: "https://auth.atlassian.com/oauth/token",
      userinfo: "https://api.atlassian.com/me",
    },
    source: THREE_LO,
  },
  scopes: { value: { request: " ", granted: " " }, source: THREE_LO, note: "Space-delimited, both ways." },
  iss: { value: "not-sent", source: THREE_LO, note: "The redirect carries code and state only." },
  pkce: { value: "not-documented", source: THREE_LO },
  refresh: {
    value: "when-asked",
    source: `${THREE_LO}#implementing-a-refresh-token-flow`,
    note: "With the offline_access scope, which the preset asks for; refresh tokens rotate.",
  },
  revocation: {
    value: { kind: "none" },
    source: THREE_LO,
    note: "No revocation endpoint is documented; a user takes access back in their Atlassian account's connected apps.",
  },
  tokenEndpointAuth: {
    value: "client_secret_post",
    source: THREE_LO,
    note: "The page shows a JSON body; the form encoding RFC 6749 § 4.1.3 requires is what is sent, and is not documented either way.",
  },
  apiHosts: {
    value: ["api.atlassian.com"],
    source: THREE_LO,
    note: "3LO tokens work only through https://api.atlassian.com/ex/{product}/{cloudid}/..., not a site's own domain.",
  },
};

/**
 * Atlassian's authorization server for a 3LO app. It sends `audience=api.atlassian.com` and
 * `prompt=consent`, which the authorization URL requires, and asks for `offline_access`.
 * @throws RangeError when an `apiHosts` entry is not a bare lowercase host name.
 */
export function atlassian(options: PresetOptions): AuthorizationServerConfig {
  return configOf(atlassianFacts, options, {
    authorizationParams: { audience: "api.atlassian.com", prompt: "consent" },
    scopes: ["offline_access"],
  });
}
