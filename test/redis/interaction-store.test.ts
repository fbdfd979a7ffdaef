import { describe, expect, it } from "vitest";
import type { UserInteraction } from "../../src/model/interaction.js";
import { RedisInteractionStore } from "../../src/redis/index.js";
import { newInteraction, runInteractionStoreContract } from "../stores/interaction-store.contract.js";
import { testRedis } from "./redis.js";

const redis = await testRedis();

describe.skipIf(redis === undefined)("Redis", () => {
  const { client, freshPrefix, instanceClient } = redis as NonNullable<typeof redis>;

  runInteractionStoreContract("Redis", (now) => new RedisInteractionStore({ client, keyPrefix: freshPrefix(), now }));

  describe("RedisInteractionStore", () => {
    it("lets exactly one of many racing transitions from two instances win", async () => {
      const keyPrefix = freshPrefix();
      const one = new RedisInteractionStore({ client, keyPrefix });
      const other = new RedisInteractionStore({ client: instanceClient(), keyPrefix });
      await one.create(newInteraction("raced", { expiresAt: Date.now() + 600_000 }));
      const outcomes = await Promise.all(
        Array.from({ length: 10 }, (_, n) =>
          (n % 2 === 0 ? one : other).transition("raced", ["pending"], n % 4 < 2 ? "accepted" : "declined"),
        ),
      );
      const winners = outcomes.filter((outcome) => outcome !== undefined);
      expect(winners).toHaveLength(1);
      expect((await other.get("raced"))?.status).toBe((winners[0] as UserInteraction).status);
    });

    it("keeps times that are not whole ms exactly, and fields the model may gain", async () => {
      const store = new RedisInteractionStore({ client, keyPrefix: freshPrefix(), now: () => 1_700_000_000_000.25 });
      const created = await store.create(newInteraction("fraction", { expiresAt: 1_700_000_600_000.5 }));
      expect(created.createdAt).toBe(1_700_000_000_000.25);
      expect(await store.get("fraction")).toStrictEqual(created);
      expect(await store.transition("fraction", ["pending"], "accepted")).toStrictEqual({
        ...created,
        status: "accepted",
      });
    });

    it("lets Redis drop an interaction by itself a while after its deadline", async () => {
      const keyPrefix = freshPrefix();
      const store = new RedisInteractionStore({ client, keyPrefix, retainAfterExpiryMs: 60_000 });
      await store.create(newInteraction("kept", { expiresAt: Date.now() + 60_000 }));
      const ttl = await client.pttl(`${keyPrefix}interaction:kept`);
      expect(ttl).toBeGreaterThan(60_000);
      expect(ttl).toBeLessThanOrEqual(120_000);
    });
  });
});
