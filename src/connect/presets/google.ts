/** Google (accounts.google.com) as an authorization server, found by OpenID Connect discovery. */
import type { AuthorizationServerConfig } from "../oauth-server.js";
import { configOf, type PresetOptions, type ProviderFacts } from "./facts.js";

const WEB_SERVER = "https://developers.google.com/identity/protocols/oauth2/web-server";

export const googleFacts: ProviderFacts = {
  name: "Google",
  endpoints: {
    value: { discovery: true, issuer: "https://accounts.google.com" },
    source: "https://developers.google.com/identity/openid-connect/openid-connect#discovery",
  },
  scopes: { value: { request: " ", granted: " " }, source: WEB_SERVER, note: "Space-delimited, both ways." },
  iss: {
    value: "not-documented",
    source: WEB_SERVER,
    note: "Not required; an iss that is present must be https://accounts.google.com.",
  },
  pkce: { value: "S256", source: WEB_SERVER },
  refresh: {
    value: "when-asked",
    source: `${WEB_SERVER}#offline`,
    note: "Only with access_type=offline; prompt=consent makes Google issue one again when the user already consented.",
  },
  revocation: {
    value: { kind: "as-discovered" },
    source: `${WEB_SERVER}#tokenrevoke`,
    note: "RFC 7009-style POST https://oauth2.googleapis.com/revoke with token=, which discovery names as revocation_endpoint.",
  },
  tokenEndpointAuth: { value: "client_secret_post", source: `${WEB_SERVER}#exchange-authorization-code` },
  apiHosts: {
    value: ["www.googleapis.com", "gmail.googleapis.com", "sheets.googleapis.com", "people.googleapis.com"],
    source: "https://developers.google.com/workspace/gmail/api/reference/rest",
    note: "Drive and Calendar are served at www.googleapis.com; other Google APIs have hosts of their own, which apiHosts can list.",
  },
};

/**
 * Google's authorization server (a "Web application" OAuth client). It asks for
 * `access_type=offline` and `prompt=consent`, without which Google sends no refresh token
 * (see `googleFacts.refresh`).
 * @throws RangeError when an `apiHosts` entry is not a bare lowercase host name.
 */
export function google(options: PresetOptions): AuthorizationServerConfig {
  return configOf(googleFacts, options, { authorizationParams: { access_type: "offline", prompt: "consent" } });
}
