/**
 * One unref'd timer that sweeps many items at once: each item only records when it was last
 * touched, and the timer is due when the one touched longest ago reaches the period, but never
 * sooner than a second from now (or the period, if shorter), so a busy server does not look at
 * every item all the time. It never keeps the process alive.
 */
export class SweepTimer {
  #timer: ReturnType<typeof setTimeout> | undefined;
  #stopped = false;

  /**
   * `periodMs`: ms after its last touch that an item is due (an integer from 1 to 2^31 − 1).
   * `sweep` runs when the timer fires; it re-arms the timer with the earliest time still open.
   */
  constructor(
    private readonly periodMs: number,
    private readonly sweep: () => void,
  ) {}

  /** Sets the timer for an item last touched at `touchedAt` (ms since the epoch), unless one is set or the timer stopped. */
  arm(touchedAt: number): void {
    if (this.#timer !== undefined || this.#stopped) return;
    const wait = Math.max(touchedAt + this.periodMs - Date.now(), Math.min(1000, this.periodMs));
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.sweep();
    }, wait);
    this.#timer.unref?.();
  }

  /** Clears a set timer (nothing is left to sweep); a later `arm` sets it again. */
  cancel(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** Clears the timer for good: later `arm` calls do nothing. */
  stop(): void {
    this.#stopped = true;
    this.cancel();
  }
}
