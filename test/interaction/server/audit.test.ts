/**
 * The audit records `InteractionManager` writes: each step of a hand-off once, for the
 * interaction's user, with the session, the interaction and the client; and a log that fails
 * never fails the step.
 */
import { describe, expect, it } from "vitest";
import type { AuditEntry, AuditLog } from "../../../src/stores/index.js";
import { MemoryAuditLog } from "../../../src/stores/index.js";
import { CONNECT_MESSAGE, CONNECT_URL, createManager } from "./support.js";

const ALICE = { issuer: "https://auth.example.com", subject: "alice" };
const BOB = { issuer: "https://auth.example.com", subject: "bob" };
const input = {
  url: CONNECT_URL,
  message: CONNECT_MESSAGE,
  user: ALICE,
  sessionId: "session-a",
  purpose: { provider: "github", kind: "oauth" },
  clientName: "Inspector",
  clientVersion: "1.2.3",
};

async function events(log: AuditLog): Promise<Omit<AuditEntry, "at">[]> {
  return (await log.forUser(ALICE, { limit: 100 })).reverse().map(({ seq: _seq, at: _at, ...rest }) => rest);
}

describe("InteractionManager audit", () => {
  it("records created and completed for the user, with session, interaction, provider and client", async () => {
    const audit = new MemoryAuditLog();
    const { manager } = createManager({ audit });
    const interaction = await manager.create(input);
    await manager.complete(interaction.id, { user: ALICE });
    const common = { user: ALICE, sessionId: "session-a", interactionId: interaction.id, provider: "github" };
    expect(await events(audit)).toEqual([
      { event: "handoff.created", ...common, client: { name: "Inspector", version: "1.2.3" }, outcome: "ok" },
      { event: "handoff.completed", ...common, client: { name: "Inspector" }, outcome: "ok" },
    ]);
    expect(await audit.forUser(BOB)).toEqual([]);
  });

  it("attack: a client declaring a version too long for a record, or full of control characters, is still recorded as created", async () => {
    const audit = new MemoryAuditLog();
    const { manager } = createManager({ audit });
    await manager.create({ ...input, clientVersion: `9\u202e${"9".repeat(5_000)}` });
    const [created] = await events(audit);
    expect(created).toMatchObject({ event: "handoff.created", client: { name: "Inspector" } });
    expect(created?.client?.version).toMatch(/^9+$/);
    expect(created?.client?.version?.length).toBeLessThanOrEqual(100);
  });

  it("records a failed completion when commit throws, and a decline on the page or in the client", async () => {
    const audit = new MemoryAuditLog();
    const { manager } = createManager({ audit });
    const first = await manager.create(input);
    await expect(
      manager.complete(first.id, {
        user: ALICE,
        commit: async () => {
          throw new Error("vault down");
        },
      }),
    ).rejects.toThrow("vault down");
    await manager.decline(first.id, { user: ALICE });
    const second = await manager.create(input);
    await manager.recordAnswer(second.id, "cancel");
    const third = await manager.create(input);
    await manager.recordAnswer(third.id, "accept");
    const steps = (await events(audit)).map((e) => [e.event, e.outcome, e.interactionId, e.detail?.reason]);
    expect(steps).toEqual([
      ["handoff.created", "ok", first.id, undefined],
      ["handoff.completed", "failed", first.id, "storing the result failed"],
      ["handoff.declined", "ok", first.id, "declined on the page"],
      ["handoff.created", "ok", second.id, undefined],
      ["handoff.declined", "ok", second.id, "cancel in the client"],
      ["handoff.created", "ok", third.id, undefined],
    ]);
  });

  it("records expiry once, however many readers find the interaction past its deadline", async () => {
    const audit = new MemoryAuditLog();
    const { manager, clock, store } = createManager({ audit, ttlMs: 1_000 });
    const interaction = await manager.create(input);
    expect((await manager.get(interaction.id))?.status).toBe("pending");
    clock.advance(1_000);
    const reads = await Promise.all([1, 2, 3].map(() => manager.get(interaction.id)));
    expect(reads.map((r) => r?.status)).toEqual(["expired", "expired", "expired"]);
    await expect(manager.complete(interaction.id, { user: ALICE })).rejects.toMatchObject({ code: "EXPIRED" });
    const expired = (await events(audit)).filter((e) => e.event === "handoff.expired");
    expect(expired).toEqual([
      expect.objectContaining({ user: ALICE, interactionId: interaction.id, sessionId: "session-a", outcome: "ok" }),
    ]);
    expect((await store.get(interaction.id))?.status).toBe("expired");
  });

  it("goes on with the step when the log fails, and reports the failure to onerror", async () => {
    const reported: unknown[] = [];
    const failing: AuditLog = {
      append: async () => {
        throw new Error("audit store down");
      },
      forUser: async () => [],
      exportJsonLines: async function* () {},
    };
    const { manager } = createManager({ audit: failing, onerror: (error) => reported.push(error) });
    const interaction = await manager.create(input);
    const done = await manager.complete(interaction.id, { user: ALICE });
    expect(done.status).toBe("completed");
    expect(reported.map((e) => (e as Error).message)).toEqual(["audit store down", "audit store down"]);
    // Positive control: a working log gets both records.
    const audit = new MemoryAuditLog();
    const working = createManager({ audit });
    const again = await working.manager.create(input);
    await working.manager.complete(again.id, { user: ALICE });
    expect(await audit.forUser(ALICE)).toHaveLength(2);
  });
});
