/**
 * What the command says when a stdio server does not speak MCP on stdout, or does not answer in
 * time: the cause, not how the process ended afterwards.
 */
import { describe, expect, it } from "vitest";
import { ExitCode } from "../../src/cli/exit-codes.js";
import { run } from "../../src/cli/run.js";
import { fakeIo } from "./support.js";

const node = (script: string) => ["--", process.execPath, "-e", script];

async function handoff(argv: string[]) {
  const io = fakeIo();
  const code = await run(argv, io);
  return { code, out: io.out(), err: io.err() };
}

describe("a stdio server that fails to answer", () => {
  it("is named as writing something else than JSON-RPC on stdout, the line cut and escaped", async () => {
    const banner = `Starting \u001b[31mweather\u001b[0m server ${"on stdio ".repeat(20)}`;
    const { code, err } = await handoff(["tools", ...node(`console.log(${JSON.stringify(banner)})`)]);
    expect(code).toBe(ExitCode.Connection);
    expect(err).toMatch(
      /^handoff: the server process `.*` did not answer: line 1 of stdout is not JSON-RPC: "Starting \\u\{1b\}\[31mweather\\u\{1b\}\[0m server on stdio on stdio .*…" \(a stdio server writes only MCP messages on stdout, its logs on stderr\)\n$/,
    );
    expect(err).not.toContain("\u001b");
    expect(err).not.toContain("exited with code");
  });

  it("says it timed out after the --timeout, in seconds, rather than how the process was stopped", async () => {
    const { code, err } = await handoff(["tools", "--timeout", "1500", ...node("setInterval(() => {}, 1000)")]);
    expect(code).toBe(ExitCode.Connection);
    expect(err).toMatch(/did not answer: timed out after 1\.5 s\n$/);
    expect(err).not.toMatch(/SIGTERM|stderr is above/);
  });

  it("warns about a stray line that came before the answer, and works", async () => {
    const fixture = new URL("./fixtures/server.ts", import.meta.url).pathname;
    const script = `console.log("Weather server ready"); await import(${JSON.stringify(fixture)});`;
    const io = fakeIo();
    const code = await run(
      ["tools", "--", process.execPath, "--import", "tsx", "--input-type=module", "-e", script],
      io,
    );
    expect(code).toBe(ExitCode.Success);
    expect(io.out()).toContain("echo — Echo");
    expect(io.err()).toBe(
      `handoff: warning: the server's line 1 of stdout is not JSON-RPC: "Weather server ready" (a stdio server writes only MCP messages on stdout, its logs on stderr); ignored\n`,
    );
  });

  it("still reports a server that exits by itself with its exit code (positive control)", async () => {
    const { code, err } = await handoff(["tools", ...node("process.exit(7)")]);
    expect(code).toBe(ExitCode.Connection);
    expect(err).toMatch(/exited with code 7 before answering/);
  });
});
