/**
 * What a user should know about a URL a server asks them to open, before they agree
 * (spec 2025-11-25: client/elicitation § Safe URL Handling; the user-interaction proposal
 * § Phishing). The URL is only parsed, never fetched: no DNS lookup, no request.
 */
import { domainToUnicode } from "node:url";
import { parse as parseDomain } from "tldts";
import { mixedScripts } from "./url-scripts.js";

/** URLs longer than this (characters of the normalized URL) get a warning: the end of a long URL is easy to miss. */
export const LONG_URL_LENGTH = 2048;

/**
 * Why a URL deserves a second look:
 * - `not-https`: plain http to a host that is not this machine (loopback is fine);
 * - `ip-address`: an IPv4 or IPv6 literal (including decimal, octal or hex spellings) instead of a name;
 * - `punycode`: an internationalized name, shown with its Unicode form;
 * - `mixed-script`: a label mixing writing systems, the usual homograph trick;
 * - `long-url`: more than {@link LONG_URL_LENGTH} characters;
 * - `other-domain`: not on the registrable domain of the MCP server that asks;
 * - `message-url`: the server's message carries a web address, which it must not (spec
 *   2025-11-25: client/elicitation § URL Mode); added by `toUrlInteraction`, never by `inspectUrl`.
 */
export type UrlWarningCode =
  | "not-https"
  | "ip-address"
  | "punycode"
  | "mixed-script"
  | "long-url"
  | "other-domain"
  | "message-url";

export interface UrlWarning {
  code: UrlWarningCode;
  /** One sentence for the user. It may quote the URL's own text: escape it before putting it on a terminal. */
  message: string;
}

/** A URL that may be offered to the user, with what to show them. */
export interface UrlInteractionInfo {
  ok: true;
  /** The URL as a browser would open it (WHATWG-normalized: punycode host, no tabs or newlines, escapes). */
  url: string;
  /** e.g. `https://auth.example.com:8443`. */
  origin: string;
  /** Host name and port as in the URL, in ASCII (`xn--` labels for international names). */
  host: string;
  /** The host name with international labels decoded, for display next to `host`. */
  unicodeHost: string;
  /**
   * The part of the host that one party controls (`example.co.uk` for `a.b.example.co.uk`,
   * `alice.github.io` for `x.alice.github.io`), from the Public Suffix List including its
   * private section. For an IP literal, `localhost` or a single label: the host name itself.
   */
  registrableDomain: string;
  /**
   * The registrable domain of the MCP server's own URL (`serverUrl`), computed the same way; absent
   * when it is not known (a server over stdio).
   */
  serverDomain?: string;
  /** In a fixed order: not-https, ip-address, punycode, mixed-script, long-url, other-domain. */
  warnings: UrlWarning[];
}

/**
 * A URL that must not be opened: not parseable, not http(s) (`javascript:`, `data:`, `file:`, ...),
 * or with user-info (`https://mcp.example.com@evil.example/`).
 */
export interface UrlRefusal {
  ok: false;
  /** The URL exactly as given. */
  url: string;
  /** One sentence for the user. */
  reason: string;
}

export interface InspectUrlOptions {
  /** The MCP server's own URL (Streamable HTTP), when known; enables the `other-domain` warning. */
  serverUrl?: string | URL;
}

/**
 * Parses `text` with the WHATWG URL parser and says what the user should see: origin, host,
 * registrable domain and warnings. Anything but `http:` and `https:` is refused, and so is a URL
 * with a user name or password: its only use in a hand-off is to make the text before "@" read as
 * the site (spec 2025-11-25: client/elicitation § Safe URL Handling).
 */
export function inspectUrl(text: string, options: InspectUrlOptions = {}): UrlInteractionInfo | UrlRefusal {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, url: text, reason: "This is not a valid URL." };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    return {
      ok: false,
      url: text,
      reason: `Only http and https pages are opened; this is a ${url.protocol.slice(0, -1)}: URL.`,
    };
  }
  const hostname = url.hostname;
  if (url.username !== "" || url.password !== "") {
    return {
      ok: false,
      url: text,
      reason: `The URL has a user name or password before "@", which can make it read as another site; the site is ${hostname}.`,
    };
  }
  const unicodeHost = isIpLiteral(hostname) ? hostname : domainToUnicode(hostname) || hostname;
  const registrableDomain = registrableDomainOf(hostname);
  const warnings: UrlWarning[] = [];
  const warn = (code: UrlWarningCode, message: string) => warnings.push({ code, message });

  if (url.protocol === "http:" && !isLoopback(hostname)) {
    warn("not-https", "The page is not encrypted (http, not https).");
  }
  if (isIpLiteral(hostname)) warn("ip-address", `The host is the IP address ${hostname}, not a domain name.`);
  if (hostname.split(".").some((label) => label.startsWith("xn--"))) {
    warn(
      "punycode",
      `The host is an international name: ${hostname} is shown as ${unicodeHost}. Letters from other alphabets can imitate a familiar name.`,
    );
  }
  for (const label of unicodeHost.split(".")) {
    const scripts = mixedScripts(label);
    if (scripts) {
      warn("mixed-script", `The name "${label}" mixes ${listed(scripts)} letters, a common way to imitate a name.`);
    }
  }
  if (url.href.length > LONG_URL_LENGTH) {
    warn("long-url", `The URL is unusually long (${url.href.length} characters); check all of it.`);
  }
  const serverDomain = serverDomainOf(options.serverUrl);
  if (serverDomain !== undefined && serverDomain !== registrableDomain) {
    warn("other-domain", `The page is on ${registrableDomain}, not on the server's own domain ${serverDomain}.`);
  }
  const info: UrlInteractionInfo = {
    ok: true,
    url: url.href,
    origin: url.origin,
    host: url.host,
    unicodeHost,
    registrableDomain,
    warnings,
  };
  if (serverDomain !== undefined) info.serverDomain = serverDomain;
  return info;
}

/**
 * Whether `text` names a host on a public suffix of the ICANN section of the Public Suffix List,
 * as a bare word such as `www.evil.dev` or `login.example.app/verify` (any TLD, not only the
 * well-known ones). E-mail addresses do not count; neither do dotted words whose last part is no
 * TLD (`Node.js`, `config.json`, `e.g.`, `1.2.3`).
 */
export function namesPublicHost(text: string): boolean {
  for (const word of text.split(/\s+/)) {
    if (word.includes("@")) continue;
    const host =
      word
        .replace(/^[^\p{L}\p{N}]+/u, "")
        .split(/[/?#:]/)[0]
        ?.replace(/[^\p{L}\p{N}]+$/u, "") ?? "";
    if (!host.includes(".") || !/^[\p{L}\p{N}.-]+$/u.test(host)) continue;
    const parsed = parseDomain(host);
    if (parsed.isIcann === true && parsed.domain !== null && !parsed.isIp) return true;
  }
  return false;
}

/** `true` for bracketed IPv6 and dotted IPv4 host names as the WHATWG parser leaves them. */
function isIpLiteral(hostname: string): boolean {
  return hostname.startsWith("[") || /^\d{1,3}(\.\d{1,3}){3}$/.test(hostname);
}

/** This machine: 127.0.0.0/8, ::1, `localhost` and names under `.localhost` (RFC 6761 § 6.3). */
function isLoopback(hostname: string): boolean {
  const name = hostname.replace(/\.$/, "");
  return name === "localhost" || name.endsWith(".localhost") || name === "[::1]" || /^127(\.\d{1,3}){3}$/.test(name);
}

function registrableDomainOf(hostname: string): string {
  if (isIpLiteral(hostname)) return hostname;
  const name = hostname.replace(/\.$/, "");
  return parseDomain(name, { allowPrivateDomains: true }).domain ?? name;
}

function serverDomainOf(serverUrl: string | URL | undefined): string | undefined {
  if (serverUrl === undefined) return undefined;
  try {
    return registrableDomainOf(new URL(serverUrl).hostname);
  } catch {
    return undefined;
  }
}

function listed(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}
