/**
 * What every `GrantStateStore` promises, run against each engine: a `state` is taken once only,
 * also by many takers at once (two instances receiving the same callback), and lapses at its
 * interaction's deadline.
 */
import { describe, expect, it } from "vitest";
import type { GrantStateStore, PendingGrant } from "../../src/stores/index.js";

/**
 * An empty store, its clock (ms since the epoch) and a way to let `ms` pass for it: an injected
 * clock moved on, or real time waited for an engine that keeps the clock itself.
 */
export type OpenGrantStateStore = () =>
  | { store: GrantStateStore; now: () => number; elapse: (ms: number) => Promise<void> }
  | Promise<{ store: GrantStateStore; now: () => number; elapse: (ms: number) => Promise<void> }>;

const TTL = 1_000;

export function pendingGrant(expiresAt: number, overrides: Partial<PendingGrant> = {}): PendingGrant {
  return {
    interactionId: "interaction-1",
    user: { issuer: "https://auth.example.com", subject: "alice" },
    provider: "github",
    scopes: ["repo", "read:user"],
    verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk",
    expiresAt,
    ...overrides,
  };
}

export function runGrantStateStoreContract(name: string, open: OpenGrantStateStore): void {
  describe(`${name} grant state store`, () => {
    it("hands a grant back once, as it was put, and then never again", async () => {
      const { store, now } = await open();
      const grant = pendingGrant(now() + 60_000);
      await store.put("state-1", grant);
      expect(await store.take("state-1")).toStrictEqual(grant);
      expect(await store.take("state-1")).toBeUndefined();
      expect(await store.take("state-unknown")).toBeUndefined();
    });

    it("keeps what was put, whatever the caller changes afterwards", async () => {
      const { store, now } = await open();
      const grant = pendingGrant(now() + 60_000);
      await store.put("state-copy", grant);
      grant.scopes.push("admin");
      grant.user.subject = "mallory";
      expect(await store.take("state-copy")).toStrictEqual(pendingGrant(grant.expiresAt));
    });

    it("keeps states apart", async () => {
      const { store, now } = await open();
      await store.put("state-a", pendingGrant(now() + 60_000, { interactionId: "a" }));
      await store.put("state-b", pendingGrant(now() + 60_000, { interactionId: "b" }));
      expect(await store.take("state-b")).toMatchObject({ interactionId: "b" });
      expect(await store.take("state-a")).toMatchObject({ interactionId: "a" });
    });

    it("gives a grant to exactly one of many concurrent takers", async () => {
      const { store, now } = await open();
      await store.put("state-raced", pendingGrant(now() + 60_000));
      const taken = await Promise.all(Array.from({ length: 10 }, () => store.take("state-raced")));
      expect(taken.filter((grant) => grant !== undefined)).toHaveLength(1);
    });

    it("lets a grant lapse at its deadline, and never hands out one put past it", async () => {
      const { store, now, elapse } = await open();
      await store.put("state-late", pendingGrant(now() + TTL));
      await store.put("state-kept", pendingGrant(now() + TTL * 60));
      await store.put("state-dead", pendingGrant(now() - 1));
      expect(await store.take("state-dead")).toBeUndefined();
      await elapse(TTL);
      expect(await store.take("state-late")).toBeUndefined();
      expect(await store.take("state-kept")).toMatchObject({ provider: "github" });
    });
  });
}
