/**
 * What every `SessionDirectory` promises, run against each engine: records read back as written
 * (copies, never aliases), changes applied atomically so concurrent ones all survive, and records
 * gone once their TTL passes without a touch.
 */
import { describe, expect, it } from "vitest";
import type { SessionDirectory, SessionRecord } from "../../src/transports/http/session-directory.js";

/**
 * An empty directory, and a way to let `ms` pass for it: an injected clock moved on, or real time
 * waited for an engine that keeps the clock itself.
 */
export type OpenSessionDirectory = () =>
  | { directory: SessionDirectory; elapse: (ms: number) => Promise<void> }
  | Promise<{ directory: SessionDirectory; elapse: (ms: number) => Promise<void> }>;

const TTL = 1_000;

export function sessionRecord(overrides: Partial<SessionRecord> = {}): SessionRecord {
  return {
    protocolVersion: "2025-11-25",
    clientCapabilities: { elicitation: { url: {}, form: {} }, roots: { listChanged: true } },
    clientInfo: { name: "claude-desktop", version: "1.2.3", title: "Claude Desktop" },
    subscriptions: [],
    ...overrides,
  };
}

const sorted = (record: SessionRecord | undefined) =>
  record === undefined ? undefined : { ...record, subscriptions: [...record.subscriptions].sort() };

/**
 * @param features.subscribedTo the engine implements `subscribedTo` (the sessions subscribed to a URI).
 */
export function runSessionDirectoryContract(
  name: string,
  open: OpenSessionDirectory,
  features: { subscribedTo?: boolean } = {},
): void {
  describe(`${name} session directory`, () => {
    if (features.subscribedTo === true) {
      it("lists the open sessions subscribed to a URI: after an unsubscribe, a delete or an expiry, no more", async () => {
        const { directory, elapse } = await open();
        const list = async (uri: string) => [...((await directory.subscribedTo?.(uri)) ?? ["no subscribedTo"])].sort();
        await directory.put("s-put", sessionRecord({ subscriptions: ["file:///a"] }), TTL);
        await directory.put("s-changed", sessionRecord(), TTL * 60);
        await directory.put("s-other", sessionRecord({ subscriptions: ["file:///b"] }), TTL * 60);
        await directory.put("s-left", sessionRecord({ subscriptions: ["file:///a"] }), TTL * 60);
        expect(await directory.update("s-changed", { subscribe: "file:///a" })).toBe(true);
        expect(await list("file:///a")).toEqual(["s-changed", "s-left", "s-put"]);
        expect(await list("file:///none")).toEqual([]);
        await directory.update("s-left", { unsubscribe: "file:///a" });
        await directory.delete("s-changed");
        expect(await list("file:///a")).toEqual(["s-put"]);
        await elapse(TTL + 10);
        expect(await list("file:///a")).toEqual([]);
        expect(await list("file:///b")).toEqual(["s-other"]);
      });
    }

    it("reads a record back as it was put, with no field it did not have", async () => {
      const { directory } = await open();
      const bare = sessionRecord();
      await directory.put("s-bare", bare, TTL * 60);
      expect(await directory.get("s-bare")).toStrictEqual(bare);
      const full = sessionRecord({ logLevel: "debug", subscriptions: ["file:///a.txt"], owner: "issuer|alice" });
      await directory.put("s-full", full, TTL * 60);
      expect(await directory.get("s-full")).toStrictEqual(full);
      expect(await directory.get("s-unknown")).toBeUndefined();
    });

    it("replaces a record on a second put, dropping what the new one lacks", async () => {
      const { directory } = await open();
      await directory.put("s", sessionRecord({ logLevel: "debug", subscriptions: ["file:///a"], owner: "o" }), 60_000);
      const replacement = sessionRecord({ protocolVersion: "2025-06-18" });
      await directory.put("s", replacement, 60_000);
      expect(await directory.get("s")).toStrictEqual(replacement);
    });

    it("hands out copies: changing what was put or what was read changes nothing stored", async () => {
      const { directory } = await open();
      const record = sessionRecord({ subscriptions: ["file:///a"] });
      await directory.put("s", record, 60_000);
      record.subscriptions.push("file:///b");
      record.clientInfo.name = "someone-else";
      const read = (await directory.get("s")) as SessionRecord;
      read.subscriptions.push("file:///c");
      (read.clientCapabilities as { roots: { listChanged: boolean } }).roots.listChanged = false;
      expect(await directory.get("s")).toStrictEqual(sessionRecord({ subscriptions: ["file:///a"] }));
    });

    it("applies a log level, a subscribe (once however often) and an unsubscribe", async () => {
      const { directory } = await open();
      await directory.put("s", sessionRecord(), 60_000);
      expect(await directory.update("s", { logLevel: "warning" })).toBe(true);
      expect(await directory.update("s", { subscribe: "file:///a" })).toBe(true);
      expect(await directory.update("s", { subscribe: "file:///b" })).toBe(true);
      expect(await directory.update("s", { subscribe: "file:///a" })).toBe(true);
      expect(sorted(await directory.get("s"))).toStrictEqual(
        sessionRecord({ logLevel: "warning", subscriptions: ["file:///a", "file:///b"] }),
      );
      expect(await directory.update("s", { unsubscribe: "file:///a" })).toBe(true);
      expect(await directory.update("s", { unsubscribe: "file:///never" })).toBe(true);
      expect(await directory.update("s", { logLevel: "error" })).toBe(true);
      expect(await directory.get("s")).toStrictEqual(
        sessionRecord({ logLevel: "error", subscriptions: ["file:///b"] }),
      );
    });

    it("refuses a change to an unknown session and stores nothing for it", async () => {
      const { directory } = await open();
      expect(await directory.update("ghost", { subscribe: "file:///a" })).toBe(false);
      expect(await directory.update("ghost", { logLevel: "debug" })).toBe(false);
      expect(await directory.touch("ghost", 60_000)).toBe(false);
      expect(await directory.get("ghost")).toBeUndefined();
    });

    it("keeps every one of many concurrent changes to one session", async () => {
      const { directory } = await open();
      await directory.put("s", sessionRecord(), 60_000);
      const uris = Array.from({ length: 20 }, (_, n) => `file:///doc-${n}`);
      const results = await Promise.all([
        ...uris.map((uri) => directory.update("s", { subscribe: uri })),
        directory.update("s", { logLevel: "notice" }),
      ]);
      expect(results.every(Boolean)).toBe(true);
      expect(sorted(await directory.get("s"))).toStrictEqual(
        sessionRecord({ logLevel: "notice", subscriptions: [...uris].sort() }),
      );
    });

    it("forgets a record once its TTL passes without a touch, and a touch keeps it longer", async () => {
      const { directory, elapse } = await open();
      await directory.put("idle", sessionRecord(), TTL);
      await directory.put("busy", sessionRecord(), TTL);
      await elapse(TTL / 2);
      expect(await directory.touch("busy", TTL)).toBe(true);
      expect(await directory.get("idle")).toStrictEqual(sessionRecord());
      await elapse(TTL / 2 + TTL / 4);
      expect(await directory.get("idle")).toBeUndefined();
      expect(await directory.update("idle", { logLevel: "debug" })).toBe(false);
      expect(await directory.touch("idle", TTL)).toBe(false);
      expect(await directory.get("busy")).toStrictEqual(sessionRecord());
      await elapse(TTL / 2);
      expect(await directory.get("busy")).toBeUndefined();
    });

    it("deletes a session everywhere, saying whether it was known", async () => {
      const { directory } = await open();
      await directory.put("s", sessionRecord(), 60_000);
      expect(await directory.delete("s")).toBe(true);
      expect(await directory.delete("s")).toBe(false);
      expect(await directory.get("s")).toBeUndefined();
      expect(await directory.update("s", { subscribe: "file:///a" })).toBe(false);
      expect(await directory.get("s")).toBeUndefined();
    });
  });
}
