// The world's authorization servers run oidc-provider in development mode on purpose; its notices are noise here.
import "../../examples/demo/quiet-dev-servers.js";

import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { confirmationOf, promptOf } from "../../examples/demo/full/browser.js";
import { clip, runFullDemo } from "../../examples/demo/full/story.js";
import { visibleText } from "../../examples/demo/full/user-agent.js";

const run = promisify(execFile);

/** What a person reads as a sentence: no markup, styles or entities, single spaces, closing punctuation. */
function expectSentence(text: string | undefined): void {
  expect(text).toBeDefined();
  expect(text).toMatch(/^[A-Z][^<>{}]*[.!?…]$/);
  expect(text).not.toMatch(/\s{2}|&[a-z#0-9]+;|\s[.,;:!?]/i);
}

/** Every address in `lines`, with the line that printed it. */
function urls(lines: string[]): { url: URL; line: string }[] {
  return lines.flatMap((line) =>
    [...line.matchAll(/https?:\/\/[^\s)"'`]+/g)].map((m) => ({ url: new URL(m[0]), line })),
  );
}

describe("the full demo's narration", () => {
  it("names the hand-off by its id, runs every service on 127.0.0.1, and quotes the last page as a sentence", async () => {
    const lines: string[] = [];
    const result = await runFullDemo((line) => lines.push(line), { browser: "auto" });
    expect(result.isError).toBe(false);

    // The id the server issued (the last segment of its connect page's path), never a key made of the URL.
    const handoffs = lines.filter((line) => line.startsWith("client   hand-off "));
    expect(handoffs.length).toBeGreaterThan(0);
    const connectUrl =
      lines
        .find((line) => line.includes("URL:  http"))
        ?.split("URL:  ")[1]
        ?.trim() ?? "";
    const id = new URL(connectUrl).pathname.split("/").pop();
    for (const line of handoffs) {
      expect(line).toMatch(/^client {3}hand-off [A-Za-z0-9_-]+: [a-z]+$/);
      expect(line).toContain(`hand-off ${id}:`);
    }

    // Every address printed (the issuers of both OAuth servers included) is on 127.0.0.1.
    const printed = urls(lines);
    expect(printed.length).toBeGreaterThan(3);
    for (const { url, line } of printed) expect(url.hostname, line).toBe("127.0.0.1");
    const issuers = lines.filter((line) => line.startsWith("setup ") && line.includes(" at http"));
    expect(issuers).toHaveLength(3);

    const quoted = lines.find((line) => line.startsWith("browser  the last page says: "));
    expectSentence(quoted?.slice("browser  the last page says: ".length));
  }, 120_000);
});

describe("npm run demo -- --simple, the narration", () => {
  it("quotes the page after saving as a sentence, without the page's title or heading, and stays on 127.0.0.1", async () => {
    const { stdout } = await run(process.execPath, ["--import", "tsx", "examples/demo/main.ts", "--simple"], {
      cwd: process.cwd(),
      timeout: 60_000,
    });
    const lines = stdout.split("\n");
    const quoted = lines.find((line) => line.startsWith("browser  the page says: "))?.slice(24);
    expectSentence(quoted);
    // The local key page's own words: what happened and what to do now.
    expect(quoted).toBe("Done — return to your app. You can close this tab.");
    for (const { url, line } of urls(lines)) expect(url.hostname, line).toBe("127.0.0.1");
  }, 90_000);
});

describe("reading the pages", () => {
  it("visibleText: the text between blocks is spaced, inline markup joins, styles, scripts and the heading go", () => {
    const html =
      '<!doctype html><html><head><title>Items</title><style>:root{--accent:#123}</style></head><body class="page">' +
      '<header><img alt="" src="data:,"><span>Items (demo)</span></header><h1 class="title">Connected</h1>' +
      "<p>Your <strong>items</strong> account is linked.</p><p>Return to <em>your app</em>; you can close this tab.</p>" +
      "<script>1</script><footer>Tom &amp; Jerry&#39;s &#x2014; ok</footer></body></html>";
    expect(visibleText(html)).toBe(
      "Items (demo) Your items account is linked. Return to your app; you can close this tab. Tom & Jerry's — ok",
    );
  });

  it("finds the connect confirmation and oidc-provider's forms by their fields, whatever the wording or attribute order", () => {
    const restyled =
      '<main><h1 class="q">Link <b>items</b>?</h1><p>Account: <strong>alice@example.com</strong></p>' +
      '<form method="post" class="row"><input value="tok&amp;en" type="hidden" name="csrf">' +
      '<button type="submit" value="decline" name="action">Decline</button>' +
      '<button class="primary" value="connect" name="action">Connect</button></form></main>';
    expect(confirmationOf(restyled)).toEqual({
      question: "Link items?",
      text: "Link items? Account: alice@example.com Decline Connect",
      csrf: "tok&en",
    });
    // A page with a form that does not connect is not a confirmation.
    expect(confirmationOf(restyled.replace('value="connect"', 'value="other"'))).toBeUndefined();

    const login =
      '<form autocomplete="off" action=\'/interaction/abc?x=1&amp;y=2\' method="post">' +
      '<input type="hidden" value="login" name="prompt"><input name="login"></form>';
    expect(promptOf(login)).toEqual({ prompt: "login", action: "/interaction/abc?x=1&y=2" });
    expect(promptOf("<p>Done</p>")).toBeUndefined();
  });

  it("clip cuts a long text at a word and marks the cut; a short one stays whole", () => {
    expect(clip("Done. Return to your app.")).toBe("Done. Return to your app.");
    expect(clip("alpha beta gamma delta", 12)).toBe("alpha beta…");
  });
});
