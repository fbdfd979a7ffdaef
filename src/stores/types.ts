/**
 * Small storage interfaces with embedded defaults (memory, SQLite) and, later, distributed
 * engines (Redis, PostgreSQL). Each interface has one contract test suite every implementation
 * runs. Writes are atomic; secrets are encrypted at rest by the vault implementations.
 */

import type { UserRef } from "../model/identity.js";
import type { InteractionStatus, NewInteraction, StoredCredential, UserInteraction } from "../model/interaction.js";

export interface InteractionStore {
  /** Stores a new interaction as `pending`. @throws SdkError "INVALID_ARGUMENT" when the id exists. */
  create(interaction: NewInteraction): Promise<UserInteraction>;
  /**
   * The interaction, with `status: "expired"` reported once `expiresAt` has passed (`now >= expiresAt`),
   * unless it completed before; `undefined` if unknown.
   */
  get(id: string): Promise<UserInteraction | undefined>;
  /**
   * Atomically moves an interaction from one of `from` to `to`. Returns the updated interaction,
   * or `undefined` when it is unknown, not in one of `from`, or past its deadline while `to` is not
   * `"expired"` (nothing changes then). The check is on the stored status, so `["pending"] -> "expired"`
   * records the expiry of a pending interaction whose deadline passed.
   */
  transition(
    id: string,
    from: readonly InteractionStatus[],
    to: InteractionStatus,
  ): Promise<UserInteraction | undefined>;
  /**
   * Removes interactions whose `expiresAt` is at or before `now` (ms; defaults to the store's clock),
   * whatever their status; returns how many.
   */
  purgeExpired(now?: number): Promise<number>;
}

export interface CredentialVault {
  /** Stores or replaces the user's credential for `credential.provider`, atomically. */
  put(user: UserRef, credential: StoredCredential): Promise<void>;
  get(user: UserRef, provider: string): Promise<StoredCredential | undefined>;
  /** @returns whether something was removed. */
  delete(user: UserRef, provider: string): Promise<boolean>;
}

/** Delivers small messages (e.g. "interaction X completed") to whichever instance holds the session. */
export interface MessageBus {
  publish(channel: string, message: string): Promise<void>;
  /** @returns a function that unsubscribes. */
  subscribe(channel: string, handler: (message: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}
