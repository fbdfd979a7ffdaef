import { describe, expect, it } from "vitest";
import { RedisSessionDirectory } from "../../src/redis/index.js";
import { runSessionDirectoryContract, sessionRecord } from "../transports/session-directory.contract.js";
import { keysUnder, sleep, testRedis } from "./redis.js";

const redis = await testRedis();

describe.skipIf(redis === undefined)("Redis", () => {
  const { client, freshPrefix, instanceClient } = redis as NonNullable<typeof redis>;

  runSessionDirectoryContract("Redis", () => ({
    directory: new RedisSessionDirectory({ client, keyPrefix: freshPrefix() }),
    elapse: sleep,
  }));

  describe("RedisSessionDirectory", () => {
    it("keeps streamStart, the owner and the order of subscriptions exactly, as another instance reads them", async () => {
      const keyPrefix = freshPrefix();
      const one = new RedisSessionDirectory({ client, keyPrefix });
      const other = new RedisSessionDirectory({ client: instanceClient(), keyPrefix });
      const record = sessionRecord({
        streamStart: "get-stream-1/1700000000000-0",
        owner: "https://auth.example.com|alice",
        subscriptions: ["file:///z", "file:///a", "file:///m"],
      });
      await one.put("s", record, 60_000);
      await one.update("s", { subscribe: "file:///b" });
      expect(await other.get("s")).toStrictEqual({ ...record, subscriptions: [...record.subscriptions, "file:///b"] });
      expect(await keysUnder(client, keyPrefix)).toEqual([`${keyPrefix}session:s`]);
    });

    it("refuses a bad TTL or change with INVALID_ARGUMENT and stores nothing", async () => {
      const directory = new RedisSessionDirectory({ client, keyPrefix: freshPrefix() });
      await expect(directory.put("s", sessionRecord(), 0)).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
      await expect(directory.put("s", sessionRecord(), Number.NaN)).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
      expect(await directory.get("s")).toBeUndefined();
      await directory.put("s", sessionRecord(), 60_000);
      await expect(directory.update("s", { level: "debug" } as never)).rejects.toMatchObject({
        code: "INVALID_ARGUMENT",
      });
      expect(await directory.get("s")).toStrictEqual(sessionRecord());
    });

    it("refuses a key prefix with spaces or control characters", () => {
      for (const keyPrefix of ["my app:", "app\n", "app\u0000"]) {
        expect(() => new RedisSessionDirectory({ client, keyPrefix })).toThrow(
          expect.objectContaining({ code: "INVALID_ARGUMENT" }),
        );
      }
    });
  });
});
