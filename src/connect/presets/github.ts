/**
 * GitHub (github.com) as an authorization server: an OAuth app, or a GitHub App acting for a user.
 * GitHub publishes no RFC 8414 metadata, so its endpoints are stated.
 */
import type { AuthorizationServerConfig } from "../oauth-server.js";
import { configOf, type PresetOptions, type ProviderFacts } from "./facts.js";

const AUTHORIZING = "https://docs.github.com/en/apps/oauth-apps/building-oauth-apps/authorizing-oauth-apps";

export const githubFacts: ProviderFacts = {
  name: "GitHub",
  endpoints: {
    value: {
      discovery: false,
      issuer: "https://github.com",
      authorization: "https://github.com/login/oauth/authorize",
      token: "https://github.com/login/oauth/access_token",
      userinfo: null,
    },
    source: AUTHORIZING,
    note: "No discovery document and no userinfo endpoint; the account is GET https://api.github.com/user.",
  },
  scopes: {
    value: { request: " ", granted: "," },
    source: AUTHORIZING,
    note: "The request's scope is space-delimited; the token response's scope is comma-separated (repo,gist).",
  },
  iss: { value: "not-sent", source: AUTHORIZING, note: "The redirect carries code and state only." },
  pkce: {
    value: "S256",
    source: "https://github.blog/changelog/2025-07-14-pkce-support-for-oauth-and-github-app-authentication",
  },
  refresh: {
    value: "app-setting",
    source:
      "https://docs.github.com/en/apps/creating-github-apps/authenticating-with-a-github-app/refreshing-user-access-tokens",
    note: "OAuth apps' tokens do not expire and come without a refresh token; GitHub Apps with expiring user tokens get expires_in and a refresh token.",
  },
  revocation: {
    value: {
      kind: "provider-specific",
      how: "DELETE https://api.github.com/applications/{client_id}/grant with HTTP Basic client_id:client_secret and a JSON body {access_token}",
    },
    source: "https://docs.github.com/en/rest/apps/oauth-applications#delete-an-app-authorization",
    note: "Not RFC 7009: no revocation_endpoint is configured, so a disconnect deletes the credential locally.",
  },
  tokenEndpointAuth: {
    value: "client_secret_post",
    source: AUTHORIZING,
    note: "client_id and client_secret are parameters of the token request.",
  },
  apiHosts: {
    value: ["api.github.com"],
    source: "https://docs.github.com/en/rest/using-the-rest-api/getting-started-with-the-rest-api",
  },
};

/**
 * GitHub's authorization server for an OAuth app or a GitHub App (register
 * `<connect base>/connect/callback/<provider>` as its callback URL). GitHub answers a refused
 * code or refresh token with HTTP 200 and an `error` member
 * (https://docs.github.com/en/apps/oauth-apps/maintaining-oauth-apps/troubleshooting-oauth-app-access-token-request-errors),
 * read here as the error it is; its `token_type` is `bearer`, lowercase, which is accepted as it is.
 * @throws RangeError when an `apiHosts` entry is not a bare lowercase host name.
 */
export function github(options: PresetOptions): AuthorizationServerConfig {
  return configOf(githubFacts, options, { tokenErrorsWithStatus200: true });
}
