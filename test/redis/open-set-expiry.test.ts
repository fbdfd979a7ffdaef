/**
 * Each user's set of open interactions in Redis expires by itself, as each interaction's hash does
 * (`retainAfterExpiryMs`), so a fleet that never purges does not fill Redis with sets: also a set
 * that a withdrawn completion brings back after its last member had left it.
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
