/**
 * What every `InteractionStore` promises, run against each implementation: creation, the
 * compare-and-set transition, expiry read from an injected clock, purging, and the list of a
 * user's open interactions (the inbox).
 */
import { describe, expect, it, onTestFinished } from "vitest";
import { SdkError } from "../../src/jsonrpc/errors.js";
import type { NewInteraction } from "../../src/model/interaction.js";
import type { InteractionStore } from "../../src/stores/index.js";

/** Opens an empty store reading time from `now`; `close` (when there is one) runs after the test. */
export type OpenInteractionStore = (now: () => number) => InteractionStore & { close?(): Promise<void> };

const START = 1_700_000_000_000;
const TTL = 600_000;

export function newInteraction(id: string, overrides: Partial<NewInteraction> = {}): NewInteraction {
  return {
    id,
    url: `https://mcp.example.com/connect/${id}`,
    message: "Connect your GitHub account so the assistant can open issues for you.",
    user: { issuer: "https://auth.example.com", subject: "user-1" },
    sessionId: "session-1",
    expiresAt: START + TTL,
    ...overrides,
  };
}

export function runInteractionStoreContract(name: string, open: OpenInteractionStore): void {
  function setup() {
    const clock = { now: START };
    const store = open(() => clock.now);
    onTestFinished(async () => {
      await store.close?.();
    });
    return { store, clock };
  }

  describe(`${name} interaction store`, () => {
    it("creates a pending interaction stamped with the clock, and reads it back", async () => {
      const { store } = setup();
      const purpose = { kind: "oauth", provider: "github", scopes: ["repo"], nested: { a: [1, null] } };
      const created = await store.create(newInteraction("a", { purpose }));
      expect(created).toStrictEqual({ ...newInteraction("a", { purpose }), status: "pending", createdAt: START });
      expect(await store.get("a")).toStrictEqual(created);
      expect(await store.get("unknown")).toBeUndefined();
    });

    it("keeps the requesting client's self-declared name", async () => {
      const { store } = setup();
      const created = await store.create(newInteraction("named", { clientName: "Claude Desktop" }));
      expect(created.clientName).toBe("Claude Desktop");
      expect(await store.get("named")).toStrictEqual(created);
    });

    it("keeps the W3C trace context of the request that created it", async () => {
      const { store } = setup();
      const traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
      const tracestate = "vendor=opaque,other=1";
      const created = await store.create(newInteraction("traced", { traceparent, tracestate }));
      expect(created).toMatchObject({ traceparent, tracestate });
      expect(await store.get("traced")).toStrictEqual(created);
      const moved = await store.transition("traced", ["pending"], "accepted");
      expect(moved).toMatchObject({ status: "accepted", traceparent, tracestate });
      const plain = await store.create(newInteraction("untraced"));
      expect(plain && "traceparent" in plain).toBe(false);
      expect("traceparent" in ((await store.get("untraced")) ?? {})).toBe(false);
      await expect(
        store.create(newInteraction("bad-trace", { traceparent: 7 as unknown as string })),
      ).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
      expect(await store.get("bad-trace")).toBeUndefined();
    });

    it("leaves purpose out when there is none, and drops fields the model does not have", async () => {
      const { store } = setup();
      const extra = { ...newInteraction("b"), status: "completed", secret: "x" } as unknown as NewInteraction;
      await store.create(extra);
      const read = await store.get("b");
      expect(read).toStrictEqual({ ...newInteraction("b"), status: "pending", createdAt: START });
      expect(read && "purpose" in read).toBe(false);
    });

    it("hands out copies: changing a returned interaction changes nothing stored", async () => {
      const { store } = setup();
      const created = await store.create(newInteraction("c", { purpose: { scopes: ["repo"] } }));
      created.status = "completed";
      created.user.subject = "someone-else";
      (created.purpose?.scopes as string[]).push("admin");
      expect(await store.get("c")).toMatchObject({
        status: "pending",
        user: { subject: "user-1" },
        purpose: { scopes: ["repo"] },
      });
    });

    it("refuses a second interaction with the same id and keeps the first", async () => {
      const { store } = setup();
      await store.create(newInteraction("d"));
      const error = await store.create(newInteraction("d", { message: "another" })).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SdkError);
      expect(error).toMatchObject({ code: "INVALID_ARGUMENT" });
      expect(await store.get("d")).toMatchObject({ message: newInteraction("d").message });
    });

    it("refuses malformed interactions without storing them", async () => {
      const { store } = setup();
      const bad = [
        newInteraction(""),
        newInteraction("e", { expiresAt: Number.NaN }),
        newInteraction("e", { user: undefined as never }),
        newInteraction("e", { purpose: ["not", "an", "object"] as never }),
      ];
      for (const interaction of bad) {
        await expect(store.create(interaction)).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
      }
      expect(await store.get("e")).toBeUndefined();
    });

    it("moves along allowed transitions and returns the updated interaction", async () => {
      const { store } = setup();
      await store.create(newInteraction("f"));
      expect(await store.transition("f", ["pending"], "accepted")).toMatchObject({ id: "f", status: "accepted" });
      expect(await store.transition("f", ["pending", "accepted"], "completed")).toMatchObject({ status: "completed" });
      expect(await store.get("f")).toMatchObject({ status: "completed" });
    });

    it("refuses a transition from a status not listed, or of an unknown id, and changes nothing", async () => {
      const { store } = setup();
      await store.create(newInteraction("g"));
      expect(await store.transition("g", ["accepted"], "completed")).toBeUndefined();
      expect(await store.transition("g", [], "accepted")).toBeUndefined();
      expect(await store.transition("nope", ["pending"], "accepted")).toBeUndefined();
      expect(await store.get("g")).toMatchObject({ status: "pending" });
      await expect(store.transition("g", ["pending"], "finished" as never)).rejects.toMatchObject({
        code: "INVALID_ARGUMENT",
      });
      expect(await store.get("g")).toMatchObject({ status: "pending" });
    });

    it("lets exactly one of many concurrent transitions win", async () => {
      const { store } = setup();
      await store.create(newInteraction("h"));
      const targets = ["accepted", "declined", "cancelled", "accepted", "declined", "cancelled"] as const;
      const results = await Promise.all(targets.map((to) => store.transition("h", ["pending"], to)));
      const winners = results.filter((result) => result !== undefined);
      expect(winners).toHaveLength(1);
      expect(await store.get("h")).toMatchObject({ status: winners[0]?.status });
    });

    it("reports expired once the clock reaches expiresAt, and then only lets it move to expired", async () => {
      const { store, clock } = setup();
      await store.create(newInteraction("i"));
      clock.now = START + TTL - 1;
      expect(await store.get("i")).toMatchObject({ status: "pending" });
      clock.now = START + TTL;
      expect(await store.get("i")).toMatchObject({ status: "expired" });
      expect(await store.transition("i", ["pending"], "accepted")).toBeUndefined();
      expect(await store.transition("i", ["pending"], "completed")).toBeUndefined();
      expect(await store.transition("i", ["pending"], "expired")).toMatchObject({ status: "expired" });
      expect(await store.transition("i", ["pending"], "expired")).toBeUndefined();
      expect(await store.get("i")).toMatchObject({ status: "expired" });
    });

    it("reports an accepted interaction past its deadline as expired, and refuses to complete it", async () => {
      const { store, clock } = setup();
      await store.create(newInteraction("j"));
      await store.transition("j", ["pending"], "accepted");
      clock.now = START + TTL + 1;
      expect(await store.get("j")).toMatchObject({ status: "expired" });
      expect(await store.transition("j", ["accepted"], "completed")).toBeUndefined();
    });

    it("keeps a completion that happened before the deadline", async () => {
      const { store, clock } = setup();
      await store.create(newInteraction("k"));
      await store.transition("k", ["pending"], "completed");
      clock.now = START + TTL * 2;
      expect(await store.get("k")).toMatchObject({ status: "completed" });
    });

    it("purges the interactions at or past their deadline, by the clock or a given time", async () => {
      const { store, clock } = setup();
      await store.create(newInteraction("early", { expiresAt: START + 1_000 }));
      await store.create(newInteraction("done", { expiresAt: START + 1_000 }));
      await store.transition("done", ["pending"], "completed");
      await store.create(newInteraction("late", { expiresAt: START + 5_000 }));
      expect(await store.purgeExpired(START + 999)).toBe(0);
      expect(await store.purgeExpired(START + 1_000)).toBe(2);
      expect(await store.get("early")).toBeUndefined();
      expect(await store.get("done")).toBeUndefined();
      expect(await store.get("late")).toMatchObject({ status: "pending" });
      clock.now = START + 5_000;
      expect(await store.purgeExpired()).toBe(1);
      expect(await store.get("late")).toBeUndefined();
      expect(await store.purgeExpired()).toBe(0);
    });

    it("lists a user's open interactions newest first, and never another user's", async () => {
      const { store, clock } = setup();
      const alice = { issuer: "https://auth.example.com", subject: "alice" };
      await store.create(newInteraction("alice-old", { user: alice }));
      clock.now = START + 10;
      await store.create(newInteraction("alice-accepted", { user: alice, clientName: "Claude Desktop" }));
      await store.transition("alice-accepted", ["pending"], "accepted");
      clock.now = START + 20;
      await store.create(newInteraction("alice-new", { user: alice }));
      for (const [id, to] of [
        ["alice-done", "completed"],
        ["alice-declined", "declined"],
        ["alice-cancelled", "cancelled"],
      ] as const) {
        await store.create(newInteraction(id, { user: alice }));
        await store.transition(id, ["pending"], to);
      }
      // Same subject at another issuer, and another subject at the same issuer: other people.
      await store.create(
        newInteraction("mallory-same-sub", { user: { issuer: "https://evil.example", subject: "alice" } }),
      );
      await store.create(newInteraction("bob", { user: { issuer: alice.issuer, subject: "bob" } }));
      const open = (await store.openFor?.(alice)) ?? [];
      expect(open.map((interaction) => interaction.id)).toEqual(["alice-new", "alice-accepted", "alice-old"]);
      expect(open[1]).toStrictEqual(await store.get("alice-accepted"));
      expect(open[1]).toMatchObject({ status: "accepted", clientName: "Claude Desktop", user: alice });
      expect((await store.openFor?.({ issuer: alice.issuer, subject: "bob" }))?.map((i) => i.id)).toEqual(["bob"]);
      expect(await store.openFor?.({ issuer: alice.issuer, subject: "nobody" })).toEqual([]);
    });

    it("leaves out of the open list what passed its deadline or was purged, and keeps to the limit", async () => {
      const { store, clock } = setup();
      const user = { issuer: "https://auth.example.com", subject: "carol" };
      await store.create(newInteraction("short", { user, expiresAt: START + 1_000 }));
      for (const n of [1, 2, 3]) {
        clock.now = START + n;
        await store.create(newInteraction(`long-${n}`, { user }));
      }
      expect((await store.openFor?.(user, { limit: 2 }))?.map((i) => i.id)).toEqual(["long-3", "long-2"]);
      clock.now = START + 1_000;
      expect((await store.openFor?.(user))?.map((i) => i.id)).toEqual(["long-3", "long-2", "long-1"]);
      await store.purgeExpired(START + TTL);
      expect(await store.openFor?.(user)).toEqual([]);
      for (const limit of [0, 501, 1.5, Number.NaN]) {
        await expect(store.openFor?.(user, { limit })).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
      }
    });

    it("lists an interaction again when a completion is withdrawn back to accepted", async () => {
      const { store } = setup();
      const user = { issuer: "https://auth.example.com", subject: "dave" };
      await store.create(newInteraction("withdrawn", { user }));
      await store.transition("withdrawn", ["pending"], "accepted");
      await store.transition("withdrawn", ["accepted"], "completed");
      expect(await store.openFor?.(user)).toEqual([]);
      await store.transition("withdrawn", ["completed"], "accepted");
      expect((await store.openFor?.(user))?.map((i) => i.id)).toEqual(["withdrawn"]);
    });
  });
}
