/**
 * An `InteractionManager` for CLI tests, where the test plays the connect page: it records every
 * hand-off the server makes so the test can complete them as the user.
 */
import { InteractionManager } from "../../src/interaction/server/index.js";
import { InProcessMessageBus, MemoryInteractionStore } from "../../src/stores/index.js";
import { recordCreated } from "../interaction/server/record-created.js";

/** The local user every hand-off belongs to. */
export const USER = { issuer: "local", subject: "alice" };

/** A manager for `USER`, the ids of the interactions it made (in order), and a way to complete them. */
export function recordingManager() {
  const manager = new InteractionManager({
    store: new MemoryInteractionStore(),
    bus: new InProcessMessageBus(),
    unsafeLocalUser: USER,
  });
  const created = recordCreated(manager);
  /** Completes every hand-off made so far and not yet completed through this function. */
  const completeAll = async () => {
    for (const id of created.splice(0)) await manager.complete(id, { user: USER });
  };
  return { manager, created, completeAll };
}
