/**
 * The timeout timers of a session's outbound requests. A request that settles hands its timer
 * back instead of clearing it; the next request with the same wait restarts it
 * (`Timeout.refresh`), which costs neither a new timer nor a callback, nor the timer list that
 * Node makes and drops when the last timer of a duration goes (one request at a time does that).
 */

/** Called when the timer of the request that holds the slot runs out. */
export interface TimerOwner {
  expire(): void;
}

type Timer = ReturnType<typeof setTimeout>;

/** One timer, and the request it currently times (none while it waits in the pool). */
export class TimerSlot {
  owner: TimerOwner | undefined;
  readonly timer: Timer;

  constructor(
    owner: TimerOwner,
    /** The wait it was made with, in ms; `refresh` restarts it with the same. */
    readonly ms: number,
    /** The `setTimeout` that made it: a timer made before fake timers were installed is not reused. */
    readonly madeBy: typeof setTimeout,
  ) {
    this.owner = owner;
    this.timer = madeBy(() => this.owner?.expire(), ms);
  }
}

/** Spare slots kept at most; more requests than this in flight make their timers as usual. */
const MAX_SPARE = 256;

export class RequestTimers {
  #spare: TimerSlot[] = [];

  /** Starts a timer of `ms` for `owner`, reusing a spare one where it can. */
  start(owner: TimerOwner, ms: number): TimerSlot {
    const made = globalThis.setTimeout;
    const slot = this.#spare.pop();
    if (slot !== undefined) {
      if (slot.madeBy !== made) {
        // Made by another `setTimeout` (fake timers came or went): all spares are left to run out unreferenced.
        this.#spare = [];
      } else if (slot.ms === ms) {
        slot.owner = owner;
        slot.timer.ref();
        slot.timer.refresh();
        return slot;
      } else {
        clearTimeout(slot.timer);
      }
    }
    return new TimerSlot(owner, ms, made);
  }

  /**
   * Stops `slot`'s request's timeout. The timer may stay scheduled, unreferenced (it keeps no
   * process alive) and without an owner: when it fires it does nothing.
   */
  stop(slot: TimerSlot): void {
    slot.owner = undefined;
    const timer = slot.timer as Partial<NodeJS.Timeout>;
    if (
      this.#spare.length < MAX_SPARE &&
      slot.madeBy === globalThis.setTimeout &&
      typeof timer.refresh === "function" &&
      typeof timer.unref === "function" &&
      typeof timer.ref === "function"
    ) {
      timer.unref();
      this.#spare.push(slot);
    } else {
      clearTimeout(slot.timer);
    }
  }

  /** Clears every spare timer (the session closed). */
  clear(): void {
    for (const slot of this.#spare) if (slot.madeBy === globalThis.setTimeout) clearTimeout(slot.timer);
    this.#spare = [];
  }
}
