/**
 * The text of a consent screen for a hand-off (spec 2025-11-25: client/elicitation § Safe URL
 * Handling): the host and registrable domain first, then the full URL with that domain
 * highlighted, which server asks, every warning, and last the server's message, quoted.
 *
 * The client's own lines start with a label two columns in (`  URL:`, `  Host:`, ...). Text a
 * server chose never starts a row there: it is escaped (no control character, ANSI or OSC
 * sequence, bidi control or invisible character reaches the terminal), the server's name is cut
 * to fit its row, and the message is wrapped to the terminal's width, every row under a `│` bar
 * further in. So no message or name can draw a `URL:` or `Host:` line of its own.
 */
import type { RefusedHandoff, UrlInteraction } from "./interaction.js";
import { clip, printable, printableLine, rows, serverLabel } from "./printable.js";

const BOLD = "\u001b[1m";
const RESET = "\u001b[22m";

/** Terminal width assumed when none is given. */
export const DEFAULT_COLUMNS = 80;
/** Rows of the server's message shown at most, so that it cannot push the URL off the screen. */
export const MAX_MESSAGE_ROWS = 12;
/** What every row of the server's message starts with. */
const QUOTE = "    │ ";

export interface RenderOptions {
  /**
   * Emphasis for a terminal: the client's labels, the host and the registrable domain in ANSI
   * bold, which no server text can produce. Default `false` (plain text, for logs and pipes).
   */
  bold?: boolean;
  /** The terminal's width in columns (at least 40 is assumed); rows are wrapped to it. Default 80. */
  columns?: number;
}

/** The consent text for `interaction`, ending with a newline. */
export function renderInteraction(interaction: UrlInteraction, options: RenderOptions = {}): string {
  const screen = new Screen(options);
  const hostname = new URL(interaction.url).hostname;
  screen.line("An MCP server asks you to open a web page.");
  screen.line("");
  // Host and domain come from the parser (ASCII); escaping them too keeps a hand-built
  // UrlInteraction as safe as one from toUrlInteraction.
  const host = printableLine(interaction.host);
  screen.field(
    "Host:",
    screen.wrap("Host:", host, false).map((row) => screen.bold(row)),
  );
  if (interaction.registrableDomain !== hostname) {
    const domain = printableLine(interaction.registrableDomain);
    screen.field(
      "Domain:",
      screen.wrap("Domain:", domain, false).map((row) => screen.bold(row)),
    );
  }
  // One row, however long, so that it can be copied and a terminal's link detection sees all of
  // it; where the terminal wraps it, the rows hold only URL characters (the parser encodes spaces).
  // It comes after the host and domain, so that what a wrapped row of it may look like
  // (`Host:evil.example` at the left edge) can only ever follow the real ones.
  screen.field("URL:", [highlightUrl(interaction, screen.emphasis)]);
  screen.server(interaction.server);
  if (interaction.warnings.length > 0) {
    screen.line("");
    for (const warning of interaction.warnings) {
      screen.field("Warning:", screen.wrap("Warning:", printableLine(warning.message)));
    }
  }
  screen.message(interaction.message);
  return screen.text();
}

/** The text for a hand-off whose URL is never opened: the URL escaped, who asked, why not, the message. */
export function renderRefusal(refused: RefusedHandoff, options: RenderOptions = {}): string {
  const screen = new Screen({ columns: options.columns ?? DEFAULT_COLUMNS });
  screen.line("An MCP server asks you to open a web page that this client does not open.");
  screen.line("");
  screen.field("URL:", screen.wrap("URL:", printableLine(refused.url), false));
  screen.server(refused.server);
  screen.line("");
  for (const row of rows(`${printableLine(refused.reason)} It will not be opened.`, screen.columns - 2, true)) {
    screen.line(`  ${row}`);
  }
  screen.message(refused.message);
  return screen.text();
}

/** Rows of a consent screen, each a fixed prefix of the client's and then the content. */
class Screen {
  private readonly lines: string[] = [];
  readonly columns: number;
  readonly emphasis: boolean;

  constructor(options: RenderOptions) {
    this.columns = Math.max(options.columns ?? DEFAULT_COLUMNS, 40);
    this.emphasis = options.bold === true;
  }

  bold(text: string): string {
    return this.emphasis ? `${BOLD}${text}${RESET}` : text;
  }

  line(text: string): void {
    this.lines.push(text);
  }

  /** `  Label: value` (values from column 8 or after the label), continued rows indented under the value. */
  field(label: string, values: readonly string[]): void {
    const padded = label.padEnd(5);
    const indent = " ".repeat(padded.length + 3);
    values.forEach((value, i) => {
      this.lines.push(i === 0 ? `  ${this.bold(label)}${padded.slice(label.length)} ${value}` : `${indent}${value}`);
    });
  }

  /** `text` in rows that fit after `label`'s prefix; with `words` broken at spaces where possible. */
  wrap(label: string, text: string, words = true): string[] {
    return rows(text, this.columns - (label.padEnd(5).length + 3), words);
  }

  /** `  Server: Title (name)`, cut to one row; nothing for a server that gave no name. */
  server(server: UrlInteraction["server"]): void {
    if (server.name === "" && !server.title) return;
    this.field("Server:", [clip(serverLabel(server), this.columns - 11)]);
  }

  /** The server's message under a heading, every row quoted, at most {@link MAX_MESSAGE_ROWS}. */
  message(message: string): void {
    const text = message.replace(/\r\n/g, "\n").trimEnd();
    if (text === "") return;
    const quoted = printable(text)
      .split("\n")
      .flatMap((line) => rows(line, this.columns - QUOTE.length, true));
    this.lines.push("", "  The server's message:");
    for (const row of quoted.slice(0, MAX_MESSAGE_ROWS)) this.lines.push(`${QUOTE}${row}`.trimEnd());
    const hidden = quoted.length - MAX_MESSAGE_ROWS;
    if (hidden > 0) this.lines.push(`    (${hidden} more ${hidden === 1 ? "row" : "rows"} of the message not shown)`);
  }

  text(): string {
    return `${this.lines.join("\n")}\n`;
  }
}

/**
 * Where the registrable domain is in the URL, as `[from, to)`. The host is located after any
 * user-info (the last "@" of the authority), so that a user name that spells a site is never
 * the part highlighted.
 */
function domainRange(interaction: UrlInteraction): [number, number] | undefined {
  const href = interaction.url;
  const authorityStart = href.indexOf("//") + 2;
  const authorityEnd = href.indexOf("/", authorityStart);
  const end = authorityEnd === -1 ? href.length : authorityEnd;
  const at = href.lastIndexOf("@", end - 1);
  const hostStart = at >= authorityStart ? at + 1 : authorityStart;
  const hostname = new URL(href).hostname;
  const domainAt = hostname.lastIndexOf(interaction.registrableDomain);
  if (domainAt === -1) return undefined;
  const from = hostStart + domainAt;
  return [from, from + interaction.registrableDomain.length];
}

/** The URL with its registrable domain in bold (with `bold`), on one line. */
export function highlightUrl(interaction: UrlInteraction, bold: boolean): string {
  const href = interaction.url;
  // A normalized URL is printable ASCII; anything else (a hand-built interaction) is shown escaped.
  if (printableLine(href) !== href) return printableLine(href);
  const range = bold ? domainRange(interaction) : undefined;
  if (range === undefined) return href;
  return `${href.slice(0, range[0])}${BOLD}${href.slice(range[0], range[1])}${RESET}${href.slice(range[1])}`;
}
