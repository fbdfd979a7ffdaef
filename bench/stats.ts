/**
 * The few statistics the report needs: the median of a round's figures, their spread (min and
 * max), and the ratio of one implementation's figure to another's from the same round.
 */

/** The middle value (the mean of the two middle values for an even count); NaN when empty. */
export function median(values: readonly number[]): number {
  const sorted = values.filter((v) => !Number.isNaN(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The smallest and largest value; both NaN when empty. */
export function spread(values: readonly number[]): { min: number; max: number } {
  const kept = values.filter((v) => !Number.isNaN(v));
  if (kept.length === 0) return { min: Number.NaN, max: Number.NaN };
  return { min: Math.min(...kept), max: Math.max(...kept) };
}

/** `value / base`; NaN when either is missing or the base is zero. */
export function ratio(value: number | undefined, base: number | undefined): number {
  if (value === undefined || base === undefined || base === 0) return Number.NaN;
  return value / base;
}

/**
 * The ratio of `values[i]` to `bases[i]` for every round both have, then their median: a
 * drift of the machine between rounds moves both figures of a round together.
 */
export function medianRatio(values: readonly number[], bases: readonly number[]): number {
  const ratios: number[] = [];
  const rounds = Math.min(values.length, bases.length);
  for (let i = 0; i < rounds; i++) ratios.push(ratio(values[i], bases[i]));
  return median(ratios);
}

/** Median and spread of one figure over the rounds. */
export interface Summary {
  median: number;
  min: number;
  max: number;
  rounds: number;
}

export function summarize(values: readonly number[]): Summary {
  const { min, max } = spread(values);
  return { median: median(values), min, max, rounds: values.filter((v) => !Number.isNaN(v)).length };
}

/**
 * The `p`-th percentile (0 < p ≤ 100) by nearest rank: the smallest value with at least p % of
 * the values at or below it; NaN when empty.
 */
export function percentile(values: readonly number[], p: number): number {
  const sorted = values.filter((v) => !Number.isNaN(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1]!;
}
