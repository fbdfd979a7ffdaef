/** Scope values as OAuth writes them (RFC 6749 § 3.3): space-separated tokens of printable ASCII. */

const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

/**
 * Reads a `scope` claim (a space-separated string) or an `scp` claim (an array, as some servers
 * issue it). Anything that is not a well-formed scope token is dropped, so a hostile value
 * cannot break the `WWW-Authenticate` header it may be echoed into.
 */
export function parseScopes(value: unknown): string[] {
  const parts = typeof value === "string" ? value.split(" ") : Array.isArray(value) ? value : [];
  const scopes = parts.filter((part): part is string => typeof part === "string" && SCOPE_TOKEN.test(part));
  return [...new Set(scopes)];
}

/** The required scopes that `granted` lacks, in the order they were required. */
export function missingScopes(granted: readonly string[], required: readonly string[]): string[] {
  return required.filter((scope) => !granted.includes(scope));
}

/**
 * The scope set to challenge with when scopes are missing: what the token already has plus what
 * is required, so a client that re-authorizes with it keeps its earlier permissions
 * (spec 2025-11-25: basic/authorization § Runtime Insufficient Scope Errors, recommended approach).
 */
export function challengeScopes(granted: readonly string[], required: readonly string[]): string[] {
  return [...new Set([...granted, ...required])];
}

/** Throws a TypeError for a configured scope that OAuth could not carry. */
export function assertScopes(scopes: readonly string[], option: string): void {
  const bad = scopes.find((scope) => !SCOPE_TOKEN.test(scope));
  if (bad !== undefined) throw new TypeError(`${option}: "${bad}" is not a valid OAuth scope`);
}
