import { spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { RedisKeyedLock } from "../../src/redis/index.js";
import { runKeyedLockContract } from "../stores/keyed-lock.contract.js";
import { testRedis } from "./redis.js";

const redis = await testRedis();

describe.skipIf(redis === undefined)("Redis", () => {
  const { url, client, freshPrefix, instanceClient } = redis as NonNullable<typeof redis>;

  runKeyedLockContract("Redis", (count) => {
    const keyPrefix = freshPrefix();
    return Array.from({ length: count }, () => new RedisKeyedLock({ client: instanceClient(), keyPrefix }));
  });

  describe("RedisKeyedLock", () => {
    it("is freed when its lease runs out after the instance holding it was killed, and not before", async () => {
      const keyPrefix = freshPrefix();
      const fixture = fileURLToPath(new URL("./fixtures/hold-lock.ts", import.meta.url));
      const holder = spawn(
        process.execPath,
        ["--import", "tsx", fixture, url, keyPrefix, "grant:alice:github", "3000"],
        { stdio: ["ignore", "pipe", "inherit"] },
      );
      try {
        const [line] = (await once(holder.stdout, "data")) as [Buffer];
        expect(line.toString()).toBe("held\n");
        const lock = new RedisKeyedLock({ client, keyPrefix });
        holder.kill("SIGKILL");
        await once(holder, "exit");
        // Dead, but its lease still runs: the key is not free yet.
        await expect(
          lock.withLock("grant:alice:github", { leaseMs: 60_000, waitMs: 100 }, async () => "too early"),
        ).rejects.toMatchObject({ code: "LOCK_TIMEOUT" });
        expect(
          await lock.withLock("grant:alice:github", { leaseMs: 60_000, waitMs: 10_000 }, async () => "after"),
        ).toBe("after");
      } finally {
        holder.kill("SIGKILL");
      }
    });

    it("leaves no key behind once released", async () => {
      const keyPrefix = freshPrefix();
      const lock = new RedisKeyedLock({ client, keyPrefix });
      expect(
        await lock.withLock("k", { leaseMs: 60_000, waitMs: 1_000 }, async () => client.exists(`${keyPrefix}lock:k`)),
      ).toBe(1);
      expect(await client.exists(`${keyPrefix}lock:k`)).toBe(0);
    });

    it("refuses a lease or wait that is no number of ms", async () => {
      const lock = new RedisKeyedLock({ client, keyPrefix: freshPrefix() });
      for (const options of [
        { leaseMs: Number.NaN, waitMs: 1 },
        { leaseMs: 1, waitMs: -1 },
      ]) {
        await expect(lock.withLock("k", options, async () => 1)).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
      }
    });
  });
});
