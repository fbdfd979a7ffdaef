/**
 * A `SessionDirectory` in process memory: for one instance, and for tests of several instances
 * inside one process. Records are copied in and out, so a caller's object never aliases one stored.
 */
import type { SessionChange, SessionDirectory, SessionRecord } from "./session-directory.js";

/** Options of `new MemorySessionDirectory(options)`. */
export interface MemorySessionDirectoryOptions {
  /** The clock, ms since the epoch; default `Date.now`. */
  now?: () => number;
}

interface Entry {
  record: SessionRecord;
  /** ms since the epoch after which the record is gone. */
  expiresAt: number;
}

export class MemorySessionDirectory implements SessionDirectory {
  readonly #entries = new Map<string, Entry>();
  readonly #now: () => number;

  constructor(options: MemorySessionDirectoryOptions = {}) {
    this.#now = options.now ?? Date.now;
  }

  async put(sessionId: string, record: SessionRecord, ttlMs: number): Promise<void> {
    this.#entries.set(sessionId, { record: structuredClone(record), expiresAt: this.#now() + ttlMs });
  }

  async get(sessionId: string): Promise<SessionRecord | undefined> {
    const entry = this.#live(sessionId);
    return entry === undefined ? undefined : structuredClone(entry.record);
  }

  async update(sessionId: string, change: SessionChange): Promise<boolean> {
    const entry = this.#live(sessionId);
    if (entry === undefined) return false;
    const record = entry.record;
    if ("logLevel" in change) record.logLevel = change.logLevel;
    else if ("subscribe" in change) {
      if (!record.subscriptions.includes(change.subscribe)) record.subscriptions.push(change.subscribe);
    } else record.subscriptions = record.subscriptions.filter((uri) => uri !== change.unsubscribe);
    return true;
  }

  async touch(sessionId: string, ttlMs: number): Promise<boolean> {
    const entry = this.#live(sessionId);
    if (entry === undefined) return false;
    entry.expiresAt = this.#now() + ttlMs;
    return true;
  }

  async delete(sessionId: string): Promise<boolean> {
    const known = this.#live(sessionId) !== undefined;
    this.#entries.delete(sessionId);
    return known;
  }

  async subscribedTo(uri: string): Promise<string[]> {
    const ids: string[] = [];
    for (const sessionId of [...this.#entries.keys()]) {
      if (this.#live(sessionId)?.record.subscriptions.includes(uri) === true) ids.push(sessionId);
    }
    return ids;
  }

  /** The entry while its TTL runs; an expired one is dropped. */
  #live(sessionId: string): Entry | undefined {
    const entry = this.#entries.get(sessionId);
    if (entry === undefined) return undefined;
    if (this.#now() >= entry.expiresAt) {
      this.#entries.delete(sessionId);
      return undefined;
    }
    return entry;
  }
}
