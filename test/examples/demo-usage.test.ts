import { execFile, execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const run = promisify(execFile);

interface Exit {
  code: number;
  killed: boolean;
  stdout: string;
  stderr: string;
}

/**
 * Runs `npm run demo -- ...args` (as tsx runs it) to its end. A demo that does not end by itself
 * is killed at `timeout` and says so in `killed`: a server left listening keeps Node running.
 */
async function demo(args: string[], env: Record<string, string> = {}, timeout = 60_000): Promise<Exit> {
  return run(process.execPath, ["--import", "tsx", "examples/demo/main.ts", ...args], {
    cwd: process.cwd(),
    env: { ...process.env, ...env },
    timeout,
  }).then(
    ({ stdout, stderr }) => ({ code: 0, killed: false, stdout, stderr }),
    (error: { code?: number; killed?: boolean; stdout?: string; stderr?: string }) => ({
      code: error.code ?? -1,
      killed: error.killed === true,
      stdout: error.stdout ?? "",
      stderr: error.stderr ?? "",
    }),
  );
}

/** Whether something accepts a TCP connection at 127.0.0.1:`port`. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

const lines = (text: string) => text.split("\n").filter((line) => line !== "");

describe("npm run demo -- --help", () => {
  it("prints the usage, every option in it, and starts nothing", async () => {
    for (const flag of ["--help", "-h"]) {
      const exit = await demo([flag]);
      expect(exit).toMatchObject({ code: 0, killed: false, stderr: "" });
      expect(exit.stdout).toMatch(/^Usage: npm run demo -- \[options\]/);
      for (const option of ["--full", "--simple", "--interactive", "--revision", "--browser", "--help"]) {
        expect(exit.stdout).toContain(option);
      }
      expect(exit.stdout).not.toContain("setup ");
    }
  });
});

describe("npm run demo, bad usage", () => {
  it.each([
    { args: ["--bogus"], says: "Unknown option '--bogus'" },
    {
      args: ["--revision", "1999-01-01"],
      says: "--revision 1999-01-01 is not supported; use one of 2026-07-28, 2025-11-25",
    },
    { args: ["--simple", "--revision", "2024-11-05"], says: "--revision 2024-11-05 is not supported" },
    { args: ["--browser", "firefox"], says: "--browser firefox is not supported; use one of auto, chromium, scripted" },
    { args: ["--simple", "--browser", "chromium"], says: "--browser applies to the full story only" },
    { args: ["--simple", "--full"], says: "--simple and --full are two stories; choose one." },
    { args: ["--revision"], says: "Option '--revision <value>' argument missing" },
    { args: ["stray"], says: "Unexpected argument 'stray'" },
  ])("$args: one line on stderr, exit code 2, no server started", async ({ args, says }) => {
    const exit = await demo(args, {}, 30_000);
    expect(exit).toMatchObject({ code: 2, killed: false, stdout: "" });
    expect(lines(exit.stderr)).toHaveLength(1);
    expect(exit.stderr).toContain(says);
    expect(exit.stderr).toContain("See npm run demo -- --help.");
  });

  it("an accepted revision is not refused: --simple --revision 2025-11-25 runs", async () => {
    const exit = await demo(["--simple", "--revision", "2025-11-25"]);
    expect(exit).toMatchObject({ code: 0, killed: false, stderr: "" });
    expect(exit.stdout).toContain("(protocol 2025-11-25)");
  });
});

describe("npm run demo, a step that fails", () => {
  const scratch = mkdtempSync(join(tmpdir(), "demo-failure-"));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it("says so in one line, exits 1 by itself, and leaves no server listening and no browser running", async () => {
    // The browser (headless Chromium where installed) keeps its profile under TMPDIR: a Chromium
    // left running would name this directory in its command line.
    const exit = await demo([], { HANDOFF_DEMO_FAIL: "sign-in", TMPDIR: scratch });
    expect(exit.killed).toBe(false);
    expect(exit.code).toBe(1);
    expect(lines(exit.stderr)).toEqual(["demo failed: sign-in failed (HANDOFF_DEMO_FAIL=sign-in)"]);
    // The failure came after every server had started and the browser was open.
    const ports = [...exit.stdout.matchAll(/http:\/\/127\.0\.0\.1:(\d+)/g)].map((m) => Number(m[1]));
    expect(new Set(ports).size).toBe(3);
    expect(exit.stdout).toMatch(/setup {4}the browser steps run in|note {5}no Chromium/);
    for (const port of new Set(ports)) expect(await listening(port)).toBe(false);
    const processes = execFileSync("ps", ["-eo", "args"], { encoding: "utf8" });
    expect(processes).not.toContain(scratch);
  }, 90_000);

  it("--simple: says so in one line, exits 1 by itself, and leaves the server closed", async () => {
    const exit = await demo(["--simple"], { HANDOFF_DEMO_FAIL: "connect" });
    expect(exit).toMatchObject({ code: 1, killed: false });
    expect(lines(exit.stderr)).toEqual(["demo failed: connect failed (HANDOFF_DEMO_FAIL=connect)"]);
    const port = Number(/listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(exit.stdout)?.[1]);
    expect(port).toBeGreaterThan(0);
    expect(await listening(port)).toBe(false);
  });

  it("the positive control: without the injected failure the same run completes", async () => {
    const exit = await demo(["--browser", "scripted"], { TMPDIR: scratch });
    expect(exit).toMatchObject({ code: 0, killed: false, stderr: "" });
    expect(exit.stdout).toContain("done     alice's items came back");
  }, 90_000);
});
