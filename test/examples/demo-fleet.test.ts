/**
 * `npm run demo -- --fleet` as a user runs it: the story through HAProxy and three instances ends
 * with alice's items and exit code 0, says which instance served each step and which one it
 * killed, and leaves nothing behind (no port listening, no Redis key, no PostgreSQL schema).
 * Skipped with the reason outside CI when haproxy, Redis or PostgreSQL is missing.
 */
import { execFile } from "node:child_process";
import { connect } from "node:net";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { fleetServicesAnswer } from "../support/fleet-services.js";
import { databaseUrl, redisUrl } from "../support/services.js";

const run = promisify(execFile);

async function demo(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return run(process.execPath, ["--import", "tsx", "examples/demo/main.ts", ...args], {
    env: { ...process.env, MCP_HANDOFF_REDIS_URL: redisUrl(), MCP_HANDOFF_DATABASE_URL: databaseUrl() },
    timeout: 110_000,
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code?: number; stdout?: string; stderr?: string }) => ({
      code: error.code ?? -1,
      stdout: error.stdout ?? "",
      stderr: error.stderr ?? "",
    }),
  );
}

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

/** Each needle is found after the one before it. */
function expectInOrder(lines: string[], needles: (string | RegExp)[]): void {
  let at = -1;
  for (const needle of needles) {
    const next = lines.findIndex(
      (line, index) => index > at && (typeof needle === "string" ? line.includes(needle) : needle.test(line)),
    );
    expect(next, `"${needle}" after line ${at}`).toBeGreaterThan(at);
    at = next;
  }
}

describe("npm run demo -- --fleet: bad usage", () => {
  it("refuses --fleet with --simple or --browser in one line and exit code 2, starting nothing", async () => {
    for (const extra of [["--simple"], ["--browser", "chromium"]]) {
      const exit = await demo(["--fleet", ...extra]);
      expect(exit.code).toBe(2);
      expect(exit.stdout).toBe("");
      expect(exit.stderr.trim()).toBe(
        "--fleet runs the full story in the scripted browser; it takes only --revision. See npm run demo -- --help.",
      );
    }
  });
});

const available = await fleetServicesAnswer();

describe.skipIf(!available)("npm run demo -- --fleet", () => {
  it("tells who served each step, kills the stream's instance, returns alice's items and cleans up", async () => {
    const exit = await demo(["--fleet"]);
    expect(exit.stderr).not.toContain("demo failed");
    expect(exit.code).toBe(0);
    const lines = exit.stdout.split("\n");
    expectInOrder(lines, [
      "setup    PostgreSQL schema fleet_",
      "setup    HAProxy at http://127.0.0.1:",
      /^client {3}initialize served by instance [ABC]; revision 2025-11-25$/,
      /^client {3}GET stream \(server-to-client messages\) held by instance [ABC]$/,
      /^client {3}tools\/call list_items served by instance [ABC]: a hand-off to http:\/\/127\.0\.0\.1:/,
      /^fleet {4}SIGKILL instance [ABC], which holds the client's GET stream; the browser goes on at once$/,
      /^client {3}GET stream resumed on instance [ABC] with Last-Event-ID \S+, same session$/,
      /^client {3}the retried tools\/call served by instance [ABC] returned: alice-repo-1, alice-repo-2$/,
      "cleanup  HAProxy and the instances stopped",
      /^done {5}alice's items came back; instances [ABC, ]+ served the steps, [ABC] was killed midway\.$/,
    ]);

    // The callback and the stream's resumption race each other: each happens once, in either order.
    expect(lines.filter((l) => /\/connect\/callback\/items → 200 {2}\[instance [ABC]\]$/.test(l))).toHaveLength(1);

    const setup = lines.find((l) => l.startsWith("setup    PostgreSQL schema")) ?? "";
    const [, schema, prefix] = /schema (\S+) \(migrated\), Redis key prefix (\S+)$/.exec(setup) ?? [];
    const ports = lines
      .filter((l) => /^setup {4}(instance [ABC] at|HAProxy at)/.test(l))
      .map((l) => Number(/127\.0\.0\.1:(\d+)/.exec(l)?.[1]));
    expect(ports).toHaveLength(4);
    for (const port of ports) expect(await listening(port), `port ${port}`).toBe(false);

    const { Redis } = await import("ioredis");
    const redis = new Redis(redisUrl(), { maxRetriesPerRequest: 1 });
    try {
      const [, keys] = await redis.scan("0", "MATCH", `${prefix}*`, "COUNT", 10_000);
      expect(keys).toEqual([]);
    } finally {
      redis.disconnect();
    }
    const { default: pg } = await import("pg");
    const client = new pg.Client({ connectionString: databaseUrl() });
    await client.connect();
    try {
      const found = await client.query("SELECT 1 FROM information_schema.schemata WHERE schema_name = $1", [schema]);
      expect(found.rowCount).toBe(0);
    } finally {
      await client.end();
    }
  }, 120_000);
});
