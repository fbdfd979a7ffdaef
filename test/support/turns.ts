/**
 * Waiting for a condition without a clock: one turn of the event loop at a time, by `setImmediate`,
 * which vitest's fake timers leave real here, so these work under `vi.useFakeTimers()` as well.
 */

/** One turn of the event loop. */
export const turn = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve));

/** Waits, turn by turn (at most `turns`), until `read` yields a value; throws when it never does. */
export async function untilTurns<T>(read: () => T | undefined, turns = 1_000): Promise<T> {
  for (let i = 0; i < turns; i++) {
    const value = read();
    if (value !== undefined) return value;
    await turn();
  }
  throw new Error("condition never held");
}
