/**
 * Runs `npm run bench`'s entry end to end for our implementation only, on one tiny workload, in
 * a child process (as `npm run bench` does, through tsx), and checks that it produced figures.
 * How fast they are is not checked.
 */
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
import type { RunResults } from "../../bench/results.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

function run(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "bench/run.ts", ...args], {
      cwd: ROOT,
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.once("error", reject);
    child.once("exit", (code) => resolve({ code, stderr }));
  });
}

it(
  "runs the stdio throughput workload for ours and reports a number for each figure",
  { timeout: 180_000 },
  async () => {
    const dir = await mkdtemp(join(tmpdir(), "bench-smoke-"));
    try {
      const json = join(dir, "results.json");
      const args = ["--only", "ours", "--workloads", "stdio-calls", "--rounds", "1", "--scale", "0.005"];
      const { code, stderr } = await run([...args, "--no-write", "--json", json]);
      expect(code, stderr).toBe(0);
      const results = JSON.parse(await readFile(json, "utf8")) as RunResults;
      expect(results.failures).toEqual([]);
      expect(results.implementations.map((impl) => impl.name)).toEqual(["ours"]);
      const figures = results.values["stdio-calls"] ?? {};
      expect(Object.keys(figures).sort()).toEqual(["inflight-1", "inflight-16", "inflight-256"]);
      for (const byImpl of Object.values(figures)) {
        const [value] = byImpl.ours ?? [];
        expect(typeof value).toBe("number");
        expect(value).toBeGreaterThan(0);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
);

it(
  "runs the HTTP throughput workload for ours and bare, with both splits, and reports a number for each",
  { timeout: 180_000 },
  async () => {
    const dir = await mkdtemp(join(tmpdir(), "bench-smoke-"));
    try {
      const json = join(dir, "results.json");
      const args = ["--only", "ours,bare", "--workloads", "http-calls", "--rounds", "1", "--scale", "0.005"];
      const { code, stderr } = await run([...args, "--no-write", "--json", json]);
      expect(code, stderr).toBe(0);
      const results = JSON.parse(await readFile(json, "utf8")) as RunResults;
      expect(results.failures).toEqual([]);
      for (const byContestant of Object.values(results.values["http-calls"] ?? {})) {
        expect(Object.keys(byContestant).sort()).toEqual(["bare", "bare@ours", "ours", "ours@bare"]);
        for (const [value] of Object.values(byContestant)) expect(value).toBeGreaterThan(0);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
);
