/**
 * Decline and Save of one interaction at the same time (two tabs, or a double submit): exactly
 * one wins, the session hears of that one only, and the vault holds the credential only when Save
 * won. A Decline that comes while Save is still writing is refused. Control: alone, each succeeds.
 */
import { describe, expect, it } from "vitest";
import { InteractionError } from "../../../src/interaction/server/index.js";
import { CONNECT_MESSAGE, CONNECT_URL, createManager } from "./support.js";

const ALICE = { issuer: "https://auth.example.com", subject: "alice" };
const input = { url: CONNECT_URL, message: CONNECT_MESSAGE, user: ALICE, sessionId: "session-a" };

const settle = (work: Promise<unknown>) =>
  work.then(
    () => "won",
    (error: unknown) => (error instanceof InteractionError ? error.code : "threw"),
  );

describe("Decline and Save of one interaction at once", () => {
  it("control: alone, Decline declines and Save completes", async () => {
    const { manager } = createManager();
    const a = await manager.create(input);
    const b = await manager.create(input);
    expect((await manager.decline(a.id, { user: ALICE })).status).toBe("declined");
    expect((await manager.complete(b.id, { user: ALICE })).status).toBe("completed");
  });

  it("attack: sent together, in either order, exactly one wins and only it is announced", async () => {
    for (const first of ["decline", "save"] as const) {
      const { manager, bus } = createManager();
      const created = await manager.create(input);
      let stored = false;
      const save = () =>
        manager.complete(created.id, {
          user: ALICE,
          commit: async () => {
            stored = true;
          },
        });
      const decline = () => manager.decline(created.id, { user: ALICE });
      const [a, b] = first === "decline" ? [decline(), save()] : [save(), decline()];
      const outcomes = await Promise.all([settle(a), settle(b)]);
      expect(
        outcomes.filter((outcome) => outcome === "won"),
        first,
      ).toHaveLength(1);
      expect(
        outcomes.filter((outcome) => outcome === "NOT_PENDING"),
        first,
      ).toHaveLength(1);
      const status = (await manager.get(created.id))?.status;
      expect(stored, first).toBe(status === "completed");
      expect(
        bus.published.filter((p) => p.message.includes(created.id)),
        first,
      ).toHaveLength(1);
    }
  });

  it("attack: a Decline while Save is writing the vault is refused, and Save's completion stands", async () => {
    const { manager } = createManager();
    const created = await manager.create(input);
    let release = () => {};
    const writing = new Promise<void>((resolve) => {
      release = resolve;
    });
    const save = manager.complete(created.id, { user: ALICE, commit: () => writing });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(await settle(manager.decline(created.id, { user: ALICE }))).toBe("NOT_PENDING");
    release();
    expect((await save).status).toBe("completed");
    expect((await manager.get(created.id))?.status).toBe("completed");
  });
});
