/**
 * A `KeyedLock` within one process: for one instance, and for tests of several instances inside
 * one process. Waiters are served in the order they asked.
 */
import { SdkError } from "../jsonrpc/errors.js";
import type { KeyedLock, LockOptions } from "./types.js";

interface Held {
  /** Callers waiting for this key, oldest first; each is woken with the lock handed to it. */
  waiters: Array<() => void>;
  /** The lease of the current holder. */
  lease: ReturnType<typeof setTimeout>;
  /** Bumped at each hand-over, so a release after a lapsed lease frees nothing. */
  turn: number;
}

export class MemoryKeyedLock implements KeyedLock {
  readonly #held = new Map<string, Held>();

  async withLock<T>(key: string, options: LockOptions, task: () => Promise<T>): Promise<T> {
    const turn = await this.#acquire(key, options);
    try {
      return await task();
    } finally {
      this.#release(key, turn);
    }
  }

  #acquire(key: string, options: LockOptions): Promise<number> {
    const held = this.#held.get(key);
    if (held === undefined) {
      const fresh: Held = { waiters: [], lease: this.#leaseTimer(key, 0, options.leaseMs), turn: 0 };
      this.#held.set(key, fresh);
      return Promise.resolve(0);
    }
    return new Promise<number>((resolve, reject) => {
      const wake = (): void => {
        clearTimeout(timer);
        held.lease = this.#leaseTimer(key, held.turn, options.leaseMs);
        resolve(held.turn);
      };
      const timer = setTimeout(() => {
        held.waiters.splice(held.waiters.indexOf(wake), 1);
        reject(new SdkError("LOCK_TIMEOUT", `The lock "${key}" was not had within ${options.waitMs} ms`));
      }, options.waitMs);
      held.waiters.push(wake);
    });
  }

  #leaseTimer(key: string, turn: number, leaseMs: number): ReturnType<typeof setTimeout> {
    const timer = setTimeout(() => this.#release(key, turn), leaseMs);
    timer.unref?.();
    return timer;
  }

  /** Hands the lock to the next waiter, or frees it; nothing when `turn` is no longer the holder's. */
  #release(key: string, turn: number): void {
    const held = this.#held.get(key);
    if (held === undefined || held.turn !== turn) return;
    clearTimeout(held.lease);
    const next = held.waiters.shift();
    if (next === undefined) {
      this.#held.delete(key);
      return;
    }
    held.turn += 1;
    next();
  }
}
