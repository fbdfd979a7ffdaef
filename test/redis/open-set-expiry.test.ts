/**
 * Each user's set of open interactions in Redis: it expires by itself, as each interaction's hash
 * does (`retainAfterExpiryMs`), so a fleet that never purges does not fill Redis with sets, also
 * when a withdrawn completion brings it back after its last member had left it; and `openFor`
 * reads it from its newest end only as far as the page needs, so a user with a great many
 * requests waiting does not hold Redis in one long script.
 */
import { describe, expect, it } from "vitest";
import { RedisInteractionStore } from "../../src/redis/index.js";
import { newInteraction } from "../stores/interaction-store.contract.js";
import { testRedis } from "./redis.js";

const redis = await testRedis();

describe.skipIf(redis === undefined)("Redis open sets", () => {
  const { client, freshPrefix } = redis as NonNullable<typeof redis>;
  const user = { issuer: "https://auth.example.com", subject: "erin" };
  const setKey = (prefix: string) =>
    `${prefix}interactions:open:${Buffer.from(user.issuer).toString("base64url")}.${Buffer.from(user.subject).toString("base64url")}`;

  it("gives the set an expiry again when a withdrawn completion brings it back", async () => {
    const keyPrefix = freshPrefix();
    const store = new RedisInteractionStore({ client, keyPrefix, retainAfterExpiryMs: 60_000 });
    await store.create(newInteraction("only", { user, expiresAt: Date.now() + 60_000 }));
    await store.transition("only", ["pending"], "completed");
    // Its last member gone, Redis deleted the set.
    expect(await client.exists(setKey(keyPrefix))).toBe(0);
    await store.transition("only", ["completed"], "accepted");
    expect((await store.openFor(user)).map((i) => i.id)).toEqual(["only"]);
    // As long as the interaction's hash: its deadline and the 60 s kept after it.
    const ttl = await client.pttl(setKey(keyPrefix));
    expect(ttl).toBeGreaterThan(60_000);
    expect(ttl).toBeLessThanOrEqual(120_000);
  });

  it("positive control: a set made by a creation expires with its interaction's hash", async () => {
    const keyPrefix = freshPrefix();
    const store = new RedisInteractionStore({ client, keyPrefix, retainAfterExpiryMs: 60_000 });
    await store.create(newInteraction("made", { user, expiresAt: Date.now() + 60_000 }));
    const ttl = await client.pttl(setKey(keyPrefix));
    expect(ttl).toBeGreaterThan(60_000);
    expect(ttl).toBeLessThanOrEqual(120_000);
  });
});

describe.skipIf(redis === undefined)("Redis openFor on a long open set", () => {
  const { client, freshPrefix } = redis as NonNullable<typeof redis>;
  const user = { issuer: "https://auth.example.com", subject: "frank" };
  const COUNT = 1_500;

  /** HMGET calls Redis has served so far (the script's reads of hashes among them). */
  async function hmgets(): Promise<number> {
    const info = (await client.call("INFO", "commandstats")) as string;
    return Number(/cmdstat_hmget:calls=(\d+)/.exec(info)?.[1] ?? 0);
  }

  it("reads a page from the newest end, not every id of the set, and still lists newest first", async () => {
    let now = 1_700_000_000_000;
    const store = new RedisInteractionStore({ client, keyPrefix: freshPrefix(), now: () => now });
    for (let n = 0; n < COUNT; n++) {
      now += 1;
      await store.create(newInteraction(`many-${String(n).padStart(4, "0")}`, { user, expiresAt: now + 600_000 }));
    }
    const before = await hmgets();
    const open = await store.openFor(user, { limit: 3 });
    const read = (await hmgets()) - before;
    expect(open.map((i) => i.id)).toEqual(["many-1499", "many-1498", "many-1497"]);
    // One page of the set (100) at most, however many wait; other clients' calls aside.
    expect(read).toBeLessThan(COUNT / 2);
  });

  it("positive control: ties at the cut are ordered by id, and expired ones leave the list", async () => {
    let now = 1_700_000_000_000;
    const store = new RedisInteractionStore({ client, keyPrefix: freshPrefix(), now: () => now });
    await store.create(newInteraction("short", { user, expiresAt: now + 10 }));
    now += 1;
    for (const id of ["tie-c", "tie-a", "tie-b"])
      await store.create(newInteraction(id, { user, expiresAt: now + 600_000 }));
    expect((await store.openFor(user, { limit: 2 })).map((i) => i.id)).toEqual(["tie-a", "tie-b"]);
    now += 100;
    expect((await store.openFor(user)).map((i) => i.id)).toEqual(["tie-a", "tie-b", "tie-c"]);
  });
});
