/**
 * The command against a real stdio server (test/cli/fixtures/server.ts, on our McpServer), run
 * in-process with scripted answers, and once as the real executable.
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { ExitCode } from "../../src/cli/exit-codes.js";
import { run } from "../../src/cli/run.js";
import { type Answer, fakeIo } from "./support.js";

const fixture = fileURLToPath(new URL("./fixtures/server.ts", import.meta.url));
const main = fileURLToPath(new URL("../../src/cli/main.ts", import.meta.url));
const server = ["--", process.execPath, "--import", "tsx", fixture];

async function handoff(argv: string[], answers: Answer[] = []) {
  const io = fakeIo(answers);
  const code = await run([...argv, ...server], io);
  return { code, out: io.out(), err: io.err(), io };
}

describe("handoff against a stdio server", () => {
  it("lists tools", async () => {
    const { code, out } = await handoff(["tools"]);
    expect(code).toBe(ExitCode.Success);
    expect(out).toContain("echo — Echo\n  Repeats the text.\n  Arguments: text: string (required)");
    expect(out).toContain("connected\n  Needs the user to sign in on a web page first.");
  });

  it("calls a tool with JSON arguments, and prints raw results with --json", async () => {
    expect(await handoff(["call", "echo", '{"text":"hello there"}'])).toMatchObject({
      code: ExitCode.Success,
      out: "hello there\n",
    });
    const json = await handoff(["call", "fail", "--json"]);
    expect(json.code).toBe(ExitCode.ToolError);
    // Raw: the result as the server sent it, `_meta` included where the revision adds one.
    expect(JSON.parse(json.out)).toMatchObject({ content: [{ type: "text", text: "it broke" }], isError: true });
  });

  it("answers the server's form at the prompt, with its default kept", async () => {
    const { code, out, io } = await handoff(["call", "ask"], ["accept", "Ada", "green"]);
    expect(code).toBe(ExitCode.Success);
    expect(JSON.parse(out)).toEqual({ action: "accept", content: { name: "Ada", colour: "green" } });
    expect(io.prompter.asked[1]).toMatchObject({ kind: "text", prompt: { message: "Name", initialValue: "Ada" } });
  });

  it("goes through a -32042 hand-off: consent, browser, retry", async () => {
    const { code, out, io } = await handoff(["call", "connected"], [true, true]);
    expect(code).toBe(ExitCode.Success);
    expect(out).toBe("signed in\n");
    expect(io.opened).toEqual(["https://example.com/connect?id=1"]);
  });

  it("reads a resource and reports an unknown tool as a protocol error", async () => {
    expect(await handoff(["read", "file:///readme.txt"])).toMatchObject({
      code: ExitCode.Success,
      out: "hello from the fixture\n",
    });
    const unknown = await handoff(["call", "nope"]);
    expect(unknown.code).toBe(ExitCode.Protocol);
    expect(unknown.err).toMatch(/error -32602/);
  });

  it("runs as an executable: no terminal on stdin, so the form is declined and it exits 5", async () => {
    const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = execFile(
        process.execPath,
        ["--import", "tsx", main, "call", "ask", ...server],
        { encoding: "utf8" },
        (error, stdout, stderr) => resolve({ code: error ? (error.code as number) : 0, stdout, stderr }),
      );
      child.stdin?.end();
    });
    expect(result.code).toBe(ExitCode.Declined);
    expect(JSON.parse(result.stdout)).toEqual({ action: "decline" });
    expect(result.stderr).toContain("Fixture Server (fixture) asked for information, but stdin is not a terminal");
  });
});
