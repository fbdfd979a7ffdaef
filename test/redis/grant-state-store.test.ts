import { describe, expect, it } from "vitest";
import { RedisGrantStateStore } from "../../src/redis/index.js";
import { pendingGrant, runGrantStateStoreContract } from "../stores/grant-state-store.contract.js";
import { sleep, testRedis } from "./redis.js";

const redis = await testRedis();

describe.skipIf(redis === undefined)("Redis", () => {
  const { client, freshPrefix, instanceClient } = redis as NonNullable<typeof redis>;

  runGrantStateStoreContract("Redis", () => ({
    store: new RedisGrantStateStore({ client, keyPrefix: freshPrefix() }),
    now: Date.now,
    elapse: sleep,
  }));

  describe("RedisGrantStateStore", () => {
    it("gives a grant put on one instance to exactly one of two instances taking it at once", async () => {
      const keyPrefix = freshPrefix();
      const one = new RedisGrantStateStore({ client, keyPrefix });
      const other = new RedisGrantStateStore({ client: instanceClient(), keyPrefix });
      await one.put("state", pendingGrant(Date.now() + 60_000));
      const taken = await Promise.all([one.take("state"), other.take("state"), other.take("state")]);
      expect(taken.filter((grant) => grant !== undefined)).toHaveLength(1);
    });

    it("keeps a grant in Redis only until its deadline", async () => {
      const keyPrefix = freshPrefix();
      const store = new RedisGrantStateStore({ client, keyPrefix });
      await store.put("state", pendingGrant(Date.now() + 30_000));
      const ttl = await client.pttl(`${keyPrefix}grant:state`);
      expect(ttl).toBeGreaterThan(25_000);
      expect(ttl).toBeLessThanOrEqual(30_000);
    });

    it("refuses a grant without a deadline, and stores nothing", async () => {
      const store = new RedisGrantStateStore({ client, keyPrefix: freshPrefix() });
      await expect(store.put("state", pendingGrant(Number.NaN))).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
      expect(await store.take("state")).toBeUndefined();
    });
  });
});
