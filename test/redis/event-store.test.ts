import { describe, expect, it } from "vitest";
import { RedisEventStore } from "../../src/redis/index.js";
import { EventsEvictedError } from "../../src/transports/http/event-store.js";
import { note, replay, runEventStoreContract } from "../transports/event-store.contract.js";
import { testRedis } from "./redis.js";

const redis = await testRedis();

describe.skipIf(redis === undefined)("Redis", () => {
  const { client, freshPrefix, instanceClient } = redis as NonNullable<typeof redis>;

  runEventStoreContract(
    "Redis",
    (limits) => new RedisEventStore({ client, keyPrefix: freshPrefix(), maxEventsPerStream: limits?.keep ?? 100_000 }),
  );

  describe("RedisEventStore", () => {
    it("replays on another instance what one stored, across more than one page", async () => {
      const keyPrefix = freshPrefix();
      const one = new RedisEventStore({ client, keyPrefix });
      const other = new RedisEventStore({ client: instanceClient(), keyPrefix });
      const start = await one.primingEventId("long");
      for (let n = 0; n < 450; n += 1) await one.storeEvent("long", note(n));
      const replayed = await replay(other, start);
      expect(replayed.messages).toEqual(Array.from({ length: 450 }, (_, n) => note(n)));
      expect(new Set(replayed.ids).size).toBe(450);
    });

    it("trims exactly with trim: exact, and serves a resumption from the oldest kept event's predecessor", async () => {
      const store = new RedisEventStore({ client, keyPrefix: freshPrefix(), maxEventsPerStream: 3, trim: "exact" });
      const ids: string[] = [];
      for (let n = 1; n <= 6; n += 1) ids.push(await store.storeEvent("s", note(n)));
      // Kept: 4, 5, 6. Event 3 is gone, but nothing after it is.
      expect((await replay(store, ids[2] as string)).messages).toEqual([note(4), note(5), note(6)]);
      await expect(replay(store, ids[1] as string)).rejects.toBeInstanceOf(EventsEvictedError);
    });

    it("refuses an id of a known stream that it never gave, as unknown", async () => {
      const store = new RedisEventStore({ client, keyPrefix: freshPrefix() });
      const first = await store.storeEvent("s", note(1));
      await store.storeEvent("s", note(2));
      const [ms] = (first.split("/")[1] as string).split("-");
      const forged = await replay(store, `s/${ms}-999999`).catch((error: unknown) => error);
      expect(forged).toMatchObject({ code: "INVALID_ARGUMENT" });
      expect(forged).not.toBeInstanceOf(EventsEvictedError);
      await expect(replay(store, "s/not-an-entry")).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
    });

    it("refuses ids it never gave from before a stream's first event (0-0 among them) as unknown, replaying nothing", async () => {
      const store = new RedisEventStore({ client, keyPrefix: freshPrefix() });
      const first = await store.storeEvent("s", note(1));
      await store.storeEvent("s", note(2));
      const sent: unknown[] = [];
      for (const forged of ["s/0-0", "s/0-1", "s/1-0"]) {
        const refused = await store
          .replayEventsAfter(forged, async (_id, message) => {
            sent.push(message);
          })
          .catch((error: unknown) => error);
        expect(refused).toMatchObject({ code: "INVALID_ARGUMENT" });
        expect(refused).not.toBeInstanceOf(EventsEvictedError);
      }
      expect(sent).toEqual([]);
      // Positive control: the id it gave for the first event resumes after it.
      expect((await replay(store, first)).messages).toEqual([note(2)]);
    });

    it("refuses limits that are no number", () => {
      for (const options of [{ maxEventsPerStream: 0 }, { ttlMs: -1 }, { trim: "sometimes" as never }]) {
        expect(() => new RedisEventStore({ client, ...options })).toThrow(
          expect.objectContaining({ code: "INVALID_ARGUMENT" }),
        );
      }
    });
  });
});
