/**
 * Pacing the retries of a hand-off carried in an `InputRequiredResult` (spec 2026-07-28:
 * basic/patterns/mrtr). The server learns completion only when the client retries. The first
 * retry after the user's consent goes at once: a server may hold it until the page is done (spec
 * 2026-07-28: client/elicitation § URL Mode Flow), as this package's does. A server that answers
 * at once with the same page gets the next retry when the user says they are done or one poll
 * interval after the previous retry, never in a tight loop; once the hand-off's deadline passes
 * the pacer stops.
 */

/** ms between retries while a hand-off page is open and the user has not said "done": 2,000. */
export const DEFAULT_POLL_INTERVAL_MS = 2_000;

/** Timers the pacer uses; tests pass their own. */
export interface PacerClock {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const SYSTEM_CLOCK: PacerClock = {
  now: () => Date.now(),
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export class RoundPacer {
  private readonly deadlines = new Map<string, number>();
  /** When the last retry of each hand-off went out (clock ms); a retry held that long needs no wait. */
  private readonly retried = new Map<string, number>();
  private readonly nudged = new Set<string>();
  private readonly waiting = new Map<string, () => void>();

  constructor(
    /** ms from consent until the hand-off is given up. */
    private readonly timeoutMs: number,
    private readonly pollIntervalMs = DEFAULT_POLL_INTERVAL_MS,
    private readonly clock: PacerClock = SYSTEM_CLOCK,
  ) {}

  /** The user consented to hand-off `id`: its deadline starts now, and its first retry goes at once. */
  started(id: string): void {
    this.deadlines.set(id, this.clock.now() + this.timeoutMs);
    this.retried.delete(id);
    // Calls that ended never say so here: the oldest hand-offs are forgotten past a bound.
    const oldest = this.deadlines.keys().next().value;
    if (this.deadlines.size > 256 && oldest !== undefined) {
      this.deadlines.delete(oldest);
      this.retried.delete(oldest);
    }
  }

  /** The user says `id` is done: a pending wait ends now, or the next one ends at once. @returns whether `id` is paced here. */
  nudge(id: string): boolean {
    const wake = this.waiting.get(id);
    if (wake) wake();
    // A "done" said while the consent answer is still on its way counts for the first wait.
    else {
      this.nudged.add(id);
      const oldest = this.nudged.values().next().value;
      if (this.nudged.size > 256 && oldest !== undefined) this.nudged.delete(oldest);
    }
    return this.deadlines.has(id) || wake !== undefined;
  }

  /**
   * Waits before the next retry of `id`: not at all for the first retry after consent or when the
   * previous retry went out a poll interval ago or more (the server held it); else until the
   * user's "done", the rest of the poll interval, or `signal`.
   * @returns "retry", or "expired" once the deadline has passed (the hand-off is then forgotten).
   */
  async pace(id: string, signal?: AbortSignal): Promise<"retry" | "expired"> {
    const deadline = this.deadlines.get(id);
    const now = this.clock.now();
    if (deadline === undefined || now >= deadline) {
      this.deadlines.delete(id);
      this.retried.delete(id);
      return "expired";
    }
    const last = this.retried.get(id);
    const wait = last === undefined ? 0 : Math.min(last + this.pollIntervalMs, deadline) - now;
    if (this.nudged.delete(id) || signal?.aborted || wait <= 0) return this.retry(id);
    await new Promise<void>((resolve) => {
      const finish = () => {
        this.clock.clearTimeout(timer);
        signal?.removeEventListener("abort", finish);
        if (this.waiting.get(id) === finish) this.waiting.delete(id);
        resolve();
      };
      const timer = this.clock.setTimeout(finish, wait);
      signal?.addEventListener("abort", finish, { once: true });
      this.waiting.get(id)?.();
      this.waiting.set(id, finish);
    });
    return this.retry(id);
  }

  private retry(id: string): "retry" {
    this.retried.set(id, this.clock.now());
    return "retry";
  }
}
