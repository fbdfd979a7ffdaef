/**
 * The resource server's token check (spec 2025-11-25: basic/authorization § Token Handling):
 * an access token is accepted only when its issuer is this resource's authorization server, its
 * audience is this resource (RFC 8707 § 2), it is within its lifetime and carries the scopes asked for.
 */
import type { JSONWebKeySet } from "jose";
import type { AuthInfo } from "../model/identity.js";
import { BearerTokenError } from "./errors.js";
import { type IntrospectionOptions, introspect } from "./introspection.js";
import { keyResolver, verifyJwt } from "./jwt.js";
import { assertResource } from "./resource.js";
import { assertScopes, challengeScopes, missingScopes } from "./scopes.js";

export interface BearerVerifierOptions {
  /** The authorization server's issuer identifier, compared exactly with `iss`. */
  issuer: string;
  /**
   * This resource's canonical URI (the `resource` of its protected resource metadata), or every
   * URI it is reachable at. A token must name one of them in `aud`; case of scheme and host, a
   * default port and an empty path do not matter.
   */
  audience: string | readonly string[];
  /** Where the issuer publishes its key set. Default: the `jwks_uri` of the issuer's metadata (RFC 8414). */
  jwksUri?: string;
  /** A key set in hand (tests, pinned keys); no HTTP request is made for keys. */
  jwks?: JSONWebKeySet;
  /** Accepted JWS algorithms, e.g. `["RS256", "ES256"]`. Default: whatever the issuer's key allows. */
  algorithms?: string[];
  /** Scopes every request needs; a token without them fails with `insufficient_scope`. */
  requiredScopes?: readonly string[];
  /** Seconds of clock skew allowed for `exp` and `nbf`. Default 5. */
  clockToleranceSec?: number;
  /**
   * Check tokens at the authorization server's introspection endpoint (RFC 7662). Tokens that are
   * not JWTs always go there; JWTs too unless `jwks` or `jwksUri` is given.
   */
  introspection?: IntrospectionOptions;
  /** ms to wait for the authorization server (key set, metadata, introspection). Default 5000. */
  timeoutMs?: number;
  /** Used for metadata, key set and introspection requests. Default: the global `fetch`. */
  fetch?: typeof fetch;
  /** ms since the epoch; default `Date.now`. */
  now?: () => number;
}

/** Checks bearer tokens for one resource. */
export interface BearerVerifier {
  /**
   * The caller's verified identity for `token`. `issuer` and `subject` identify the user (see
   * `userOf`); `scopes`, `clientId` and `expiresAt` (seconds since the epoch) come from the token.
   * @throws BearerTokenError `invalid_token` or `insufficient_scope`; its message never quotes the token.
   * @throws AuthorizationServerUnavailableError when the authorization server could not be asked.
   */
  verify(token: string): Promise<AuthInfo>;
  /** The scopes every token must carry (`requiredScopes`). */
  readonly requiredScopes: readonly string[];
}

const JWT_SHAPE = /^[\w-]+\.[\w-]+\.[\w-]+$/;

/**
 * A verifier for JWT access tokens (RFC 9068, signature checked against the issuer's key set,
 * cached) and, with `introspection`, opaque tokens (RFC 7662).
 * @throws TypeError for an `audience` that is not an absolute http(s) URL, a bad scope or tolerance.
 */
export function createBearerVerifier(options: BearerVerifierOptions): BearerVerifier {
  const audience = typeof options.audience === "string" ? [options.audience] : [...options.audience];
  if (audience.length === 0) throw new TypeError("audience must name at least one resource");
  for (const value of audience) assertResource(value, "audience");
  const requiredScopes = [...(options.requiredScopes ?? [])];
  assertScopes(requiredScopes, "requiredScopes");
  const clockToleranceSec = options.clockToleranceSec ?? 5;
  if (!(Number.isFinite(clockToleranceSec) && clockToleranceSec >= 0)) {
    throw new TypeError(`clockToleranceSec must be a non-negative number, got ${clockToleranceSec}`);
  }
  const fetchFn = options.fetch ?? ((input, init) => fetch(input, init));
  const timeoutMs = options.timeoutMs ?? 5000;
  const now = options.now ?? Date.now;
  const { issuer, introspection } = options;
  const localKeys = options.jwks !== undefined || options.jwksUri !== undefined || introspection === undefined;
  const keys = localKeys ? keyResolver(options, fetchFn, timeoutMs) : undefined;
  const algorithms = options.algorithms;

  const check = async (token: string): Promise<AuthInfo> => {
    if (keys !== undefined && JWT_SHAPE.test(token)) {
      return verifyJwt(token, keys, { issuer, audience, algorithms, clockToleranceSec, now });
    }
    if (introspection !== undefined) {
      return introspect(token, introspection, { issuer, audience, clockToleranceSec, now, fetch: fetchFn, timeoutMs });
    }
    throw new BearerTokenError("invalid_token", "The access token is not a well-formed JWT");
  };

  return {
    requiredScopes,
    async verify(token) {
      const info = await check(token);
      const granted = info.scopes ?? [];
      if (missingScopes(granted, requiredScopes).length > 0) {
        throw new BearerTokenError(
          "insufficient_scope",
          "The access token lacks a scope this resource requires",
          challengeScopes(granted, requiredScopes),
        );
      }
      return info;
    },
  };
}
