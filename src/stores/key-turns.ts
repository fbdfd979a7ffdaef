/**
 * Turns per key inside one process, oldest first: the callers of one shared lock (PostgreSQL's or
 * Redis') wait here for their turn before one of them asks the engine, so they are served in the
 * order they asked and only one of them polls the engine for a key at a time.
 */
import { SdkError } from "../jsonrpc/errors.js";

/** Ends a turn and wakes the next caller of its key; a second call does nothing. */
export type LeaveTurn = () => void;

export class KeyTurns {
  /** Present while a caller has the key's turn: the callers waiting for it, oldest first. */
  readonly #waiting = new Map<string, Array<() => void>>();

  /**
   * Resolves when `key`'s turn is the caller's.
   * @throws SdkError "LOCK_TIMEOUT" when the turn did not come by `deadline` (ms since the epoch).
   */
  enter(key: string, deadline: number, waitMs: number): Promise<LeaveTurn> {
    const queue = this.#waiting.get(key);
    if (queue === undefined) {
      this.#waiting.set(key, []);
      return Promise.resolve(this.#leaver(key));
    }
    return new Promise<LeaveTurn>((resolve, reject) => {
      const wake = (): void => {
        clearTimeout(timer);
        resolve(this.#leaver(key));
      };
      const timer = setTimeout(
        () => {
          queue.splice(queue.indexOf(wake), 1);
          reject(lockTimeout(key, waitMs));
        },
        Math.max(0, deadline - Date.now()),
      );
      queue.push(wake);
    });
  }

  #leaver(key: string): LeaveTurn {
    let left = false;
    return () => {
      if (left) return;
      left = true;
      const queue = this.#waiting.get(key);
      const next = queue?.shift();
      if (next === undefined) this.#waiting.delete(key);
      else next();
    };
  }
}

export function lockTimeout(key: string, waitMs: number): SdkError {
  return new SdkError("LOCK_TIMEOUT", `The lock "${key}" was not had within ${waitMs} ms`);
}
