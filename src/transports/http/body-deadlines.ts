/**
 * The deadlines of the request bodies being read, on one shared timer per bound (`bodyTimeoutMs`)
 * instead of a timer per request: a busy server then starts and clears no timer per POST. Reads
 * of one bound start in order, so they are due in order, and a sweep stops at the first one not
 * due yet. A read may end up to a second after its deadline (see `SweepTimer`), never before.
 */
import { SweepTimer } from "./sweep-timer.js";

/** One body being read: when it started (ms since the epoch), and what ends it when it is due. */
interface PendingRead {
  readonly startedAt: number;
  readonly expire: () => void;
}

/** The reads of one bound, oldest first, and the timer that ends them. */
class Deadlines {
  readonly #pending = new Set<PendingRead>();
  readonly #timer: SweepTimer;

  constructor(private readonly timeoutMs: number) {
    this.#timer = new SweepTimer(timeoutMs, () => this.#sweep());
  }

  add(read: PendingRead): void {
    this.#pending.add(read);
    this.#timer.arm(read.startedAt);
  }

  delete(read: PendingRead): void {
    this.#pending.delete(read);
    if (this.#pending.size === 0) this.#timer.cancel();
  }

  #sweep(): void {
    const now = Date.now();
    for (const read of this.#pending) {
      if (read.startedAt + this.timeoutMs > now) {
        this.#timer.arm(read.startedAt);
        return;
      }
      this.#pending.delete(read);
      read.expire();
    }
  }
}

const byBound = new Map<number, Deadlines>();

/**
 * Calls `expire` once `timeoutMs` (ms, an integer a timer can wait) have passed, unless the
 * returned function is called first (the body arrived, or the read failed).
 */
export function bodyDeadline(timeoutMs: number, expire: () => void): () => void {
  let deadlines = byBound.get(timeoutMs);
  if (deadlines === undefined) {
    deadlines = new Deadlines(timeoutMs);
    byBound.set(timeoutMs, deadlines);
  }
  const read: PendingRead = { startedAt: Date.now(), expire };
  const own = deadlines;
  own.add(read);
  return () => own.delete(read);
}
