/**
 * The times that each of many idle sessions and streams keeps (when it was last active, last
 * written), as ms from one origin: such values stay small integers, which V8 keeps inside the
 * object itself for some 24 days after the origin, where a `Date.now()` value takes a heap number
 * of its own. Later values are plain numbers, as exact.
 */
const ORIGIN = Date.now();

/** `Date.now()` less the origin; a 32-bit integer (`| 0`) while it is one. */
export function clock(): number {
  const ms = Date.now() - ORIGIN;
  return ms >= -0x80000000 && ms <= 0x7fffffff ? ms | 0 : ms;
}

/** The `Date.now()` of a `clock()` value. */
export function epochOf(ms: number): number {
  return ms + ORIGIN;
}
