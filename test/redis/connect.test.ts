import { describe, expect, it } from "vitest";
import { connectRedis } from "../../src/redis/index.js";
import { newInteraction } from "../stores/interaction-store.contract.js";
import { recordingLogger } from "../support/recording-logger.js";
import { sessionRecord } from "../transports/session-directory.contract.js";
import { keysUnder, testRedis } from "./redis.js";

const redis = await testRedis();

describe.skipIf(redis === undefined)("connectRedis", () => {
  const { url, client, freshPrefix, instanceClient } = redis as NonNullable<typeof redis>;

  it("builds every engine on one connection, each key and bus channel under the key prefix", async () => {
    const keyPrefix = freshPrefix();
    const stores = await connectRedis({ url, keyPrefix, logger: recordingLogger() });
    try {
      await stores.interactions.create(newInteraction("i", { expiresAt: Date.now() + 60_000 }));
      await stores.eventStore.storeEvent("stream", { jsonrpc: "2.0", method: "notifications/n" });
      await stores.sessions.put("s", sessionRecord(), 60_000);
      await stores.grantStates.put("g", {
        interactionId: "i",
        user: { issuer: "https://auth.example.com", subject: "alice" },
        provider: "github",
        scopes: [],
        verifier: "v",
        expiresAt: Date.now() + 60_000,
      });
      await stores.notes.put("n", "note", 60_000);
      expect(
        await stores.locks.withLock("l", { leaseMs: 60_000, waitMs: 1_000 }, () => keysUnder(client, keyPrefix)),
      ).toEqual([
        `${keyPrefix}events:stream`,
        `${keyPrefix}grant:g`,
        `${keyPrefix}interaction:i`,
        `${keyPrefix}interactions:expiry`,
        // the interaction's user's open interactions, which the inbox reads
        expect.stringMatching(new RegExp(`^${keyPrefix}interactions:open:`)),
        `${keyPrefix}lock:l`,
        `${keyPrefix}note:n`,
        `${keyPrefix}session:s`,
      ]);
      const heard: string[] = [];
      await stores.bus.subscribe("c", (message) => heard.push(message));
      expect(await client.publish(`${keyPrefix}bus:c`, "from outside")).toBe(1);
      await expect.poll(() => heard).toEqual(["from outside"]);
    } finally {
      await stores.close();
    }
  });

  it("refuses every call after close with CONNECTION_CLOSED, and leaves a client of the application's own open", async () => {
    const own = instanceClient();
    const stores = await connectRedis({ client: own, keyPrefix: freshPrefix() });
    await stores.sessions.put("s", sessionRecord(), 60_000);
    await stores.close();
    await stores.close();
    const calls: (() => Promise<unknown>)[] = [
      () => stores.interactions.get("i"),
      () => stores.eventStore.primingEventId("stream"),
      () => stores.bus.publish("c", "late"),
      () => stores.bus.subscribe("c", () => {}),
      () => stores.sessions.get("s"),
      () => stores.locks.withLock("l", { leaseMs: 1_000, waitMs: 1_000 }, async () => 1),
      () => stores.grantStates.take("g"),
      () => stores.notes.get("n"),
    ];
    for (const call of calls) await expect(call()).rejects.toMatchObject({ code: "CONNECTION_CLOSED" });
    expect(await own.ping()).toBe("PONG");
  });

  it("refuses a key prefix with spaces or control characters before connecting", async () => {
    for (const keyPrefix of ["my app:", "tab\there", "nul\u0000", 7 as unknown as string]) {
      await expect(connectRedis({ url, keyPrefix })).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
    }
  });
});
