/** `ExpiringNotes` within one process: for one instance, and for tests of several instances inside one process. */
import { SdkError } from "../jsonrpc/errors.js";
import type { ExpiringNotes } from "./types.js";

export interface MemoryExpiringNotesOptions {
  /** ms since the epoch; default `Date.now`. */
  now?: () => number;
}

export class MemoryExpiringNotes implements ExpiringNotes {
  readonly #notes = new Map<string, { value: string; until: number }>();
  readonly #now: () => number;

  constructor(options: MemoryExpiringNotesOptions = {}) {
    this.#now = options.now ?? Date.now;
  }

  async put(key: string, value: string, ttlMs: number): Promise<void> {
    if (!(Number.isFinite(ttlMs) && ttlMs > 0)) {
      throw new SdkError("INVALID_ARGUMENT", "A note's ttlMs must be a positive number of ms.");
    }
    this.#purge();
    this.#notes.set(key, { value, until: this.#now() + ttlMs });
  }

  async get(key: string): Promise<string | undefined> {
    const note = this.#notes.get(key);
    if (note === undefined) return undefined;
    if (this.#now() < note.until) return note.value;
    this.#notes.delete(key);
    return undefined;
  }

  /** Lapsed notes are dropped as new ones come, so the map holds only what is still readable. */
  #purge(): void {
    const now = this.#now();
    for (const [key, note] of this.#notes) if (now >= note.until) this.#notes.delete(key);
  }
}
