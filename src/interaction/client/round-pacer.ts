/**
 * Pacing the retries of a hand-off carried in an `InputRequiredResult` (spec 2026-07-28:
 * basic/patterns/mrtr). The server learns completion only when the client retries, so after the
 * user's consent the client retries when the user says they are done, or after a poll interval,
 * never in a tight loop; once the hand-off's deadline passes it stops.
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
  private readonly nudged = new Set<string>();
  private readonly waiting = new Map<string, () => void>();

  constructor(
    /** ms from consent until the hand-off is given up. */
    private readonly timeoutMs: number,
    private readonly pollIntervalMs = DEFAULT_POLL_INTERVAL_MS,
    private readonly clock: PacerClock = SYSTEM_CLOCK,
  ) {}

  /** The user consented to hand-off `id`: its deadline starts now. */
  started(id: string): void {
    this.deadlines.set(id, this.clock.now() + this.timeoutMs);
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
   * Waits before the next retry of `id`: until the user's "done", the poll interval or `signal`.
   * @returns "retry", or "expired" once the deadline has passed (the hand-off is then forgotten).
   */
  async pace(id: string, signal?: AbortSignal): Promise<"retry" | "expired"> {
    const deadline = this.deadlines.get(id);
    if (deadline === undefined || this.clock.now() >= deadline) {
      this.deadlines.delete(id);
      return "expired";
    }
    if (this.nudged.delete(id) || signal?.aborted) return "retry";
    await new Promise<void>((resolve) => {
      const wait = Math.min(this.pollIntervalMs, deadline - this.clock.now());
      const finish = () => {
        this.clock.clearTimeout(timer);
        signal?.removeEventListener("abort", finish);
        if (this.waiting.get(id) === finish) this.waiting.delete(id);
        resolve();
      };
      const timer = this.clock.setTimeout(finish, Math.max(0, wait));
      signal?.addEventListener("abort", finish, { once: true });
      this.waiting.get(id)?.();
      this.waiting.set(id, finish);
    });
    return "retry";
  }
}
