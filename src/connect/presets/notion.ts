/**
 * Notion (a public connection) as an authorization server. Notion publishes no metadata
 * document, so its endpoints are stated.
 */
import type { AuthorizationServerConfig } from "../oauth-server.js";
import { configOf, type PresetOptions, type ProviderFacts } from "./facts.js";

const AUTHORIZATION = "https://developers.notion.com/docs/authorization";

export const notionFacts: ProviderFacts = {
  name: "Notion",
  endpoints: {
    value: {
      discovery: false,
      issuer: "https://api.notion.com",
      authorization: "https://api.notion.com/v1/oauth/authorize",
      token: "https://api.notion.com/v1/oauth/token",
      userinfo: null,
    },
    source: AUTHORIZATION,
    note: "The token response itself names the workspace and its owner.",
  },
  scopes: {
    value: { request: "none", granted: "none" },
    source: AUTHORIZATION,
    note: "No scopes: capabilities are chosen in the connection's settings, and the user picks the pages it may see.",
  },
  iss: { value: "not-sent", source: AUTHORIZATION, note: "The redirect carries code and state only." },
  pkce: { value: "not-documented", source: AUTHORIZATION },
  refresh: {
    value: "always",
    source: "https://developers.notion.com/reference/refresh-a-token",
    note: "Each refresh returns a new access token and a new refresh token.",
  },
  revocation: {
    value: {
      kind: "provider-specific",
      how: "POST https://api.notion.com/v1/oauth/revoke with HTTP Basic client_id:client_secret and a JSON body {token}",
    },
    source: "https://developers.notion.com/reference/revoke-token",
    note: "Not RFC 7009 (a JSON body, a Notion-Version header): no revocation_endpoint is configured.",
  },
  tokenEndpointAuth: {
    value: "client_secret_basic",
    source: "https://developers.notion.com/reference/create-a-token",
    note: "The page shows a JSON body; the form encoding RFC 6749 § 4.1.3 requires is what is sent, and is not documented either way.",
  },
  apiHosts: { value: ["api.notion.com"], source: "https://developers.notion.com/reference/intro" },
};

/**
 * Notion's authorization server for a public connection. It sends `owner=user`, which the
 * authorization URL requires. A tool's `scopes` are sent as asked but Notion has none, so ask for none.
 * @throws RangeError when an `apiHosts` entry is not a bare lowercase host name.
 */
export function notion(options: PresetOptions): AuthorizationServerConfig {
  return configOf(notionFacts, options, { authorizationParams: { owner: "user" } });
}
