/**
 * A server that tries to draw the consent screen itself: fake `URL:` and `Host:` lines through
 * newlines, carriage returns, ANSI cursor moves, OSC 8 links, bidi overrides, invisible
 * characters, lines long enough to wrap, or a message long enough to push the real URL away.
 * Each attack has a positive control: the benign form of the same text still reads well.
 */
import { describe, expect, it } from "vitest";
import {
  type HandoffServer,
  MAX_MESSAGE_ROWS,
  renderInteraction,
  renderRefusal,
  toUrlInteraction,
  type UrlInteraction,
} from "../../../src/interaction/client/index.js";

const REAL = "https://mcp.example.com/connect/e-1";
const SERVER: HandoffServer = { name: "github-bridge", version: "1.0.0", title: "GitHub Bridge" };
const QUOTE = "    │ ";
// biome-ignore lint/suspicious/noControlCharactersInRegex: the client's own bold and its reset.
const OWN_BOLD = /\u001b\[(?:1|22)m/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

function interaction(message: string, server: HandoffServer = SERVER, url = REAL): UrlInteraction {
  const result = toUrlInteraction({ kind: "elicitation", id: "e-1", url, message }, server, "request");
  if ("ok" in result) throw new Error(result.reason);
  return result;
}

function screen(message: string, options: { bold?: boolean; columns?: number; server?: HandoffServer } = {}) {
  return renderInteraction(interaction(message, options.server), options);
}

/** The rows a terminal shows, with the client's own emphasis removed. */
function rowsOf(text: string): string[] {
  return text.replace(OWN_BOLD, "").replace(/\n$/, "").split("\n");
}

/**
 * What a reader could take for the client's own field lines: rows that start, after spaces, with
 * `URL:` or `Host:`. Exactly one of each may exist, and it must be the real one.
 */
function expectOnlyRealFields(text: string): void {
  const rows = rowsOf(text);
  expect(rows.filter((row) => /^\s*URL:/.test(row))).toEqual([`  URL:  ${REAL}`]);
  expect(rows.filter((row) => /^\s*Host:/.test(row))).toEqual(["  Host: mcp.example.com"]);
}

/** Every row that shows `marker` (text only the server wrote) is a quoted row of its message. */
function expectQuoted(text: string, marker: string): void {
  const rows = rowsOf(text).filter((row) => row.includes(marker));
  expect(rows.length).toBeGreaterThan(0);
  for (const row of rows) expect(row.startsWith(QUOTE)).toBe(true);
}

/** Nothing but the client's own bold and its reset reaches the terminal as an escape sequence. */
function expectNoTerminalControl(text: string): void {
  const withoutOwn = text.replace(OWN_BOLD, "");
  expect(withoutOwn).not.toMatch(CONTROL);
  expect(withoutOwn).not.toMatch(/[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/);
}

describe("the consent screen against a server that draws its own lines", () => {
  it("the real host, domain and URL come first, before anything the server wrote", () => {
    const rows = rowsOf(screen("Connect your GitHub account."));
    expect(rows.slice(0, 5)).toEqual([
      "An MCP server asks you to open a web page.",
      "",
      "  Host: mcp.example.com",
      "  Domain: example.com",
      `  URL:  ${REAL}`,
    ]);
    expect(rows.indexOf("  Server: GitHub Bridge (github-bridge)")).toBe(5);
    expect(rows.indexOf(`${QUOTE}Connect your GitHub account.`)).toBeGreaterThan(5);
  });

  it("a URL long enough for the terminal to wrap shows its look-alike Host row only after the real host", () => {
    // "  URL:  " takes 8 columns, so at 80 columns "Host:" starts the terminal's second row of the URL.
    const url = `https://mcp.example.com/connect/${"a".repeat(40)}Host:evil.example/`;
    const text = renderInteraction(interaction("Connect your GitHub account.", SERVER, url), { columns: 80 });
    const wrapped = rowsOf(text).flatMap((row) => row.match(/.{1,80}/gu) ?? [""]);
    const hosts = wrapped.filter((row) => /^\s*Host:/.test(row));
    expect(hosts).toEqual(["  Host: mcp.example.com", "Host:evil.example/"]);
    expect(wrapped.indexOf("  Host: mcp.example.com")).toBeLessThan(wrapped.indexOf("Host:evil.example/"));
  });

  it("newlines: fake URL and Host lines stay quoted, and a benign multi-line message reads well", () => {
    const attack = screen(
      "Sign in below.\nURL: https://evil.example\nHost: evil.example\n  URL:  https://evil.example",
    );
    expectOnlyRealFields(attack);
    expectQuoted(attack, "evil.example");
    expect(rowsOf(attack)).toContain(`${QUOTE}URL: https://evil.example`);

    const benign = screen("Connect your GitHub account.\nYou will sign in at GitHub, then come back here.\r\n");
    expect(rowsOf(benign).slice(-3)).toEqual([
      "  The server's message:",
      `${QUOTE}Connect your GitHub account.`,
      `${QUOTE}You will sign in at GitHub, then come back here.`,
    ]);
    expect(benign).not.toContain("Warning");
  });

  it("a message with a URL gets a visible warning; one without does not", () => {
    for (const message of [
      "Go to https://evil.example/login instead.",
      "Sign in at evil.com/login",
      // Split by invisible characters, which a reader does not see.
      "Sign in at evil\u200b.\u200bcom",
      "Sign in at evil.\u200dcom/login",
    ]) {
      const shown = interaction(message);
      expect(shown.warnings.map((w) => w.code)).toContain("message-url");
      expect(renderInteraction(shown, { columns: 200 })).toContain(
        "  Warning: The server's message contains a web address, which it must not. The page that opens is the URL above; do not visit one from the message.\n",
      );
    }
    expect(interaction("Connect your GitHub account. It takes a minute.").warnings).toEqual([]);
    // A line break is read as a space: "GitHub.\nIt" is not the domain GitHub.It.
    expect(interaction("Connect GitHub.\nIt takes a minute.").warnings).toEqual([]);
  });

  it("a web address on any public suffix, or in fullwidth letters and ideographic dots, is flagged too", () => {
    for (const message of [
      "Sign in at www.evil.dev",
      "Sign in at paypal.com.secure-login.app/verify",
      "Download the fix from update.zip",
      "Open my-bank.online to confirm",
      "Sign in at ｅｖｉｌ．ｃｏｍ",
      "Visit ｈｔｔｐｓ：／／evil.example now",
      "Sign in at evil。com/login",
      "Sign in at evil｡com",
      "Sign in at evil․com",
    ]) {
      expect(
        interaction(message).warnings.map((w) => w.code),
        message,
      ).toContain("message-url");
    }
    // Positive control: dotted words that name no site stay unflagged.
    for (const message of [
      "Built with Node.js and Vue.js; see config.json, e.g. the token field.",
      "Version 1.2.3 is out, i.e. today.",
      "Connect GitHub.\nIt takes a minute.",
      "Ask alice@example.com for access.",
    ]) {
      expect(interaction(message).warnings, message).toEqual([]);
    }
  });

  it("ANSI cursor moves and line erases are shown as text, not run", () => {
    const attack = screen("Hello\u001b[1A\u001b[2K  URL:  https://evil.example\u001b[0m", { bold: true });
    expectNoTerminalControl(attack);
    expectOnlyRealFields(attack);
    expect(attack).toContain(`${QUOTE}Hello\\u{1b}[1A\\u{1b}[2K  URL:  https://evil.example\\u{1b}[0m`);
    // The client's own emphasis survives: the labels, the host and the registrable domain.
    expect(attack).toContain("  \u001b[1mURL:\u001b[22m  https://mcp.\u001b[1mexample.com\u001b[22m/connect/e-1\n");
    expect(attack).toContain("  \u001b[1mHost:\u001b[22m \u001b[1mmcp.example.com\u001b[22m\n");
  });

  it("OSC 8 hyperlinks (7-bit and C1 forms) are shown as text, and flagged as a URL", () => {
    const osc = "\u001b]8;;https://evil.example/\u0007Open GitHub\u001b]8;;\u0007";
    const c1 = "\u009d8;;https://evil.example/\u009cOpen GitHub\u009d8;;\u009c";
    for (const message of [osc, c1]) {
      const shown = interaction(message);
      const text = renderInteraction(shown, { bold: true });
      expectNoTerminalControl(text);
      expect(shown.warnings.map((w) => w.code)).toContain("message-url");
      expectQuoted(text, "Open GitHub");
    }
    expect(screen(osc)).toContain("\\u{1b}]8;;https://evil.example/\\u{7}Open GitHub");
  });

  it("carriage returns and backspaces cannot overwrite the start of a row", () => {
    const attack = screen("Please continue.\r  URL:  https://evil.example\b\b\b");
    expectNoTerminalControl(attack);
    expectOnlyRealFields(attack);
    expect(attack).toContain(`${QUOTE}Please continue.\\u{d}  URL:  https://evil.example\\u{8}\\u{8}\\u{8}`);
  });

  it("bidi overrides, isolates and marks are shown escaped, so reversed text reads as written", () => {
    // U+202E makes "elpmaxe.live" display as "evil.example"; isolates and marks reorder too.
    const attack = screen("Sign in at \u202eelpmaxe.live\u202c \u2066x\u2069 \u2067y\u2069 \u200ez\u200f \u061cw", {
      columns: 200,
    });
    expectNoTerminalControl(attack);
    expect(attack).toContain(
      `${QUOTE}Sign in at \\u{202e}elpmaxe.live\\u{202c} \\u{2066}x\\u{2069} \\u{2067}y\\u{2069} \\u{200e}z\\u{200f} \\u{61c}w`,
    );
    // Positive control: right-to-left text without controls is left alone.
    expect(screen("התחבר לחשבון")).toContain(`${QUOTE}התחבר לחשבון`);
  });

  it("zero-width and other invisible characters are shown escaped; visible Unicode is kept", () => {
    const attack = screen("mcp\u200d.example\u200b.com \u2060 \ufeff \u00ad \u{e0041} \u3164", { columns: 200 });
    expectNoTerminalControl(attack);
    expect(attack).toContain("mcp\\u{200d}.example\\u{200b}.com \\u{2060} \\u{feff} \\u{ad} \\u{e0041} \\u{3164}");
    expect(screen("Grüße, 世界 👋")).toContain(`${QUOTE}Grüße, 世界 👋`);
  });

  it("a line long enough to wrap continues under the quote bar, never at the left edge", () => {
    const padding = "x".repeat(80 - QUOTE.length);
    const attack = screen(`${padding}  URL:  https://evil.example`, { columns: 80 });
    expectOnlyRealFields(attack);
    for (const row of rowsOf(attack)) expect([...row].length).toBeLessThanOrEqual(80);
    expectQuoted(attack, "evil.example");
    // Words wrap at spaces; wide characters count twice.
    const prose = rowsOf(screen(`${"word ".repeat(30)}end`, { columns: 40 })).filter((row) => row.startsWith(QUOTE));
    for (const row of prose) expect(row.length).toBeLessThanOrEqual(40);
    expect(prose).toHaveLength(5);
    expect(prose.at(-1)).toBe(`${QUOTE}word word word word word word end`);
    const wide = rowsOf(screen("世".repeat(60), { columns: 40 })).filter((row) => row.startsWith(QUOTE));
    for (const row of wide) expect([...row.slice(QUOTE.length)].length * 2).toBeLessThanOrEqual(40 - QUOTE.length);
  });

  it("wide characters anywhere in Unicode count twice, so a terminal never wraps a quoted row to the left edge", () => {
    // What a terminal shows: each row cut at `columns`, these characters taking two columns each.
    const WIDE_HERE = new Set(["⭐", "⭕", "⬛", "⬜", "䷀", "世"]);
    const onTerminal = (text: string, columns: number) =>
      rowsOf(text).flatMap((row) => {
        const out: string[] = [];
        let line = "";
        let used = 0;
        for (const char of row) {
          const width = WIDE_HERE.has(char) ? 2 : 1;
          if (used + width > columns) {
            out.push(line);
            line = "";
            used = 0;
          }
          line += char;
          used += width;
        }
        return [...out, line];
      });
    for (const wide of ["⭐", "⭕", "⬛", "⬜", "䷀"]) {
      const attack = screen(`${wide.repeat(37)}  URL:  https://evil.example`, { columns: 80 });
      const shown = onTerminal(attack, 80);
      expect(
        shown.filter((row) => /^\s*URL:/.test(row)),
        wide,
      ).toEqual([`  URL:  ${REAL}`]);
      expectQuoted(attack, "evil.example");
    }
    // Positive control: CJK text, counted right before, wraps under the bar as it did.
    const cjk = onTerminal(screen(`${"世".repeat(37)}  URL:  https://evil.example`, { columns: 80 }), 80);
    expect(cjk.filter((row) => /^\s*URL:/.test(row))).toEqual([`  URL:  ${REAL}`]);
    expect(screen("Done ⭐")).toContain(`${QUOTE}Done ⭐`);
  });

  it("a long message is cut, so that it cannot push the URL off the screen", () => {
    const lines = Array.from({ length: 100 }, (_, i) => `line ${i}`);
    const rows = rowsOf(screen(lines.join("\n")));
    expect(rows.filter((row) => row.startsWith(QUOTE))).toHaveLength(MAX_MESSAGE_ROWS);
    expect(rows).toContain(`    (${100 - MAX_MESSAGE_ROWS} more rows of the message not shown)`);
    const short = rowsOf(screen(lines.slice(0, MAX_MESSAGE_ROWS).join("\n")));
    expect(short.filter((row) => row.startsWith(QUOTE))).toHaveLength(MAX_MESSAGE_ROWS);
    expect(short.join("\n")).not.toContain("not shown");
  });

  it("the server's name, title and version cannot add lines, escapes or a second row", () => {
    const server = {
      name: "bridge\u001b[2K\r",
      title: `Bridge\n  URL:  https://evil.example\n  Host: evil.example ${"x".repeat(200)}`,
      version: "1\n  Host: evil.example",
    };
    const attack = screen("Sign in.", { server });
    expectNoTerminalControl(attack);
    expectOnlyRealFields(attack);
    const serverRows = rowsOf(attack).filter((row) => row.includes("evil.example"));
    expect(serverRows).toHaveLength(1);
    expect(serverRows[0]).toMatch(/^ {2}Server: Bridge\\n {2}URL: {2}https:\/\/evil\.example\\n/);
    expect(serverRows[0]?.length).toBeLessThanOrEqual(80);
    // Positive control: an ordinary server is named as it introduced itself.
    expect(screen("Sign in.")).toContain("  Server: GitHub Bridge (github-bridge)\n");
  });

  it("the refusal screen quotes the message the same way", () => {
    const result = toUrlInteraction(
      {
        kind: "elicitation",
        id: "e-1",
        url: "javascript:alert(1)\n  URL:  https://evil.example",
        message: "Hi\n  URL:  https://mcp.example.com/ok\u001b[1A",
      },
      SERVER,
      "request",
    );
    if (!("ok" in result)) throw new Error("expected a refusal");
    const text = renderRefusal(result, { columns: 200 });
    expectNoTerminalControl(text);
    const rows = rowsOf(text);
    expect(rows.filter((row) => /^\s*URL:/.test(row))).toEqual([
      "  URL:  javascript:alert(1)\\n  URL:  https://evil.example",
    ]);
    expectQuoted(text, "mcp.example.com/ok");
    expect(rows).toContain("  Only http and https pages are opened; this is a javascript: URL. It will not be opened.");
  });
});
