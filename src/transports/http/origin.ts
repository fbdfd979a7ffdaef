/**
 * DNS-rebinding defence (spec: basic/transports § Security Warning). A page on an attacker's
 * domain can make the browser resolve that domain to 127.0.0.1; the request then reaches a
 * local server with the attacker's name in `Host` and `Origin`. So a server listening on
 * loopback accepts only loopback host names, and every server refuses a foreign `Origin`.
 */

export interface OriginPolicy {
  /** Origins (`scheme://host[:port]`) allowed besides the server's own. */
  allowedOrigins?: readonly string[] | undefined;
  /** `Host` values allowed; an entry without a port allows any port. Replaces the loopback rule. */
  allowedHosts?: readonly string[] | undefined;
  /**
   * The address the server listens on; a loopback address turns the loopback rule on for every
   * request. Whatever it is, a request that arrived on a loopback socket address gets the rule.
   */
  bindHost?: string | undefined;
}

/**
 * Returns why a request with these `Host` (or URL host) and `Origin` values is refused, or
 * `undefined` when it may pass. `localAddress` is the socket address the request arrived on, when the adapter knows it
 * (or reads it on demand: it is asked only for a `Host` that is not a loopback one);
 * a loopback one turns the loopback rule on, as a loopback `bindHost` does. The `Host` header is never used to decide whether the
 * server is local, because under DNS rebinding that header is the attacker's.
 */
export function checkOrigin(
  hostHeader: string,
  origin: string | null,
  policy: OriginPolicy,
  localAddress?: string | (() => string | undefined),
): string | undefined {
  const host = hostHeader.toLowerCase();

  // A plain loopback Host passes the loopback rule whatever the address: the socket's is read only for another.
  if (policy.allowedHosts !== undefined) {
    if (!policy.allowedHosts.some((allowed) => hostMatches(host, allowed))) return `Host "${host}" is not allowed`;
  } else if (!PLAIN_LOOPBACK_HOST.test(host) && isLocal(policy, localAddress) && !isLoopbackHost(host)) {
    return `Host "${host}" is not allowed for a server on a loopback address`;
  }

  if (origin === null) return undefined;
  if (policy.allowedOrigins?.includes(origin)) return undefined;
  if (sameHost(origin, host)) return undefined;
  return `Origin "${origin}" is not allowed`;
}

/**
 * Whether the loopback rule holds. Either says so: a server bound to every address (0.0.0.0, ::)
 * is still reached over loopback, which is where a rebound name lands.
 */
function isLocal(policy: OriginPolicy, localAddress: string | (() => string | undefined) | undefined): boolean {
  if (policy.bindHost !== undefined && isLoopbackName(policy.bindHost)) return true;
  const address = typeof localAddress === "function" ? localAddress() : localAddress;
  return address !== undefined && isLoopbackName(address);
}

/** The name `isLoopbackName` judged last, and its verdict: every request of a server asks about the same address. */
let lastName: string | undefined;
let lastVerdict = false;

/** Whether a host name or address (with or without IPv6 brackets) is a loopback one. */
export function isLoopbackName(name: string): boolean {
  if (name === lastName) return lastVerdict;
  lastVerdict = judgeLoopbackName(name);
  lastName = name;
  return lastVerdict;
}

function judgeLoopbackName(name: string): boolean {
  const n = name.toLowerCase().replace(/^\[|\]$/g, "");
  if (n === "localhost" || n === "::1") return true;
  const v4 = n.startsWith("::ffff:") ? n.slice(7) : n;
  // An IPv4-mapped address as a URL writes it: ::ffff:127.0.0.1 becomes ::ffff:7f00:1.
  if (v4 !== n && /^7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.test(v4)) return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

function parseHost(host: string): URL | undefined {
  try {
    return new URL(`http://${host}`);
  } catch {
    return undefined;
  }
}

/** A dotted 127.x.x.x or `localhost`, with an optional port: a Host value that needs no URL parse. */
const PLAIN_LOOPBACK_HOST =
  /^(?:localhost|127(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3})(?::(?:[1-5]?\d{1,4}|6[0-4]\d{3}|65[0-4]\d\d|655[0-2]\d|6553[0-5]))?$/;

/** Whether a `Host` value names a loopback host, with or without a port. */
function isLoopbackHost(host: string): boolean {
  return PLAIN_LOOPBACK_HOST.test(host) || isLoopbackName(parseHost(host)?.hostname ?? "");
}

/** An entry without a port matches any port; IPv6 entries are written in brackets. */
function hostMatches(host: string, allowed: string): boolean {
  const entry = parseHost(allowed.toLowerCase());
  const actual = parseHost(host);
  if (entry === undefined || actual === undefined) return false;
  return entry.hostname === actual.hostname && (entry.port === "" || entry.port === actual.port);
}

function sameHost(origin: string, host: string): boolean {
  try {
    const url = new URL(origin);
    if (url.protocol !== "http:" && url.protocol !== "https:") return false;
    const actual = parseHost(host);
    if (actual === undefined || url.hostname !== actual.hostname) return false;
    // A Host may write out the scheme's default port, which the Origin leaves out.
    const defaultPort = url.protocol === "https:" ? "443" : "80";
    return url.port === actual.port || (url.port === "" && actual.port === defaultPort);
  } catch {
    return false;
  }
}
