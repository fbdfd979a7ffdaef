/**
 * Slack (OAuth v2, "Add to Slack") as an authorization server: the bot token of an app
 * installed in a workspace. Slack publishes no RFC 8414 metadata for it, so its endpoints are stated.
 */
import type { AuthorizationServerConfig } from "../oauth-server.js";
import { configOf, type PresetOptions, type ProviderFacts } from "./facts.js";

const INSTALLING = "https://docs.slack.dev/authentication/installing-with-oauth";
const ACCESS = "https://docs.slack.dev/reference/methods/oauth.v2.access";

export const slackFacts: ProviderFacts = {
  name: "Slack",
  endpoints: {
    value: {
      discovery: false,
      issuer: "https://slack.com",
      authorization: "https://slack.com/oauth/v2/authorize",
      token: "https://slack.com/api/oauth.v2.access",
      userinfo: null,
    },
    source: INSTALLING,
    note: "The OpenID Connect endpoints of Sign in with Slack are a different flow, for identity only.",
  },
  scopes: {
    value: { request: ",", granted: "," },
    source: INSTALLING,
    note: "Bot scopes go comma-separated in scope (user scopes would go in user_scope); the response's scope is comma-separated too.",
  },
  iss: { value: "not-sent", source: INSTALLING, note: "The redirect carries code and state only." },
  pkce: {
    value: "not-documented",
    source: "https://docs.slack.dev/changelog/2026/03/30/pkce",
    note: "Documented for apps that turn PKCE on, which makes them public clients; for a confidential app the parameters are not documented.",
  },
  refresh: {
    value: "app-setting",
    source: "https://docs.slack.dev/authentication/using-token-rotation",
    note: "Only with token rotation turned on for the app (tokens then expire after 12 hours).",
  },
  revocation: {
    value: { kind: "provider-specific", how: "POST https://slack.com/api/auth.revoke with the token itself as bearer" },
    source: "https://docs.slack.dev/reference/methods/auth.revoke",
    note: "Not RFC 7009: no revocation_endpoint is configured, so a disconnect deletes the credential locally.",
  },
  tokenEndpointAuth: {
    value: "client_secret_post",
    source: ACCESS,
    note: "client_id and client_secret as POST parameters (HTTP Basic is accepted too).",
  },
  apiHosts: { value: ["slack.com"], source: "https://docs.slack.dev/apis/web-api/" },
};

/**
 * Slack's OAuth v2 for a workspace app's bot token: the top-level `access_token` of
 * `oauth.v2.access`, whose `token_type` is `bot`. A user token (under `authed_user`, asked for
 * with `user_scope`) is not read: tools act as the app, within what the workspace installed it for.
 * Slack answers every method, a refused code or refresh token included, with HTTP 200 and
 * `ok: false, error` (https://docs.slack.dev/apis/web-api/#responses), read here as that error.
 * @throws RangeError when an `apiHosts` entry is not a bare lowercase host name.
 */
export function slack(options: PresetOptions): AuthorizationServerConfig {
  return configOf(slackFacts, options, { bearerTokenTypes: ["bot"], tokenErrorsWithStatus200: true });
}
