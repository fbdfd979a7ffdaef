/**
 * Redis going away and coming back, on a server of the test's own that asks for a password: every
 * operation of every engine rejects with STORE_UNAVAILABLE naming Redis and the operation and never
 * the password, the outage is logged, and the same objects serve again once Redis is back on the
 * same port, the bus subscribers hearing messages again.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeError } from "../../src/redis/errors.js";
import { connectRedis, type RedisStores } from "../../src/redis/index.js";
import { expectNoLeak } from "../stores/credential-vault.contract.js";
import { pendingGrant } from "../stores/grant-state-store.contract.js";
import { newInteraction } from "../stores/interaction-store.contract.js";
import { recordingLogger } from "../support/recording-logger.js";
import { requireService } from "../support/services.js";
import { sessionRecord } from "../transports/session-directory.contract.js";
import { type PrivateRedis, startPrivateRedis } from "./private-server.js";

const PASSWORD = `pw-${randomBytes(8).toString("hex")}`;
const message = { jsonrpc: "2.0" as const, method: "notifications/n", params: {} };

let server: PrivateRedis | undefined;
const available = await requireService("a private Redis server (redis-server)", async () => {
  server = await startPrivateRedis(PASSWORD);
});
afterAll(() => server?.remove());

describe.skipIf(!available)("Redis stopped and started again", () => {
  const logger = recordingLogger();
  let stores: RedisStores;

  beforeAll(async () => {
    stores = await connectRedis({ url: server?.url(PASSWORD) ?? "", keyPrefix: "fleet:", logger });
  });
  afterAll(async () => {
    await stores?.close();
  });

  it("rejects each operation while it is down, and serves the same objects once it is back", async () => {
    const expiresAt = Date.now() + 600_000;
    const heard: string[] = [];
    await stores.bus.subscribe("interaction:before", (text) => heard.push(text));
    await stores.interactions.create(newInteraction("before", { expiresAt }));
    const start = await stores.eventStore.storeEvent("stream", message);
    await stores.sessions.put("s", sessionRecord(), 60_000);
    await stores.bus.publish("interaction:before", "one");
    await expect.poll(() => heard).toEqual(["one"]);

    await server?.stop();
    await expect.poll(() => logger.entries.length).toBeGreaterThan(0);
    expect(logger.entries[0]).toMatchObject({ level: "warn", message: expect.stringContaining("Redis") });
    for (const entry of logger.entries) expectNoLeak(entry.error ?? entry.message, [PASSWORD]);

    const operations: [string, () => Promise<unknown>][] = [
      ["interactions.get", () => stores.interactions.get("before")],
      ["interactions.create", () => stores.interactions.create(newInteraction("during", { expiresAt }))],
      ["interactions.transition", () => stores.interactions.transition("before", ["pending"], "accepted")],
      ["interactions.purgeExpired", () => stores.interactions.purgeExpired()],
      ["events.storeEvent", () => stores.eventStore.storeEvent("stream", message)],
      ["events.primingEventId", () => stores.eventStore.primingEventId("stream")],
      ["events.replayEventsAfter", () => stores.eventStore.replayEventsAfter(start, async () => {})],
      ["bus.publish", () => stores.bus.publish("interaction:before", "lost")],
      ["bus.subscribe", () => stores.bus.subscribe("interaction:during", () => {})],
      ["sessions.put", () => stores.sessions.put("t", sessionRecord(), 60_000)],
      ["sessions.get", () => stores.sessions.get("s")],
      ["sessions.update", () => stores.sessions.update("s", { logLevel: "debug" })],
      ["sessions.touch", () => stores.sessions.touch("s", 60_000)],
      ["sessions.delete", () => stores.sessions.delete("s")],
      ["locks.withLock", () => stores.locks.withLock("k", { leaseMs: 1_000, waitMs: 1_000 }, async () => 1)],
      ["grantStates.put", () => stores.grantStates.put("g", pendingGrant(expiresAt))],
      ["grantStates.take", () => stores.grantStates.take("g")],
      ["notes.put", () => stores.notes.put("n", "note", 60_000)],
      ["notes.get", () => stores.notes.get("n")],
    ];
    for (const [operation, run] of operations) {
      const error = await run().catch((e: unknown) => e);
      expect(error, operation).toMatchObject({ code: "STORE_UNAVAILABLE" });
      expect((error as Error).message).toContain("Redis");
      expect((error as Error).message).toContain(operation);
      expect((error as Error).cause).toBeInstanceOf(Error);
      expectNoLeak(error, [PASSWORD]);
    }

    await server?.start();
    // It kept nothing on disk: the same objects serve again, with what is written from now on.
    await expect
      .poll(() =>
        stores.interactions.get("before").then(
          () => true,
          () => false,
        ),
      )
      .toBe(true);
    await expect.poll(() => logger.entries.some((entry) => entry.level === "info")).toBe(true);
    await stores.interactions.create(newInteraction("after", { expiresAt }));
    expect(await stores.interactions.transition("after", ["pending"], "accepted")).toMatchObject({
      status: "accepted",
    });
    const primed = await stores.eventStore.primingEventId("stream-after");
    await stores.eventStore.storeEvent("stream-after", message);
    const replayed: unknown[] = [];
    await stores.eventStore.replayEventsAfter(primed, async (_, sent) => {
      replayed.push(sent);
    });
    expect(replayed).toEqual([message]);
    await stores.sessions.put("s", sessionRecord(), 60_000);
    expect(await stores.sessions.update("s", { subscribe: "file:///a" })).toBe(true);
    expect(await stores.locks.withLock("k", { leaseMs: 1_000, waitMs: 1_000 }, async () => "held")).toBe("held");
    await stores.notes.put("n", "note", 60_000);
    expect(await stores.notes.get("n")).toBe("note");
    // The subscription made before the outage hears messages again once its connection resubscribed.
    await expect
      .poll(async () => {
        await stores.bus.publish("interaction:before", "two");
        return heard.includes("two");
      })
      .toBe(true);
    expect(heard).not.toContain("lost");
    for (const entry of logger.entries) expectNoLeak(entry.error ?? entry.message, [PASSWORD]);
  });

  it("fails to start, clearly and without the password, while Redis is down or refuses the password", async () => {
    const wrong = await connectRedis({ url: server?.url(`${PASSWORD}-wrong`) ?? "", logger: recordingLogger() }).catch(
      (e: unknown) => e,
    );
    expect(wrong).toMatchObject({ code: "STORE_UNAVAILABLE", message: expect.stringContaining("WRONGPASS") });
    expectNoLeak(wrong, [PASSWORD]);
    await server?.stop();
    try {
      const error = await connectRedis({ url: server?.url(PASSWORD) ?? "", logger: recordingLogger() }).catch(
        (e: unknown) => e,
      );
      expect(error).toMatchObject({ code: "STORE_UNAVAILABLE", message: expect.stringContaining("Redis") });
      expect((error as Error).message).toContain("connect");
      expectNoLeak(error, [PASSWORD]);
    } finally {
      await server?.start();
    }
  });
});

describe("Redis errors and the connection's password", () => {
  it("refuse a malformed URL without showing any of it (Node's own URL error would)", async () => {
    const url = `redis://:${PASSWORD}@[::1:6379`;
    const raw = (() => {
      try {
        new URL(url);
      } catch (e) {
        return e;
      }
    })();
    // The positive control: the error a URL parser gives carries the whole string.
    expect(JSON.stringify(raw)).toContain(PASSWORD);
    const error = await connectRedis({ url }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "INVALID_ARGUMENT" });
    expectNoLeak(error, [PASSWORD]);
    await expect(connectRedis({ url: `postgres://:${PASSWORD}@127.0.0.1` })).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
    });
  });

  it("cut the password out of any URL a driver error quotes, in the message and the cause", () => {
    const raw = Object.assign(new Error(`could not reach redis://app:${PASSWORD}@cache.internal:6379`), {
      code: "ECONNREFUSED",
    });
    expect(String(raw)).toContain(PASSWORD);
    const error = storeError(raw, "sessions.get");
    expect(error).toMatchObject({ code: "STORE_UNAVAILABLE", message: expect.stringContaining("cache.internal") });
    expectNoLeak(error, [PASSWORD]);
    expect(JSON.stringify((error as Error).cause)).not.toContain(PASSWORD);
  });
});
