/**
 * The local connect pages answer only to this machine's loopback names. A page on evil.example
 * whose DNS name the attacker points at 127.0.0.1 (DNS rebinding) reaches the port with
 * `Host: evil.example`, and is refused before anything else is looked at.
 */

const LOOPBACK_NAMES = new Set(["127.0.0.1", "[::1]", "localhost"]);

/**
 * Whether `host` (a `Host` header, or a URL's `host`) is `127.0.0.1`, `[::1]` or `localhost`
 * (any case) with `port` (80 when it names none). Any other name, a trailing dot, another port or
 * user info is refused.
 */
export function isLoopbackHost(host: string | null | undefined, port: number): boolean {
  if (host === null || host === undefined) return false;
  const match = /^(\[::1\]|[^:[\]@/]+)(?::(\d{1,5}))?$/.exec(host.toLowerCase());
  if (match === null) return false;
  const given = match[2] === undefined ? 80 : Number(match[2]);
  return LOOPBACK_NAMES.has(match[1] ?? "") && given === port;
}

/** The host a request names: its `Host` header, or its URL's host where a runtime sends none. */
export function requestHost(request: Request): string {
  return request.headers.get("host") ?? new URL(request.url).host;
}
