/**
 * `--env`: a stdio server started by the command gets only the environment a program needs, plus
 * the variables given with `--env NAME=VALUE` or passed through with `--env NAME`.
 */
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it, vi } from "vitest";
import { parseCommandLine } from "../../src/cli/args.js";
import { ExitCode } from "../../src/cli/exit-codes.js";
import { run } from "../../src/cli/run.js";
import { fakeIo } from "./support.js";

const fixture = fileURLToPath(new URL("./fixtures/env-server.ts", import.meta.url));
const server = ["--", process.execPath, "--import", "tsx", fixture];

async function reportEnv(name: string, options: string[]) {
  const io = fakeIo([]);
  const code = await run(["call", "env", JSON.stringify({ name }), ...options, ...server], io);
  return { code, out: io.out(), err: io.err() };
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("handoff call --env", () => {
  it("gives the stdio server a variable, which it does not get from the CLI's environment otherwise", async () => {
    vi.stubEnv("HANDOFF_TEST_WEATHER_API", "from-the-shell");
    // Positive control: exported in the CLI's environment, yet not passed on without --env.
    expect(await reportEnv("HANDOFF_TEST_WEATHER_API", [])).toMatchObject({ code: 0, out: "(unset)\n" });
    expect(await reportEnv("HANDOFF_TEST_WEATHER_API", ["--env", "HANDOFF_TEST_WEATHER_API=k=1"])).toMatchObject({
      code: ExitCode.Success,
      out: "k=1\n",
    });
  });

  it("passes one variable through from the CLI's environment with --env NAME", async () => {
    vi.stubEnv("HANDOFF_TEST_WEATHER_API", "from-the-shell");
    expect(await reportEnv("HANDOFF_TEST_WEATHER_API", ["--env", "HANDOFF_TEST_WEATHER_API"])).toMatchObject({
      code: ExitCode.Success,
      out: "from-the-shell\n",
    });
  });

  it("is repeatable, a later value for the same name winning", () => {
    const parsed = parseCommandLine(["call", "t", "--env", "A=1", "--env", "B", "--env", "A=2", "--", "node", "s.js"], {
      B: "b",
    });
    expect(parsed).toMatchObject({ kind: "command", target: { kind: "command", env: { A: "2", B: "b" } } });
  });

  it("is a usage error (exit 2) when malformed, unset, or given an http target, never showing the value", async () => {
    for (const [options, message] of [
      [["--env", "=hunter2"], '--env "=…": expected NAME=VALUE or NAME'],
      [["--env", "9X=hunter2"], '--env "9X=…": expected NAME=VALUE or NAME'],
      [["--env", "HANDOFF_TEST_NOT_SET"], "--env HANDOFF_TEST_NOT_SET: HANDOFF_TEST_NOT_SET is not set here"],
    ] as const) {
      const { code, err } = await reportEnv("X", [...options]);
      expect(code).toBe(ExitCode.Usage);
      expect(err.split("\n")[0]).toContain(message);
      expect(err).not.toContain("hunter2");
    }
    const io = fakeIo([]);
    expect(await run(["call", "t", "https://mcp.example.com/mcp", "--env", "A=1"], io)).toBe(ExitCode.Usage);
    expect(io.err()).toContain("--env applies to stdio servers only");
  });
});
