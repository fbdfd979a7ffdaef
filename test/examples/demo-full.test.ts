import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { chromiumPath, hasChromium } from "../../examples/demo/full/chromium.js";
import { runFullDemo } from "../../examples/demo/full/story.js";

const run = promisify(execFile);

/** Each needle is found after the one before it: a missing or out-of-order step names itself. */
function expectInOrder(lines: string[], needles: string[]): void {
  let at = -1;
  for (const needle of needles) {
    const next = lines.findIndex((line, index) => index > at && line.includes(needle));
    expect(next, `"${needle}" after line ${at}`).toBeGreaterThan(at);
    at = next;
  }
}

/** The steps that differ by era: the revision negotiated, the wire form named, how the retry comes. */
const ERA = {
  "2026-07-28": {
    negotiated: "client   negotiated revision 2026-07-28 (server/discover, no session)",
    form: "client   input required: URL elicitation in InputRequiredResult",
    // The retry goes right after consent, and the server holds it until the page is done.
    afterConsent: ["client   retrying list_items at once with the server's requestState; the server holds it"],
    afterCallback: [],
  },
  "2025-11-25": {
    negotiated: "client   negotiated revision 2025-11-25 (initialize, one session)",
    form: "client   URL elicitation required: error -32042",
    afterConsent: [],
    afterCallback: [": completed"],
  },
} as const;

// `auto` is what `npm run demo` does: headless Chromium where installed (CI installs it), else the
// scripted user agent with a note saying so; `scripted` runs the same story without a browser. By default the client
// probes and speaks 2026-07-28; `--revision 2025-11-25` pins the stateful era. Generous timeouts:
// a browser start on a busy machine is slow, and nothing here is timed.
describe.each([
  { browser: "auto", revision: undefined },
  { browser: "scripted", revision: undefined },
  { browser: "auto", revision: "2025-11-25" },
] as const)(
  "npm run demo (the full story; also --full), browser $browser, revision $revision",
  ({ browser, revision }) => {
    it("tells the whole hand-off in order, and the client never prints the third-party token", async () => {
      const lines: string[] = [];
      const result = await runFullDemo((line) => lines.push(line), { browser, ...(revision ? { revision } : {}) });
      const era = ERA[revision ?? "2026-07-28"];
      const where =
        browser === "scripted"
          ? "setup    the browser steps run in the scripted HTTP user agent"
          : hasChromium()
            ? "setup    the browser steps run in headless Chromium"
            : `note     no Chromium at ${chromiumPath()}: the browser steps run in the scripted HTTP user agent instead`;

      expect(result).toMatchObject({ text: "alice-repo-1, alice-repo-2", isError: false });
      expectInOrder(lines, [
        "setup    MCP authorization server (oidc-provider)",
        "setup    third-party service",
        "setup    MCP server at http://127.0.0.1:",
        where,
        "client   got an MCP access token for alice",
        era.negotiated,
        "client   calling list_items",
        "server   list_items for alice: asking ctx.credentials",
        era.form,
        "URL:  http://127.0.0.1:",
        "the (scripted) user answers: yes",
        ...era.afterConsent,
        "browser    GET MCP server /connect/",
        "MCP authorization server /interaction/",
        "(logs in as alice)",
        "(confirms it is their account)",
        "third party /interaction/",
        "(logs in as alice)",
        "(consents)",
        'server   the callback stored alice\'s "items" token in the encrypted vault',
        ...era.afterCallback,
        "server   list_items for alice: asking ctx.credentials",
        "server   found the grant in the vault",
        "client   the call returned: alice-repo-1, alice-repo-2",
        // The end: alice's connections listed, the third party disconnected and revoked there.
        "client   calling connections_list {}",
        "client   | - items (items); account alice; scopes openid repo; connected ",
        'client   calling connections_disconnect { provider: "items" }',
        "third party  revoked the refresh token of alice at its revocation endpoint (RFC 7009)",
        "client   the server says: Disconnected items: items revoked the access, and this server deleted its copy.",
      ]);
      expect(result.revocations).toEqual([{ kind: "refresh token", accountId: "alice" }]);
      // The user was asked once, and the tool found the grant only on the retry.
      expect(lines.filter((line) => line.includes("the (scripted) user answers"))).toHaveLength(1);
      expect(lines.filter((line) => line.includes("server   found the grant"))).toHaveLength(1);
      // The browser's own view of the end: the callback page, then what it says.
      expectInOrder(lines, [
        'server   the callback stored alice\'s "items" token',
        "browser    GET MCP server /connect/callback/items → 200",
        "browser  the last page says: Done — return to your app.",
      ]);

      const token = result.storedSecret;
      expect(token).toBeTruthy();
      expect(lines.filter((line) => line.startsWith("client")).join("\n")).not.toContain(token);
      // Nothing printed at all carries it, nor a query string with a code in it.
      expect(lines.join("\n")).not.toContain(token);
      expect(lines.join("\n")).not.toMatch(/[?&]code=/);
    }, 120_000);
  },
);

describe("npm run demo", () => {
  it("runs the full story, says so in a note where no Chromium is installed, and refuses --interactive with --full", async () => {
    const args = ["--import", "tsx", "examples/demo/main.ts"];
    const env = { ...process.env, CHROMIUM_PATH: "/nonexistent/chromium" };
    const { stdout, stderr } = await run(process.execPath, args, { cwd: process.cwd(), env, timeout: 60_000 });
    expect(stderr).toBe("");
    expect(stdout).toContain("client   negotiated revision 2026-07-28");
    expect(stdout).toContain(
      "note     no Chromium at /nonexistent/chromium: the browser steps run in the scripted HTTP user agent instead",
    );
    expect(stdout).toContain("done     alice's items came back");
    expect(stdout).toContain("third party  revoked the refresh token of alice at its revocation endpoint (RFC 7009)");
    const refused = await run(process.execPath, [...args, "--full", "--interactive"], { cwd: process.cwd() }).then(
      () => undefined,
      (error: { code?: number; stderr?: string }) => error,
    );
    expect(refused?.code).toBe(2);
    expect(refused?.stderr).toContain("--interactive is not supported with --full");
  }, 120_000);
});
