/**
 * The text of a consent screen for a hand-off (spec 2025-11-25: client/elicitation § Safe URL
 * Handling): which server asks, its message, the full URL with the registrable domain
 * highlighted, the host, and every warning. Server-provided text is escaped for the terminal.
 */
import type { RefusedHandoff, UrlInteraction } from "./interaction.js";
import { printable, printableLine, serverLabel } from "./printable.js";

const BOLD = "\u001b[1m";
const RESET = "\u001b[22m";

export interface RenderOptions {
  /** Put the registrable domain in ANSI bold; only for a terminal. Default `false`. */
  bold?: boolean;
}

/** The consent text for `interaction`, ending with a newline. */
export function renderInteraction(interaction: UrlInteraction, options: RenderOptions = {}): string {
  const hostname = new URL(interaction.url).hostname;
  const lines = [...heading(interaction), `  URL:  ${highlightUrl(interaction, options.bold === true)}`];
  lines.push(`  Host: ${interaction.host}`);
  if (interaction.registrableDomain !== hostname) lines.push(`  Domain: ${interaction.registrableDomain}`);
  if (interaction.warnings.length > 0) {
    lines.push("", ...interaction.warnings.map((warning) => `  Warning: ${printableLine(warning.message)}`));
  }
  return `${lines.join("\n")}\n`;
}

/** The text for a hand-off whose URL is never opened: who asked, the message, the URL escaped, why not. */
export function renderRefusal(refused: RefusedHandoff): string {
  const lines = [
    ...heading(refused),
    `  URL:  ${printableLine(refused.url)}`,
    "",
    `  ${printableLine(refused.reason)} It will not be opened.`,
  ];
  return `${lines.join("\n")}\n`;
}

function heading(handoff: UrlInteraction | RefusedHandoff): string[] {
  const server = handoff.server.name === "" ? undefined : handoff.server;
  return [
    `${serverLabel(server)} asks you to open a web page.`,
    "",
    ...printable(handoff.message)
      .split("\n")
      .map((line) => `  ${line}`),
    "",
  ];
}

/**
 * The URL with its registrable domain in bold. The host is located after any user-info (the last
 * "@" of the authority), so that a user name that spells a site is never the part highlighted.
 */
export function highlightUrl(interaction: UrlInteraction, bold: boolean): string {
  const href = interaction.url;
  if (!bold) return href;
  const authorityStart = href.indexOf("//") + 2;
  const authorityEnd = href.indexOf("/", authorityStart);
  const end = authorityEnd === -1 ? href.length : authorityEnd;
  const hostStart =
    href.lastIndexOf("@", end - 1) >= authorityStart ? href.lastIndexOf("@", end - 1) + 1 : authorityStart;
  const hostname = new URL(href).hostname;
  const domainAt = hostname.lastIndexOf(interaction.registrableDomain);
  if (domainAt === -1) return href;
  const from = hostStart + domainAt;
  const to = from + interaction.registrableDomain.length;
  return `${href.slice(0, from)}${BOLD}${href.slice(from, to)}${RESET}${href.slice(to)}`;
}
