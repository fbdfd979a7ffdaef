/**
 * Resource identifiers (RFC 8707 § 2, RFC 9728 § 1.2): absolute URIs without a fragment. Two
 * spellings name the same resource when they differ only in the case of scheme and host, a
 * default port or an empty path (spec 2025-11-25: basic/authorization § Canonical Server URI).
 */

/** The canonical form of a resource URI; a value that is not a URL is kept as it is. */
export function canonicalResource(value: string): string {
  if (!URL.canParse(value)) return value;
  const url = new URL(value);
  url.hash = "";
  const path = url.pathname === "/" ? "" : url.pathname;
  return `${url.protocol}//${url.host}${path}${url.search}`;
}

/** Whether an `aud` value (a string or an array) names one of the `expected` resources. */
export function audienceMatches(aud: unknown, expected: readonly string[]): boolean {
  const values = typeof aud === "string" ? [aud] : Array.isArray(aud) ? aud : [];
  const wanted = new Set(expected.map(canonicalResource));
  return values.some((value) => typeof value === "string" && wanted.has(canonicalResource(value)));
}

/**
 * Checks a configured resource identifier.
 * @throws TypeError when it is not an absolute http(s) URL or carries a fragment.
 */
export function assertResource(value: string, option: string): void {
  if (!URL.canParse(value)) throw new TypeError(`${option} must be an absolute URL, got "${value}"`);
  const url = new URL(value);
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new TypeError(`${option} must be an http(s) URL, got "${value}"`);
  }
  if (value.includes("#")) throw new TypeError(`${option} must not contain a fragment, got "${value}"`);
}
