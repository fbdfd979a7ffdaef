/**
 * A URL long enough to scroll the consent screen's Host and Domain rows off the terminal: what
 * is left on screen when the question is asked is the end of the URL, which a server fills with
 * look-alike names. The question itself names the page's host, so the last thing the user reads
 * before answering is the real one. Control: a short URL on the server's domain is asked about
 * and opened as before.
 */
import { describe, expect, it } from "vitest";
import {
  createConsentPolicy,
  type InteractionContext,
  toUrlInteraction,
  type UrlInteraction,
} from "../../../src/interaction/client/index.js";

const SERVER = { name: "github-bridge", version: "1.0.0", title: "GitHub Bridge" };
/** A terminal of 80 columns and 24 rows. */
const COLUMNS = 80;
const SCREEN_ROWS = 24;
const ctx: InteractionContext = { signal: new AbortController().signal, userDone: () => {} };

function interaction(url: string, serverUrl: string): UrlInteraction {
  const result = toUrlInteraction(
    { kind: "elicitation", id: "e-1", url, message: "Connect your GitHub account." },
    SERVER,
    "request",
    serverUrl,
  );
  if ("ok" in result) throw new Error(result.reason);
  return result;
}

/** Asks about `page` with noBrowser on or off; what the terminal shows when the question comes, and what happened. */
async function ask(page: UrlInteraction, noBrowser = false) {
  let printed = "";
  const asked: string[] = [];
  const opened: string[] = [];
  const policy = createConsentPolicy({
    columns: COLUMNS,
    noBrowser,
    print: (text) => {
      printed += text;
    },
    confirm: async (question) => {
      asked.push(question);
      return true;
    },
    open: async (url) => {
      opened.push(url);
    },
  });
  const answer = await policy(page, ctx);
  // What the terminal shows as the question is asked (what is printed after the answer left out):
  // the last rows, as it wraps them, and the question's own row.
  const rows = `${printed.split(/Open this page|Opening the page/)[0]}${asked[0] ?? ""}`
    .split("\n")
    .flatMap((row) => row.match(/.{1,80}/gu) ?? [""]);
  return { answer, asked, opened, visible: rows.slice(-SCREEN_ROWS).join("\n") };
}

describe("the consent question names the page's host", () => {
  const longUrl = `https://login.evil.example/${"Host:accounts.github.com/".repeat(120)}`;

  it("attack: a URL that scrolls the Host row away still leaves the real host on screen, in the question", async () => {
    const page = interaction(longUrl, "https://mcp.evil.example/mcp");
    for (const noBrowser of [false, true]) {
      const { asked, visible } = await ask(page, noBrowser);
      expect(asked[0], String(noBrowser)).toContain("login.evil.example");
      expect(visible, String(noBrowser)).toContain("login.evil.example");
      expect(visible).toContain("accounts.github.com");
    }
  });

  it("control: a short URL on the server's domain is asked about with its host and opened", async () => {
    const page = interaction("https://mcp.example.com/connect/e-1", "https://mcp.example.com/mcp");
    const { answer, asked, opened, visible } = await ask(page);
    expect(answer).toBe("accept");
    expect(asked).toEqual(["Open the page on mcp.example.com in your browser?"]);
    expect(opened).toEqual(["https://mcp.example.com/connect/e-1"]);
    expect(visible).toContain("  Host: mcp.example.com");
  });
});
