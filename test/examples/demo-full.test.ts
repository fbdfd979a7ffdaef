import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { runFullDemo } from "../../examples/demo/full/story.js";

const run = promisify(execFile);

describe("npm run demo (the full story; also --full)", () => {
  it("tells the whole hand-off in order, and the client never prints the third-party token", async () => {
    const lines: string[] = [];
    const result = await runFullDemo((line) => lines.push(line));

    expect(result).toMatchObject({ text: "alice-repo-1, alice-repo-2", isError: false });
    const order = [
      "setup    MCP authorization server (oidc-provider)",
      "setup    third-party service",
      "setup    MCP server at http://127.0.0.1:",
      "client   got an MCP access token for alice",
      "client   calling list_items",
      "server   list_items for alice: asking ctx.credentials",
      "URL:  http://127.0.0.1:",
      "the (scripted) user answers: yes",
      "browser    GET MCP server /connect/",
      "MCP authorization server /interaction/",
      "(logs in as alice)",
      "third party /interaction/",
      "(logs in as alice)",
      "(consents)",
      'server   the callback stored alice\'s "items" token in the encrypted vault',
      "browser    GET MCP server /connect/callback → 200",
      ": completed",
      "server   found the grant in the vault",
      "client   the call returned: alice-repo-1, alice-repo-2",
    ];
    // Each step is found after the one before it: a missing or out-of-order step names itself.
    let at = -1;
    for (const needle of order) {
      const next = lines.findIndex((line, index) => index > at && line.includes(needle));
      expect(next, `"${needle}" after line ${at}`).toBeGreaterThan(at);
      at = next;
    }

    const token = result.storedSecret;
    expect(token).toBeTruthy();
    expect(lines.filter((line) => line.startsWith("client")).join("\n")).not.toContain(token);
    // Nothing printed at all carries it, nor a query string with a code in it.
    expect(lines.join("\n")).not.toContain(token);
    expect(lines.join("\n")).not.toMatch(/[?&]code=/);
  });

  it("is what `npm run demo` runs, and refuses --interactive with --full", async () => {
    const args = ["--import", "tsx", "examples/demo/main.ts"];
    const { stdout } = await run(process.execPath, args, { cwd: process.cwd(), timeout: 60_000 });
    expect(stdout).toContain("done     alice's items came back");
    const refused = await run(process.execPath, [...args, "--full", "--interactive"], { cwd: process.cwd() }).then(
      () => undefined,
      (error: { code?: number; stderr?: string }) => error,
    );
    expect(refused?.code).toBe(2);
    expect(refused?.stderr).toContain("--interactive is not supported with --full");
  });
});
