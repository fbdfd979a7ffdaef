/**
 * The `state` of third-party authorization requests, kept on the server: each is bound to one
 * interaction and one user, can be taken once, and lapses with its interaction.
 */
import type { UserRef } from "../model/identity.js";

export interface PendingGrant {
  interactionId: string;
  user: UserRef;
  provider: string;
  scopes: string[];
  /** PKCE code verifier; never leaves the server. */
  verifier: string;
  /** ms since the epoch (the interaction's deadline). */
  expiresAt: number;
}

export interface GrantStateStore {
  put(state: string, grant: PendingGrant): Promise<void>;
  /** Removes and returns the grant; `undefined` when unknown, already taken or past `expiresAt`. */
  take(state: string): Promise<PendingGrant | undefined>;
}

/** For one server instance; a deployment with several puts these in shared storage. */
export class MemoryGrantStateStore implements GrantStateStore {
  readonly #grants = new Map<string, PendingGrant>();
  constructor(private readonly now: () => number = Date.now) {}

  async put(state: string, grant: PendingGrant): Promise<void> {
    const now = this.now();
    for (const [key, value] of this.#grants) if (value.expiresAt <= now) this.#grants.delete(key);
    this.#grants.set(state, { ...grant, scopes: [...grant.scopes] });
  }

  async take(state: string): Promise<PendingGrant | undefined> {
    const grant = this.#grants.get(state);
    this.#grants.delete(state);
    return grant !== undefined && this.now() < grant.expiresAt ? grant : undefined;
  }
}
