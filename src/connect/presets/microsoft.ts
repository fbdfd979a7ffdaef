/**
 * Microsoft Entra ID (the Microsoft identity platform, v2.0 endpoints) as an authorization server,
 * for one tenant or for the multi-tenant `common`, `organizations` and `consumers`.
 */
import type { AuthorizationServerConfig } from "../oauth-server.js";
import { configOf, type PresetOptions, type ProviderFacts } from "./facts.js";

const AUTH_CODE = "https://learn.microsoft.com/en-us/entra/identity-platform/v2-oauth2-auth-code-flow";
const LOGIN = "https://login.microsoftonline.com";

/** The facts of Entra for `tenant` (a tenant ID, a verified domain, or `common`, `organizations`, `consumers`). */
export function microsoftFacts(tenant = "{tenant}"): ProviderFacts {
  return {
    name: "Microsoft",
    endpoints: {
      value: {
        discovery: false,
        issuer: `${LOGIN}/${tenant}/v2.0`,
        authorization: `${LOGIN}/${tenant}/oauth2/v2.0/authorize`,
        token: `${LOGIN}/${tenant}/oauth2/v2.0/token`,
        userinfo: "https://graph.microsoft.com/oidc/userinfo",
      },
      source: AUTH_CODE,
      note: "Stated rather than discovered: for the multi-tenant names the discovery document's issuer is a {tenantid} template no issuer can equal.",
    },
    scopes: { value: { request: " ", granted: " " }, source: AUTH_CODE, note: "Space-delimited, both ways." },
    iss: { value: "not-documented", source: AUTH_CODE, note: "The documented response has code and state." },
    pkce: { value: "S256", source: AUTH_CODE },
    refresh: {
      value: "when-asked",
      source: "https://learn.microsoft.com/en-us/entra/identity-platform/refresh-tokens",
      note: "With the offline_access scope, which the preset asks for; refresh tokens rotate.",
    },
    revocation: {
      value: { kind: "none" },
      source: "https://learn.microsoft.com/en-us/graph/api/user-revokesigninsessions",
      note: "No per-grant revocation endpoint; revokeSignInSessions ends every session of the user, which a disconnect must not do.",
    },
    tokenEndpointAuth: { value: "client_secret_post", source: AUTH_CODE },
    apiHosts: { value: ["graph.microsoft.com"], source: "https://learn.microsoft.com/en-us/graph/use-the-api" },
  };
}

const TENANT = /^[A-Za-z0-9](?:[A-Za-z0-9.-]{0,254})$/;

/**
 * Entra's authorization server for `options.tenant`. It asks for `offline_access` in every grant.
 * With a multi-tenant name, an ID token names the user's own tenant as its issuer and is refused,
 * so ask for Graph scopes (e.g. `User.Read`), not `openid`, or name the tenant by its ID.
 * @throws RangeError when `tenant` is not a tenant ID, domain or one of the multi-tenant names, or
 *   an `apiHosts` entry is not a bare lowercase host name.
 */
export function microsoft(options: PresetOptions & { tenant: string }): AuthorizationServerConfig {
  if (!TENANT.test(options.tenant)) {
    throw new RangeError(
      `Entra tenant ${JSON.stringify(options.tenant)} must be a tenant ID, a domain, or common, organizations or consumers`,
    );
  }
  return configOf(microsoftFacts(options.tenant), options, { scopes: ["offline_access"] });
}
