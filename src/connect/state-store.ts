/**
 * The `state` of third-party authorization requests, kept on the server: each is bound to one
 * interaction and one user, can be taken once, and lapses with its interaction.
 */

import type { GrantStateStore, PendingGrant } from "../stores/types.js";

export type { GrantStateStore, PendingGrant };

/** For one server instance; a deployment with several puts these in shared storage. */
export class MemoryGrantStateStore implements GrantStateStore {
  readonly #grants = new Map<string, PendingGrant>();
  constructor(private readonly now: () => number = Date.now) {}

  async put(state: string, grant: PendingGrant): Promise<void> {
    const now = this.now();
    for (const [key, value] of this.#grants) if (value.expiresAt <= now) this.#grants.delete(key);
    // A deep copy: a caller changing its grant afterwards (its user, its scopes) changes nothing kept.
    this.#grants.set(state, structuredClone(grant));
  }

  async take(state: string): Promise<PendingGrant | undefined> {
    const grant = this.#grants.get(state);
    this.#grants.delete(state);
    return grant !== undefined && this.now() < grant.expiresAt ? grant : undefined;
  }
}
