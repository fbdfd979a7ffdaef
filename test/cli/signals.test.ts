/**
 * Quitting the `handoff` executable at once (a second Ctrl-C while it closes, SIGTERM, SIGHUP)
 * ends it and the stdio server it started, even a server that ignores SIGTERM and its stdin's end.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const main = fileURLToPath(new URL("../../src/cli/main.ts", import.meta.url));
const stubborn = fileURLToPath(new URL("./fixtures/stubborn-server.ts", import.meta.url));

interface Run {
  child: ChildProcess;
  stderr: () => string;
  waitFor: (pattern: RegExp) => Promise<RegExpExecArray>;
  exited: Promise<number | null>;
}

function start(): Run {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", main, "call", "hang", "--", process.execPath, "--import", "tsx", stubborn],
    { stdio: ["pipe", "pipe", "pipe"] },
  );
  let stderr = "";
  const waiters: (() => void)[] = [];
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
    for (const waiter of waiters.splice(0)) waiter();
  });
  const waitFor = async (pattern: RegExp): Promise<RegExpExecArray> => {
    for (;;) {
      const found = pattern.exec(stderr);
      if (found) return found;
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  };
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code, signal) => resolve(code ?? (signal === null ? null : -1))),
  );
  return { child, stderr: () => stderr, waitFor, exited };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Whether `pid` is gone within a few seconds (once killed, it is reaped by init shortly after). */
async function gone(pid: number): Promise<boolean> {
  for (let i = 0; i < 50; i++) {
    if (!alive(pid)) return true;
    await sleep(100);
  }
  return false;
}

describe("quitting at once", () => {
  it("a second Ctrl-C while the command closes the server ends both", async () => {
    const run = start();
    const pid = Number((await run.waitFor(/stubborn: pid (\d+)/))[1]);
    await run.waitFor(/stubborn: hanging/);
    run.child.kill("SIGINT");
    // The first Ctrl-C cancelled the call; closing the server has begun and would wait for it.
    await run.waitFor(/stubborn: stdin ended/);
    run.child.kill("SIGINT");
    expect(await run.exited).toBe(130);
    expect(await gone(pid)).toBe(true);
  });

  it.each([
    ["SIGTERM", 143],
    ["SIGHUP", 129],
  ] as const)("%s ends the command and its server", async (signal, code) => {
    const run = start();
    const pid = Number((await run.waitFor(/stubborn: pid (\d+)/))[1]);
    await run.waitFor(/stubborn: hanging/);
    run.child.kill(signal);
    expect(await run.exited).toBe(code);
    expect(await gone(pid)).toBe(true);
  });
});
