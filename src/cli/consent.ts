/**
 * Consent for a URL-mode elicitation (spec 2025-11-25: client/elicitation § Safe URL Handling):
 * show which server asks, its message, the full URL and its host, with warnings; ask; and only
 * after a yes open the browser. The URL is never fetched here.
 */
import { domainToUnicode } from "node:url";
import type { Implementation } from "../client/types.js";
import type { Cancelled } from "./prompter.js";
import { CANCELLED } from "./prompter.js";
import { printable, printableLine, serverLabel } from "./text.js";

export interface UrlConsentRequest {
  /** The requesting server as it introduced itself. */
  server: Implementation | undefined;
  message: string;
  url: string;
}

export type ConsentAnswer = "accept" | "decline" | "cancel";

export interface ConsentIo {
  /** Asks a yes/no question; Ctrl-C answers {@link CANCELLED}. */
  confirm: (message: string) => Promise<boolean | Cancelled>;
  /** Opens `url` in the system browser; rejects when it cannot. */
  open: (url: string) => Promise<void>;
  /** Shows text to the user (stderr). */
  write: (text: string) => void;
  /** Print the URL instead of opening a browser. */
  noBrowser: boolean;
}

/** URLs longer than this get a warning: the end of a long URL is easy to miss. */
const LONG_URL = 2048;

/** The URL when it is one a browser should be given (http or https); `undefined` otherwise. */
export function browsableUrl(text: string): URL | undefined {
  try {
    const url = new URL(text);
    return url.protocol === "https:" || url.protocol === "http:" ? url : undefined;
  } catch {
    return undefined;
  }
}

/** Things about a URL the user should look at twice before opening it. */
export function urlWarnings(url: URL): string[] {
  const warnings: string[] = [];
  const host = url.hostname;
  if (url.protocol === "http:") warnings.push("The page is not encrypted (http, not https).");
  if (url.username !== "" || url.password !== "") {
    warnings.push(`The URL has a user name or password before the host; the site is really ${host}.`);
  }
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(host) || host.startsWith("[")) {
    warnings.push("The host is an IP address, not a domain name.");
  }
  if (host.split(".").some((label) => label.startsWith("xn--"))) {
    warnings.push(
      `The host has international characters (${printableLine(domainToUnicode(host))}); letters from other alphabets can imitate a familiar name.`,
    );
  }
  if (url.href.length > LONG_URL) warnings.push(`The URL is unusually long (${url.href.length} characters).`);
  return warnings;
}

/**
 * The consent text: who asks, the message, the full URL (as it would be opened), the host on a
 * line of its own, and warnings. Server-provided text is made printable first.
 */
export function renderConsent(request: UrlConsentRequest): string {
  const url = browsableUrl(request.url);
  const lines = [
    `${serverLabel(request.server)} asks you to open a web page.`,
    "",
    ...printable(request.message)
      .split("\n")
      .map((line) => `  ${line}`),
    "",
  ];
  if (!url) {
    lines.push(`  URL:  ${printableLine(request.url)}`, "", "  This is not an http(s) address; it will not be opened.");
    return `${lines.join("\n")}\n`;
  }
  lines.push(`  URL:  ${url.href}`, `  Host: ${url.host}`);
  const warnings = urlWarnings(url);
  if (warnings.length > 0) lines.push("", ...warnings.map((w) => `  Warning: ${w}`));
  return `${lines.join("\n")}\n`;
}

/**
 * Shows the consent text and asks. On yes, opens the browser (or prints the URL with
 * `noBrowser` or when opening fails) and answers `accept`; on no `decline`; on Ctrl-C `cancel`.
 * A URL that is not http(s) is declined without asking.
 */
export async function askUrlConsent(request: UrlConsentRequest, io: ConsentIo): Promise<ConsentAnswer> {
  io.write(`\n${renderConsent(request)}\n`);
  const url = browsableUrl(request.url);
  if (!url) return "decline";
  const answer = await io.confirm(
    io.noBrowser ? "Continue? You will open the page yourself" : "Open it in your browser?",
  );
  if (answer === CANCELLED) return "cancel";
  if (!answer) return "decline";
  if (io.noBrowser) {
    io.write(`Open this page in your browser:\n  ${url.href}\n`);
    return "accept";
  }
  try {
    await io.open(url.href);
    io.write(`Opening the page in your browser. If nothing opens, visit the URL above.\n`);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    io.write(`Could not open a browser (${printableLine(reason)}). Open this page yourself:\n  ${url.href}\n`);
  }
  return "accept";
}
