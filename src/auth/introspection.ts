/**
 * Opaque access tokens checked with the authorization server's introspection endpoint
 * (RFC 7662), authenticating as a confidential client with HTTP Basic (RFC 6749 § 2.3.1).
 */
import type { AuthInfo } from "../model/identity.js";
import { authInfoFromClaims } from "./claims.js";
import { AuthorizationServerUnavailableError, BearerTokenError } from "./errors.js";
import { audienceMatches } from "./resource.js";

export interface IntrospectionOptions {
  /** The authorization server's `introspection_endpoint`. */
  endpoint: string;
  /** This resource server's client credentials at the authorization server. */
  clientId: string;
  clientSecret: string;
}

export interface IntrospectionCheck {
  issuer: string;
  audience: readonly string[];
  clockToleranceSec: number;
  /** ms since the epoch. */
  now: () => number;
  fetch: typeof fetch;
  /** ms. */
  timeoutMs: number;
}

/**
 * Asks the endpoint about `token` and checks the answer: `active` must be true, `iss` (when
 * present) the configured issuer, `aud` must name this resource (a response without `aud`
 * cannot prove the token was meant for it), and `exp` / `nbf` must hold at `now`.
 * @throws BearerTokenError `invalid_token` when the token is not usable here.
 * @throws AuthorizationServerUnavailableError when the endpoint fails or answers nonsense.
 */
export async function introspect(
  token: string,
  options: IntrospectionOptions,
  check: IntrospectionCheck,
): Promise<AuthInfo> {
  const claims = await requestIntrospection(token, options, check);
  if (claims.active !== true) throw invalid("The access token is not active");
  if (claims.iss !== undefined && claims.iss !== check.issuer) {
    throw invalid("The access token was issued by another authorization server");
  }
  if (!audienceMatches(claims.aud, check.audience)) throw invalid("The access token was issued for another resource");
  const now = check.now() / 1000;
  if (typeof claims.exp === "number" && claims.exp <= now - check.clockToleranceSec) {
    throw invalid("The access token has expired");
  }
  if (typeof claims.nbf === "number" && claims.nbf > now + check.clockToleranceSec) {
    throw invalid("The access token is not valid yet");
  }
  return authInfoFromClaims(token, claims, check.issuer);
}

async function requestIntrospection(
  token: string,
  options: IntrospectionOptions,
  check: IntrospectionCheck,
): Promise<Record<string, unknown>> {
  const basic = btoa(`${formEncode(options.clientId)}:${formEncode(options.clientSecret)}`);
  let response: Response;
  try {
    response = await check.fetch(options.endpoint, {
      method: "POST",
      headers: {
        accept: "application/json",
        authorization: `Basic ${basic}`,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams({ token, token_type_hint: "access_token" }).toString(),
      redirect: "manual",
      signal: AbortSignal.timeout(check.timeoutMs),
    });
  } catch (cause) {
    throw new AuthorizationServerUnavailableError("The introspection endpoint did not answer", { cause });
  }
  if (response.status !== 200) {
    await response.body?.cancel();
    throw new AuthorizationServerUnavailableError(`The introspection endpoint answered ${response.status}`);
  }
  const body: unknown = await response.json().catch(() => undefined);
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new AuthorizationServerUnavailableError("The introspection endpoint did not answer with a JSON object");
  }
  return body as Record<string, unknown>;
}

/** `application/x-www-form-urlencoded` encoding, which RFC 6749 asks for inside Basic credentials. */
function formEncode(value: string): string {
  return new URLSearchParams([["", value]]).toString().slice(1);
}

function invalid(message: string): BearerTokenError {
  return new BearerTokenError("invalid_token", message);
}
