/**
 * `InteractionManager.openFor`, what the inbox page lists: the user's open interactions from the
 * store, never another user's even from a store that answers wrongly, and a clear refusal from a
 * store that cannot list them.
 */
import { describe, expect, it } from "vitest";
import { InteractionManager } from "../../../src/interaction/server/index.js";
import type { UserInteraction } from "../../../src/model/interaction.js";
import { InProcessMessageBus, type InteractionStore, MemoryInteractionStore } from "../../../src/stores/index.js";
import { LOCAL_USER } from "./support.js";

const BOB = { issuer: "local", subject: "bob" };
const input = (user = LOCAL_USER) => ({
  url: "https://mcp.example.com/connect/{interactionId}",
  message: "Connect your GitHub account.",
  user,
  sessionId: "s",
});

function managerOver(store: InteractionStore): InteractionManager {
  return new InteractionManager({ store, bus: new InProcessMessageBus(), sweepIntervalMs: 0 });
}

describe("InteractionManager.openFor", () => {
  it("lists the user's open interactions, and drops another user's even when the store returns it", async () => {
    const memory = new MemoryInteractionStore();
    const manager = managerOver(memory);
    const alices = await manager.create(input());
    const bobs = await manager.create(input(BOB));
    // Positive control: each user sees their own.
    expect((await manager.openFor(LOCAL_USER)).map((i) => i.id)).toEqual([alices.id]);
    expect((await manager.openFor(BOB)).map((i) => i.id)).toEqual([bobs.id]);
    // A faulty store that answers with everyone's open interactions.
    const leaky: InteractionStore = {
      create: (i) => memory.create(i),
      get: (id) => memory.get(id),
      transition: (id, from, to) => memory.transition(id, from, to),
      purgeExpired: (now) => memory.purgeExpired(now),
      openFor: async () =>
        [await memory.get(alices.id), await memory.get(bobs.id)].filter((i): i is UserInteraction => i !== undefined),
    };
    expect((await managerOver(leaky).openFor(LOCAL_USER)).map((i) => i.id)).toEqual([alices.id]);
  });

  it("refuses with CAPABILITY_NOT_SUPPORTED over a store without openFor", async () => {
    const memory = new MemoryInteractionStore();
    const bare: InteractionStore = {
      create: (i) => memory.create(i),
      get: (id) => memory.get(id),
      transition: (id, from, to) => memory.transition(id, from, to),
      purgeExpired: (now) => memory.purgeExpired(now),
    };
    await expect(managerOver(bare).openFor(LOCAL_USER)).rejects.toMatchObject({ code: "CAPABILITY_NOT_SUPPORTED" });
  });
});
