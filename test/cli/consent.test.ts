import { describe, expect, it } from "vitest";
import { askUrlConsent, type ConsentIo, renderConsent } from "../../src/cli/consent.js";
import { CANCELLED, type Cancelled } from "../../src/cli/prompter.js";

const server = { name: "github-bridge", version: "1.0.0", title: "GitHub Bridge" };
const longUrl = `https://auth.example.com/connect/7f3a?state=${"x".repeat(120)}&redirect=https%3A%2F%2Fapp.example.com%2Fdone`;

/** A consent io whose answer is scripted, recording what was shown, asked and opened, in order. */
function consentIo(answer: boolean | Cancelled, options: { noBrowser?: boolean; openFails?: boolean } = {}) {
  const events: string[] = [];
  let shown = "";
  const io: ConsentIo = {
    confirm: async (message) => {
      events.push(`asked: ${message}`);
      return answer;
    },
    open: async (url) => {
      events.push(`opened: ${url}`);
      if (options.openFails) throw new Error("no browser found");
    },
    write: (text) => {
      shown += text;
      events.push("shown");
    },
    noBrowser: options.noBrowser ?? false,
  };
  return { io, events, shown: () => shown };
}

describe("URL consent text", () => {
  it("shows the full URL and the host on lines of their own first, then the server and its message, quoted", () => {
    const text = renderConsent({ server, message: "Connect your GitHub account.", url: longUrl });
    expect(text).toBe(
      [
        "An MCP server asks you to open a web page.",
        "",
        "  Host: auth.example.com",
        "  Domain: example.com",
        `  URL:  ${longUrl}`,
        "  Server: GitHub Bridge (github-bridge)",
        "",
        "  The server's message:",
        "    │ Connect your GitHub account.",
        "",
      ].join("\n"),
    );
  });

  it("keeps a message's fake URL and Host lines inside the quote, and flags the URL in it", () => {
    const text = renderConsent({
      server,
      message: "Sign in.\nURL:  https://evil.example/login\nHost: evil.example",
      url: longUrl,
    });
    const rows = text.split("\n");
    expect(rows.filter((row) => /^\s*URL:/.test(row))).toEqual([`  URL:  ${longUrl}`]);
    expect(rows.filter((row) => /^\s*Host:/.test(row))).toEqual(["  Host: auth.example.com"]);
    expect(rows).toContain("    │ URL:  https://evil.example/login");
    expect(rows).toContain("    │ Host: evil.example");
    expect(text).toContain("  Warning: The server's message contains a web address");
    // Positive control: a message without a URL, on two lines, reads as written and is not flagged.
    const benign = renderConsent({ server, message: "Connect GitHub.\nIt takes a minute.", url: longUrl });
    expect(benign).toContain("    │ Connect GitHub.\n    │ It takes a minute.\n");
    expect(benign).not.toContain("Warning");
  });

  it("shows every warning of inspectUrl: plain http, IP literals, punycode, mixed scripts, length", () => {
    const warnings = (url: string) =>
      renderConsent({ server, message: "Sign in", url }, { columns: 200 })
        .split("\n")
        .filter((line) => line.startsWith("  Warning: "))
        .join("\n");
    expect(warnings("http://example.com/")).toMatch(/not encrypted/);
    expect(warnings("https://192.168.1.20/connect")).toMatch(/IP address 192\.168\.1\.20/);
    expect(warnings("http://2130706433/")).toMatch(/IP address 127\.0\.0\.1/);
    expect(warnings("https://[::1]:8443/connect")).toMatch(/IP address \[::1\]/);
    expect(warnings("https://аpple.com/")).toMatch(/xn--pple-43d\.com is shown as аpple\.com/);
    expect(warnings("https://аpple.com/")).toMatch(/"аpple" mixes Cyrillic and Latin letters/);
    expect(warnings(`https://example.com/?q=${"a".repeat(3000)}`)).toMatch(/unusually long/);
    const text = renderConsent({ server, message: "Sign in", url: "https://аpple.com/login" });
    expect(text).toContain("Host: xn--pple-43d.com");
    expect(text).toContain("Warning: The host is an international name");
  });

  it("flags a page on another domain than the server's, and names the registrable domain", () => {
    const text = renderConsent(
      {
        server,
        message: "Authorize",
        url: "https://login.github.com/oauth",
        serverUrl: new URL("https://mcp.example.com/mcp"),
      },
      { columns: 200 },
    );
    expect(text).toContain("  Host: login.github.com\n  Domain: github.com\n");
    expect(text).toContain("Warning: The page is on github.com, not on the server's own domain example.com.");
  });

  it("sets the registrable domain in bold only when asked (a terminal)", () => {
    const plain = renderConsent({ server, message: "Sign in", url: "https://github.com.evil.example/x" });
    expect(plain).not.toContain("\u001b");
    const bold = renderConsent(
      { server, message: "Sign in", url: "https://github.com.evil.example/x" },
      { bold: true },
    );
    expect(bold).toContain("\u001b[1mURL:\u001b[22m  https://github.com.\u001b[1mevil.example\u001b[22m/x");
  });

  it("shows control characters from the server as escapes, so they cannot rewrite the screen", () => {
    const text = renderConsent({
      server: { name: "evil\u001b[2J", version: "1" },
      message: "Hi\u001b[1A\rthere",
      url: longUrl,
    });
    expect(text).not.toContain("\u001b");
    expect(text).toContain("evil\\u{1b}[2J");
    expect(text).toContain("Hi\\u{1b}[1A\\u{d}there");
  });

  it("refuses a URL with user-info and says why; the same URL without it is shown", () => {
    const refused = renderConsent(
      { server, message: "Sign in", url: "https://github.com@evil.example/login" },
      { columns: 200 },
    );
    expect(refused).toContain(
      '  The URL has a user name or password before "@", which can make it read as another site; the site is evil.example. It will not be opened.\n',
    );
    expect(refused).not.toContain("Host:");
    const shown = renderConsent({ server, message: "Sign in", url: "https://evil.example/login" });
    expect(shown).toContain("  URL:  https://evil.example/login\n");
    expect(shown).toContain("  Host: evil.example\n");
  });

  it("says a URL that is not http(s) will not be opened", () => {
    expect(renderConsent({ server, message: "Run this", url: "javascript:alert(1)" }, { columns: 200 })).toContain(
      "  Only http and https pages are opened; this is a javascript: URL. It will not be opened.\n",
    );
  });
});

describe("URL consent", () => {
  it("opens the browser only after the user says yes, with the URL that was shown", async () => {
    const { io, events, shown } = consentIo(true);
    expect(await askUrlConsent({ server, message: "Sign in", url: longUrl }, io)).toBe("accept");
    expect(shown()).toContain(`  URL:  ${longUrl}\n`);
    expect(events).toEqual([
      "shown",
      "asked: Open the page on auth.example.com in your browser?",
      `opened: ${longUrl}`,
      "shown",
    ]);
    expect(shown()).toContain(longUrl);
  });

  it("declines without opening anything when the user says no, and cancels on Ctrl-C", async () => {
    const no = consentIo(false);
    expect(await askUrlConsent({ server, message: "Sign in", url: longUrl }, no.io)).toBe("decline");
    expect(no.events.some((e) => e.startsWith("opened"))).toBe(false);
    const ctrlC = consentIo(CANCELLED);
    expect(await askUrlConsent({ server, message: "Sign in", url: longUrl }, ctrlC.io)).toBe("cancel");
    expect(ctrlC.events.some((e) => e.startsWith("opened"))).toBe(false);
  });

  it("prints the URL instead of opening it with --no-browser", async () => {
    const { io, events, shown } = consentIo(true, { noBrowser: true });
    expect(await askUrlConsent({ server, message: "Sign in", url: longUrl }, io)).toBe("accept");
    expect(events.some((e) => e.startsWith("opened"))).toBe(false);
    expect(shown()).toContain(`Open this page in your browser:\n  ${longUrl}\n`);
  });

  it("prints the URL when the browser cannot be opened, and still accepts", async () => {
    const { io, shown } = consentIo(true, { openFails: true });
    expect(await askUrlConsent({ server, message: "Sign in", url: longUrl }, io)).toBe("accept");
    expect(shown()).toContain(`Could not open a browser (no browser found). Open this page yourself:\n  ${longUrl}\n`);
  });

  it("declines a URL that is not http(s) without asking", async () => {
    const { io, events } = consentIo(true);
    expect(await askUrlConsent({ server, message: "Open", url: "file:///etc/passwd" }, io)).toBe("decline");
    expect(events).toEqual(["shown"]);
  });

  it("declines a URL with user-info without asking, and asks for the same URL without it", async () => {
    const refused = consentIo(true);
    const url = "https://mcp.example.com@evil.example/connect";
    expect(await askUrlConsent({ server, message: "Open", url }, refused.io)).toBe("decline");
    expect(refused.events).toEqual(["shown"]);
    expect(refused.shown()).toContain("the site is evil.example. It will not be opened.");
    const shown = consentIo(true);
    expect(await askUrlConsent({ server, message: "Open", url: "https://evil.example/connect" }, shown.io)).toBe(
      "accept",
    );
    expect(shown.events).toContain("opened: https://evil.example/connect");
  });
});
