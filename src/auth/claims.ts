/** Turns verified token claims (a JWT payload or an introspection response) into `AuthInfo`. */
import type { AuthInfo } from "../model/identity.js";
import { parseScopes } from "./scopes.js";

/**
 * `issuer` and `subject` come from `iss` and `sub`; `scopes` from `scope` (or `scp`); `clientId`
 * from `client_id` (RFC 9068, RFC 7662) or `azp`; `expiresAt` from `exp` (seconds since the
 * epoch). Every claim stays available as `extra.claims`.
 */
export function authInfoFromClaims(token: string, claims: Record<string, unknown>, fallbackIssuer: string): AuthInfo {
  const info: AuthInfo = {
    token,
    issuer: typeof claims.iss === "string" ? claims.iss : fallbackIssuer,
    scopes: parseScopes(claims.scope ?? claims.scp),
    extra: { claims },
  };
  if (typeof claims.sub === "string" && claims.sub !== "") info.subject = claims.sub;
  if (typeof claims.exp === "number") info.expiresAt = claims.exp;
  const clientId = typeof claims.client_id === "string" ? claims.client_id : claims.azp;
  if (typeof clientId === "string") info.clientId = clientId;
  return info;
}
