import { Redis } from "ioredis";
import { describe, expect, it, onTestFinished } from "vitest";
import { RedisMessageBus } from "../../src/redis/index.js";
import { runMessageBusContract } from "../stores/message-bus.contract.js";
import { testRedis } from "./redis.js";

const redis = await testRedis();

describe.skipIf(redis === undefined)("Redis", () => {
  const { url, client, freshPrefix, instanceClient } = redis as NonNullable<typeof redis>;

  runMessageBusContract("Redis", (onerror) => new RedisMessageBus({ client, keyPrefix: freshPrefix(), onerror }));

  describe("RedisMessageBus", () => {
    const open = (keyPrefix: string) => {
      const bus = new RedisMessageBus({ client: instanceClient(), keyPrefix });
      onTestFinished(() => bus.close());
      return bus;
    };

    it("delivers what one instance publishes to the subscribers of another, and nothing across prefixes", async () => {
      const keyPrefix = freshPrefix();
      const [one, other, elsewhere] = [open(keyPrefix), open(keyPrefix), open(freshPrefix())];
      const heard: string[] = [];
      const strayed: string[] = [];
      await other.subscribe("interaction:1", (message) => heard.push(message));
      await elsewhere.subscribe("interaction:1", (message) => strayed.push(message));
      await one.publish("interaction:1", "completed");
      await expect.poll(() => heard).toEqual(["completed"]);
      await elsewhere.publish("interaction:1", "own");
      await expect.poll(() => strayed).toEqual(["own"]);
      expect(heard).toEqual(["completed"]);
    });

    it("subscribes at once on a client that fails commands while down, its second connection still opening", async () => {
      const own = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
      own.on("error", () => {});
      onTestFinished(() => own.disconnect());
      const bus = new RedisMessageBus({ client: own, keyPrefix: freshPrefix() });
      onTestFinished(() => bus.close());
      const heard: string[] = [];
      await bus.subscribe("c", (message) => heard.push(message));
      await bus.publish("c", "first");
      await expect.poll(() => heard).toEqual(["first"]);
    });

    it("unsubscribes at Redis once the last handler of a channel leaves", async () => {
      const keyPrefix = freshPrefix();
      const bus = open(keyPrefix);
      const count = async () => ((await client.call("PUBSUB", "NUMSUB", `${keyPrefix}bus:c`)) as [string, number])[1];
      const first = await bus.subscribe("c", () => {});
      const second = await bus.subscribe("c", () => {});
      expect(await count()).toBe(1);
      await first();
      expect(await count()).toBe(1);
      await second();
      expect(await count()).toBe(0);
    });
  });
});
