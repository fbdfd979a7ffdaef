/**
 * Makes an `InteractionManager` remember the id of every interaction it creates, in order, for
 * tests that play the user's side and need ids no message names (2026-07-28 carries them inside
 * `requestState`; a CLI test completes hand-offs as the connect page would).
 */
import type { InteractionManager } from "../../../src/interaction/server/index.js";

/** Wraps `manager.create`; returns the list it appends each new interaction's id to. */
export function recordCreated(manager: InteractionManager): string[] {
  const created: string[] = [];
  const create = manager.create.bind(manager);
  manager.create = async (input) => {
    const interaction = await create(input);
    created.push(interaction.id);
    return interaction;
  };
  return created;
}
