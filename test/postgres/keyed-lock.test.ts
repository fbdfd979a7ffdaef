import { spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { PostgresKeyedLock } from "../../src/postgres/index.js";
import { runKeyedLockContract } from "../stores/keyed-lock.contract.js";
import { recordingLogger } from "../support/recording-logger.js";
import { testDatabase } from "./database.js";

const db = await testDatabase();

describe.skipIf(db === undefined)("PostgreSQL", () => {
  const { url, freshSchema } = db as NonNullable<typeof db>;
  // Locks need no table: the schema only names the keys, so no two calls share one.
  const pools: pg.Pool[] = [];
  afterAll(async () => {
    for (const pool of pools) await pool.end();
  });
  /** A pool of its own, as each instance of a fleet has. */
  const instancePool = () => {
    const pool = new pg.Pool({ connectionString: url, max: 4 });
    pools.push(pool);
    return pool;
  };

  runKeyedLockContract("PostgreSQL", (count) => {
    const schema = freshSchema();
    return Array.from({ length: count }, () => new PostgresKeyedLock({ pool: instancePool(), schema }));
  });

  describe("PostgresKeyedLock", () => {
    it("is freed when the instance holding it is killed, and not before", async () => {
      const schema = freshSchema();
      const fixture = fileURLToPath(new URL("./fixtures/hold-lock.ts", import.meta.url));
      const holder = spawn(process.execPath, ["--import", "tsx", fixture, url, schema, "grant:alice:github"], {
        stdio: ["ignore", "pipe", "inherit"],
      });
      try {
        const [line] = (await once(holder.stdout, "data")) as [Buffer];
        expect(line.toString()).toBe("held\n");
        const lock = new PostgresKeyedLock({ pool: instancePool(), schema });
        await expect(
          lock.withLock("grant:alice:github", { leaseMs: 60_000, waitMs: 300 }, async () => "too early"),
        ).rejects.toMatchObject({ code: "LOCK_TIMEOUT" });
        holder.kill("SIGKILL");
        await once(holder, "exit");
        expect(
          await lock.withLock("grant:alice:github", { leaseMs: 60_000, waitMs: 10_000 }, async () => "after"),
        ).toBe("after");
      } finally {
        holder.kill("SIGKILL");
      }
    });

    it("says so in the log when the holder's connection is cut, lets the next holder in, and goes on", async () => {
      const schema = freshSchema();
      const logger = recordingLogger();
      const pool = instancePool();
      const lock = new PostgresKeyedLock({ pool, schema, logger });
      const other = new PostgresKeyedLock({ pool: instancePool(), schema });
      let release = (): void => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      let pid = 0;
      const holding = lock.withLock("cut", { leaseMs: 60_000, waitMs: 5_000 }, async () => {
        // The backend holding this key's advisory lock (a 64-bit key shows as classid, objid).
        const { rows } = await pool.query<{ pid: number }>(
          `SELECT pid FROM pg_locks
           WHERE locktype = 'advisory' AND granted AND objsubid = 1
             AND ((classid::bigint << 32) | objid::bigint) = hashtextextended($1, 0)`,
          [`mcp-handoff lock ${schema}.mcp_handoff_ cut`],
        );
        pid = rows[0]?.pid ?? 0;
        await held;
        return "finished";
      });
      await expect.poll(() => pid).toBeGreaterThan(0);
      await pool.query("SELECT pg_terminate_backend($1)", [pid]);
      expect(await other.withLock("cut", { leaseMs: 60_000, waitMs: 10_000 }, async () => "next")).toBe("next");
      await expect.poll(() => logger.entries.map((entry) => entry.level)).toContain("error");
      expect(logger.entries.find((entry) => entry.level === "error")?.message).toContain('lock "cut"');
      release();
      expect(await holding).toBe("finished");
      expect(await lock.withLock("cut", { leaseMs: 60_000, waitMs: 5_000 }, async () => "again")).toBe("again");
    });

    it("refuses a lease or wait that is no number of ms, without taking a connection", async () => {
      const lock = new PostgresKeyedLock({ pool: instancePool(), schema: freshSchema() });
      for (const options of [
        { leaseMs: Number.NaN, waitMs: 1 },
        { leaseMs: 1, waitMs: -1 },
      ]) {
        await expect(lock.withLock("k", options, async () => 1)).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
      }
    });
  });
});
