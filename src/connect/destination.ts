/**
 * Where a credential the server holds may be sent (spec PR #3285, "Credential Destination
 * Injection"): only to a host its provider lists, compared exactly after the URL parser's own
 * normalisation (lower case, IDN as punycode, default port dropped), over https, with no user
 * info in the URL. Every redirect is checked again by the same rule.
 */
import { SdkError } from "../jsonrpc/errors.js";
import { isLoopback } from "./oauth-server.js";

/** How the credential of one provider is attached, and where to. */
export interface CredentialDestination {
  /** Exact host names, with a port when not the scheme's default, e.g. `api.github.com`. */
  readonly hosts: readonly string[];
  /** The request header that carries the credential, e.g. `Authorization` or `X-Api-Key`. */
  readonly header: string;
  /** Written before the secret with one space, e.g. `Bearer`; none: the header is the secret alone. */
  readonly scheme?: string;
}

/**
 * The destination of a secret a user typed (`kind: "secret"`, an API key), as the server's owner
 * declares it in `CredentialBroker`'s and `LocalCredentials`' `secrets` option.
 */
export interface SecretDestination {
  /** Exact host names (with a port when not 443) the secret may be sent to by `ctx.credentials.fetch`. */
  readonly hosts: readonly string[];
  /** The header that carries it; default `Authorization`. */
  readonly header?: string;
  /** Written before the secret, e.g. `Bearer`; default `Bearer` for `Authorization`, none for any other header. */
  readonly scheme?: string;
  /** What the secret is called on its form and in the hand-off's message, e.g. "Forecast API key"; default "API key". */
  readonly label?: string;
}

/** The destination of a secret provider as declared; with none declared, every host is refused. */
export function secretDestination(declared: SecretDestination | undefined): CredentialDestination {
  if (declared === undefined) return { hosts: [], header: "Authorization", scheme: "Bearer" };
  const header = declared.header ?? "Authorization";
  const scheme = declared.scheme ?? (header.toLowerCase() === "authorization" ? "Bearer" : undefined);
  return { hosts: declared.hosts, header, ...(scheme === undefined ? {} : { scheme }) };
}

/** An OAuth provider's access token goes as `Authorization: Bearer` (RFC 6750 § 2.1) to its `apiHosts`. */
export function oauthDestination(hosts: readonly string[] | undefined): CredentialDestination {
  return { hosts: hosts ?? [], header: "Authorization", scheme: "Bearer" };
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Checks a declared destination once, when the server is built, so a typo fails at start rather
 * than as a refusal at the first call.
 * @throws SdkError "INVALID_ARGUMENT" naming the provider and the entry.
 */
export function checkDestination(provider: string, destination: CredentialDestination): void {
  const invalid = (what: string) =>
    new SdkError("INVALID_ARGUMENT", `The ${what} declared for ${JSON.stringify(provider)} is invalid`);
  if (!HEADER_NAME.test(destination.header)) throw invalid(`header ${JSON.stringify(destination.header)}`);
  for (const host of destination.hosts) {
    if (parseHost(host) === undefined) throw invalid(`API host ${JSON.stringify(host)}`);
  }
}

/** An allowlisted host as the URL parser spells it: host name, and port ("" for the scheme's default). */
interface AllowedHost {
  hostname: string;
  port: string;
}

/** `entry` as a host name and port, or `undefined` when it is more than that (a path, user info, a wildcard). */
function parseHost(entry: string): AllowedHost | undefined {
  if (typeof entry !== "string" || entry === "" || /[/?#@*\\\s]/.test(entry)) return undefined;
  try {
    const url = new URL(`https://${entry}`);
    if (url.pathname !== "/" || url.search !== "" || url.hash !== "") return undefined;
    return { hostname: url.hostname, port: url.port };
  } catch {
    return undefined;
  }
}

/** Options of the destination check. */
export interface DestinationRule {
  provider: string;
  hosts: readonly string[];
  /** Plain http to a listed loopback host (development): the loud opt-in of the broker. */
  httpLoopback: boolean;
}

/**
 * Why `url` may not carry the provider's credential, or `undefined` when it may. The reason names
 * the provider and the host, never anything else of the URL (its path or query may quote a secret).
 */
export function refusal(url: URL, rule: DestinationRule): string | undefined {
  const { provider } = rule;
  const host = url.host;
  if (url.username !== "" || url.password !== "") {
    return `the URL for ${host} carries user info, which is never sent with a ${provider} credential`;
  }
  const listed = rule.hosts.some((entry) => {
    const allowed = parseHost(entry);
    return allowed !== undefined && allowed.hostname === url.hostname && allowed.port === url.port;
  });
  if (!listed) return `${host} is not one of the API hosts of ${provider}`;
  if (url.protocol === "https:") return undefined;
  if (url.protocol === "http:" && isLoopback(url)) {
    return rule.httpLoopback
      ? undefined
      : `${host} is reached over http, allowed for loopback only with unsafeHttpLoopbackForDevelopment`;
  }
  return `${url.protocol.replace(/:$/, "")} is not https: the ${provider} credential is not sent to ${host} over it`;
}

/** SdkError "DESTINATION_REFUSED" with `reason`. */
export function refused(provider: string, reason: string): SdkError {
  return new SdkError("DESTINATION_REFUSED", `Refused to send the ${provider} credential: ${reason}`);
}
