import { describe, expect, it } from "vitest";
import { RedisExpiringNotes } from "../../src/redis/index.js";
import { runExpiringNotesContract } from "../stores/expiring-notes.contract.js";
import { sleep, testRedis } from "./redis.js";

const redis = await testRedis();

describe.skipIf(redis === undefined)("Redis", () => {
  const { client, freshPrefix, instanceClient } = redis as NonNullable<typeof redis>;

  runExpiringNotesContract("Redis", {
    async open() {
      return { notes: new RedisExpiringNotes({ client, keyPrefix: freshPrefix() }), advance: sleep };
    },
  });

  it("lets another instance read a note one instance put", async () => {
    const keyPrefix = freshPrefix();
    await new RedisExpiringNotes({ client, keyPrefix }).put("refresh:alice:github", "timed out", 60_000);
    expect(await new RedisExpiringNotes({ client: instanceClient(), keyPrefix }).get("refresh:alice:github")).toBe(
      "timed out",
    );
  });
});
