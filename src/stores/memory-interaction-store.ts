import { sameUser, type UserRef } from "../model/identity.js";
import type { InteractionStatus, NewInteraction, UserInteraction } from "../model/interaction.js";
import {
  checkNewInteraction,
  checkStatus,
  duplicateId,
  isPastDeadline,
  newPending,
  OPEN_STATUSES,
  openLimit,
  visibleStatus,
} from "./interaction-status.js";
import type { InteractionStore, OpenInteractionsOptions } from "./types.js";

export interface MemoryInteractionStoreOptions {
  /** The clock, in ms since the epoch; defaults to `Date.now`. Inject one to test expiry. */
  now?: () => number;
}

/**
 * An `InteractionStore` in this process's memory, for one server instance and for tests. Every
 * method checks and changes its map before its first `await`, so each call is atomic.
 */
export class MemoryInteractionStore implements InteractionStore {
  readonly #now: () => number;
  readonly #interactions = new Map<string, UserInteraction>();

  constructor(options: MemoryInteractionStoreOptions = {}) {
    this.#now = options.now ?? Date.now;
  }

  /** @throws SdkError "INVALID_ARGUMENT" when the id exists or a field has the wrong type. */
  async create(interaction: NewInteraction): Promise<UserInteraction> {
    checkNewInteraction(interaction);
    if (this.#interactions.has(interaction.id)) throw duplicateId();
    const created = newPending(interaction, this.#now());
    this.#interactions.set(created.id, created);
    return this.#read(created);
  }

  async get(id: string): Promise<UserInteraction | undefined> {
    const stored = this.#interactions.get(id);
    return stored && this.#read(stored);
  }

  /** @throws SdkError "INVALID_ARGUMENT" when `to` is not an interaction status. */
  async transition(
    id: string,
    from: readonly InteractionStatus[],
    to: InteractionStatus,
  ): Promise<UserInteraction | undefined> {
    checkStatus(to);
    const stored = this.#interactions.get(id);
    if (stored === undefined || !from.includes(stored.status)) return undefined;
    if (to !== "expired" && isPastDeadline(stored.expiresAt, this.#now())) return undefined;
    stored.status = to;
    return this.#read(stored);
  }

  async purgeExpired(now: number = this.#now()): Promise<number> {
    let purged = 0;
    for (const [id, stored] of this.#interactions) {
      if (isPastDeadline(stored.expiresAt, now)) {
        this.#interactions.delete(id);
        purged += 1;
      }
    }
    return purged;
  }

  /** @throws SdkError "INVALID_ARGUMENT" for a bad `limit`. */
  async openFor(user: UserRef, options?: OpenInteractionsOptions): Promise<UserInteraction[]> {
    const limit = openLimit(options);
    const now = this.#now();
    const open = [...this.#interactions.values()].filter(
      (stored) =>
        OPEN_STATUSES.includes(stored.status) && !isPastDeadline(stored.expiresAt, now) && sameUser(stored.user, user),
    );
    return open
      .sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? -1 : 1))
      .slice(0, limit)
      .map((stored) => this.#read(stored));
  }

  /** A copy for the caller, so changing it cannot change the store. */
  #read(stored: UserInteraction): UserInteraction {
    const copy = structuredClone(stored);
    copy.status = visibleStatus(stored.status, stored.expiresAt, this.#now());
    return copy;
  }
}
