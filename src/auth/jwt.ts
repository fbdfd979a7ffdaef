/**
 * JWT access tokens (RFC 9068) checked locally with `jose`: the signature against the issuer's
 * key set, then `iss`, `exp` (required), `nbf` and `aud` (this resource, RFC 8707 § 2).
 */
import {
  createLocalJWKSet,
  createRemoteJWKSet,
  customFetch,
  errors,
  type JSONWebKeySet,
  type JWTVerifyGetKey,
  jwtVerify,
} from "jose";
import type { AuthInfo } from "../model/identity.js";
import { authInfoFromClaims } from "./claims.js";
import { discoverJwksUri } from "./discovery.js";
import { AuthorizationServerUnavailableError, BearerTokenError } from "./errors.js";
import { audienceMatches } from "./resource.js";

export interface JwtCheck {
  issuer: string;
  audience: readonly string[];
  algorithms: string[] | undefined;
  clockToleranceSec: number;
  /** ms since the epoch. */
  now: () => number;
}

/** Where the verification keys come from: a key set in hand, a `jwks_uri`, or the issuer's metadata. */
export function keyResolver(
  source: { jwks?: JSONWebKeySet; jwksUri?: string; issuer: string },
  fetchFn: typeof fetch,
  timeoutMs: number,
): JWTVerifyGetKey {
  if (source.jwks !== undefined) return createLocalJWKSet(source.jwks);
  // jose caches the remote set (10 minutes) and refetches it at most every 30 s for an unknown `kid`.
  const remote = (uri: string) =>
    createRemoteJWKSet(new URL(uri), {
      timeoutDuration: timeoutMs,
      [customFetch]: (url, init) =>
        fetchFn(url, init).catch((cause: unknown) => {
          throw new AuthorizationServerUnavailableError("The authorization server's key set did not answer", { cause });
        }),
    });
  if (source.jwksUri !== undefined) return remote(source.jwksUri);
  let pending: Promise<JWTVerifyGetKey> | undefined;
  return async (header, token) => {
    pending ??= discoverJwksUri(source.issuer, fetchFn, timeoutMs).then(remote);
    // A failed discovery is forgotten, so the next request tries again.
    const keys = await pending.catch((error: unknown) => {
      pending = undefined;
      throw error;
    });
    return keys(header, token);
  };
}

/**
 * Verifies a compact JWS access token.
 * @throws BearerTokenError `invalid_token` for any defect of the token.
 * @throws AuthorizationServerUnavailableError when the key set could not be fetched.
 */
export async function verifyJwt(token: string, keys: JWTVerifyGetKey, check: JwtCheck): Promise<AuthInfo> {
  let payload: Record<string, unknown>;
  try {
    const options = {
      issuer: check.issuer,
      clockTolerance: check.clockToleranceSec,
      currentDate: new Date(check.now()),
      requiredClaims: ["exp", "aud"],
      ...(check.algorithms === undefined ? {} : { algorithms: check.algorithms }),
    };
    ({ payload } = await jwtVerify(token, keys, options));
  } catch (error) {
    throw translate(error);
  }
  if (!audienceMatches(payload.aud, check.audience)) {
    throw new BearerTokenError("invalid_token", "The access token was issued for another resource");
  }
  return authInfoFromClaims(token, payload, check.issuer);
}

/**
 * jose's error, told in words that never repeat the token or its claims. Anything that is not
 * about the token (a failing key set, a bug) keeps its own type, so it is not blamed on the client.
 */
function translate(error: unknown): unknown {
  if (!(error instanceof errors.JOSEError)) return error;
  if (error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid || error.code === "ERR_JOSE_GENERIC") {
    // ERR_JOSE_GENERIC: the key set answered with another status than 200, or not with JSON.
    return new AuthorizationServerUnavailableError("The authorization server's key set could not be fetched", {
      cause: error,
    });
  }
  if (error instanceof errors.JWTExpired) return invalid("The access token has expired");
  if (error instanceof errors.JWTClaimValidationFailed) return invalid(claimProblem(error.claim, error.reason));
  if (error instanceof errors.JWSSignatureVerificationFailed) {
    return invalid("The access token's signature does not verify");
  }
  if (error instanceof errors.JWKSNoMatchingKey) return invalid("The access token is signed with an unknown key");
  if (error instanceof errors.JOSEAlgNotAllowed || error instanceof errors.JOSENotSupported) {
    return invalid("The access token is signed with an algorithm this resource does not accept");
  }
  if (error instanceof errors.JWSInvalid || error instanceof errors.JWTInvalid) {
    return invalid("The access token is not a well-formed JWT");
  }
  return invalid("The access token could not be verified");
}

function claimProblem(claim: string, reason: string): string {
  if (reason === "missing") return `The access token has no "${claim}" claim`;
  if (claim === "iss") return "The access token was issued by another authorization server";
  if (claim === "nbf") return "The access token is not valid yet";
  return `The access token's "${claim}" claim is invalid`;
}

function invalid(message: string): BearerTokenError {
  return new BearerTokenError("invalid_token", message);
}
