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
  /**
   * The user's open interactions: `pending` or `accepted` and before their deadline at the store's
   * clock, newest first (by `createdAt`), at most `limit` (default 50, at most 500). Never another
   * user's: both `issuer` and `subject` must match. The inbox page (`/connect/inbox`) lists these.
   * The built-in stores implement it; without it a server cannot offer the inbox.
   * @throws SdkError "INVALID_ARGUMENT" for a `limit` that is not a whole number from 1 to 500.
   */
  openFor?(user: UserRef, options?: OpenInteractionsOptions): Promise<UserInteraction[]>;
}

/** Options of `InteractionStore.openFor`. */
export interface OpenInteractionsOptions {
  /** At most this many, newest first; default 50, at most 500. */
  limit?: number;
}

export interface CredentialVault {
  /** Stores or replaces the user's credential for `credential.provider`, atomically. */
  put(user: UserRef, credential: StoredCredential): Promise<void>;
  get(user: UserRef, provider: string): Promise<StoredCredential | undefined>;
  /** @returns whether something was removed. */
  delete(user: UserRef, provider: string): Promise<boolean>;
  /**
   * Every credential the user has stored, ordered by provider name (the connections page and
   * `CredentialBroker.connections`). The built-in vaults implement it; a vault without it has no
   * connections to list.
   */
  list?(user: UserRef): Promise<StoredCredential[]>;
  /**
   * Records that a tool used the user's credential for `provider` at `at` (ms since the epoch):
   * `lastUsedAt`. Does nothing when none is stored. The built-in vaults implement it.
   */
  markUsed?(user: UserRef, provider: string, at: number): Promise<void>;
}

/** What an audit record is about. */
export type AuditEvent =
  /** A hand-off (interaction) was created for the user. */
  | "handoff.created"
  /** The user opened its connect page, signed in as the interaction's user. */
  | "handoff.opened"
  | "handoff.completed"
  | "handoff.declined"
  | "handoff.expired"
  /** A grant or secret was stored in the vault. */
  | "grant.stored"
  | "grant.refreshed"
  /** The user (or the server) disconnected a provider: revoked upstream where possible, deleted locally. */
  | "grant.revoked"
  /** A tool sent a request with the credential attached (`ctx.credentials.fetch`). */
  | "credential.used";

/** One audit record as it is appended. Never holds a secret, a token or a code. */
export interface AuditEntry {
  /** ms since the epoch. */
  at: number;
  event: AuditEvent;
  /** Who: the verified user (issuer and subject). */
  user: UserRef;
  /** Which client, as it names itself (`clientInfo`; unverified). */
  client?: { name?: string; version?: string };
  /** The MCP session, when there was one. */
  sessionId?: string;
  /** The hand-off the record is about, if any. */
  interactionId?: string;
  /** The provider, e.g. `"github"`. */
  provider?: string;
  /** `ok`: it happened; `refused`: a check stopped it; `failed`: something broke. */
  outcome: "ok" | "refused" | "failed";
  /** Details without secrets: the host, method and status of a use, the scopes of a grant, why it was refused. */
  detail?: {
    host?: string;
    method?: string;
    /** The HTTP status the provider answered. */
    status?: number;
    scopes?: string[];
    /** Plain text, no secret. */
    reason?: string;
  };
}

/** An audit record as it is read back: the entry and its place in the log. */
export interface AuditRecord extends AuditEntry {
  /** Increasing with each append (per log). */
  seq: number;
}

/**
 * An append-only audit log of hand-offs, grants and credential uses. Records are never changed or
 * deleted by the library; each append is atomic. SQLite and PostgreSQL implementations.
 */
export interface AuditLog {
  /** Appends one record. @throws SdkError "INVALID_ARGUMENT" for a malformed entry; "STORE_UNAVAILABLE". */
  append(entry: AuditEntry): Promise<void>;
  /** The user's records, newest first; `limit` default 50, `before` a `seq` to page back from. */
  forUser(user: UserRef, options?: { limit?: number; before?: number }): Promise<AuditRecord[]>;
  /** Every record (or the user's), oldest first, as JSON lines: one `AuditRecord` per line, each ending in `\n`. */
  exportJsonLines(options?: { user?: UserRef }): AsyncIterable<string>;
}

export type { MessageBus } from "../model/bus.js";

/** A third-party authorization request under way, kept on the server under its `state`. */
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

/**
 * The `state` of third-party authorization requests: each is bound to one interaction and one user,
 * can be taken once (atomically, also when two instances take it at once), and lapses with its
 * interaction. Shared by every instance of a fleet, since the provider's callback lands on any.
 */
export interface GrantStateStore {
  put(state: string, grant: PendingGrant): Promise<void>;
  /** Removes and returns the grant; `undefined` when unknown, already taken or past `expiresAt`. */
  take(state: string): Promise<PendingGrant | undefined>;
}

/** Options of one `KeyedLock.withLock` call. */
export interface LockOptions {
  /**
   * ms the lock is held at most: a holder that dies (or hangs) loses it after this, so another
   * instance can go on. Choose it longer than the task takes.
   */
  leaseMs: number;
  /** ms to wait for a lock another holder has; then `withLock` rejects. */
  waitMs: number;
}

/**
 * Mutual exclusion by key across every instance that shares the lock's engine, for work that
 * must happen once at a time, such as refreshing one user's grant at one provider (a refresh
 * token may be spent only once). In-process for one instance; Redis or PostgreSQL for a fleet.
 */
export interface KeyedLock {
  /**
   * Runs `task` while holding the lock on `key` and releases it when `task` settles (or when the
   * lease runs out, whichever is first). A release never frees a lock another holder took after
   * the lease ran out.
   * @throws SdkError "LOCK_TIMEOUT" when the lock was not had within `options.waitMs`; the task did not run.
   * @throws whatever `task` throws, after the release.
   */
  withLock<T>(key: string, options: LockOptions, task: () => Promise<T>): Promise<T>;
}

/**
 * Short notes every instance sharing the engine reads, each lapsing by itself: for a fact worth
 * sharing for a few seconds only, such as "the provider did not answer this grant's refresh", so
 * that the instances waiting on it fail at once instead of each asking the provider again.
 * In-process for one instance (`MemoryExpiringNotes`); Redis or PostgreSQL for a fleet.
 */
export interface ExpiringNotes {
  /**
   * Keeps `value` under `key` for `ttlMs` (ms), replacing any note there.
   * @throws SdkError "INVALID_ARGUMENT" when `ttlMs` is not a positive number (nothing is kept).
   */
  put(key: string, value: string, ttlMs: number): Promise<void>;
  /** The note under `key`; `undefined` when there is none or it lapsed. */
  get(key: string): Promise<string | undefined>;
}
