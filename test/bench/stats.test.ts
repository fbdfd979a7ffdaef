import { describe, expect, it } from "vitest";
import { formatNumber, formatRatio } from "../../bench/report.js";
import { median, medianRatio, percentile, ratio, spread, summarize } from "../../bench/stats.js";
import { runBounded } from "../../bench/workloads/loop.js";

describe("bench statistics", () => {
  it("takes the middle value, or the mean of the two middle values", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([7])).toBe(7);
  });

  it("leaves out failed rounds (NaN) and gives NaN when nothing is left", () => {
    expect(median([Number.NaN, 5, 1])).toBe(3);
    expect(median([])).toBeNaN();
    expect(median([Number.NaN])).toBeNaN();
  });

  it("takes a percentile by nearest rank, leaving out NaN", () => {
    const hundred = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(percentile(hundred, 50)).toBe(50);
    expect(percentile(hundred, 99)).toBe(99);
    expect(percentile([3, Number.NaN, 1, 2], 100)).toBe(3);
    expect(percentile([4], 1)).toBe(4);
    expect(percentile([], 50)).toBeNaN();
  });

  it("gives the spread as min and max", () => {
    expect(spread([5, 2, 9, Number.NaN])).toEqual({ min: 2, max: 9 });
    expect(spread([])).toEqual({ min: Number.NaN, max: Number.NaN });
  });

  it("divides by the base, and gives NaN for a missing or zero base", () => {
    expect(ratio(50, 200)).toBe(0.25);
    expect(ratio(1, 0)).toBeNaN();
    expect(ratio(undefined, 3)).toBeNaN();
    expect(ratio(3, undefined)).toBeNaN();
  });

  it("pairs ratios by round before taking their median", () => {
    // Per round: 100/200, 90/100, 300/400 -> 0.5, 0.9, 0.75; the median is 0.75, not 490/700.
    expect(medianRatio([100, 90, 300], [200, 100, 400])).toBe(0.75);
    expect(medianRatio([1, 2, 3], [2])).toBe(0.5);
    expect(medianRatio([], [])).toBeNaN();
  });

  it("summarizes a figure over the rounds", () => {
    expect(summarize([3, Number.NaN, 1, 2])).toEqual({ median: 2, min: 1, max: 3, rounds: 3 });
  });

  it("formats figures and ratios for the report", () => {
    expect(formatNumber(12_345.6)).toBe("12,346");
    expect(formatNumber(12.34)).toBe("12.3");
    expect(formatNumber(1.234)).toBe("1.23");
    expect(formatNumber(Number.NaN)).toBe("—");
    expect(formatRatio(0.4567)).toBe("0.46×");
    expect(formatRatio(Number.POSITIVE_INFINITY)).toBe("—");
  });
});

describe("the bounded loop", () => {
  it("starts no more operations than the count, spread over the workers", async () => {
    const seen = new Set<number>();
    const result = await runBounded({ count: 10, timeMs: 60_000, workers: 3 }, async (worker) => {
      seen.add(worker);
    });
    expect(result.completed).toBe(10);
    expect([...seen].sort()).toEqual([0, 1, 2]);
  });

  it("starts nothing once the time bound has passed", async () => {
    let calls = 0;
    const result = await runBounded({ count: 1_000, timeMs: 0 }, async () => {
      calls++;
    });
    expect(calls).toBe(0);
    expect(result.completed).toBe(0);
  });

  it("fails the run when an operation fails", async () => {
    await expect(
      runBounded({ count: 5, timeMs: 60_000 }, async (_, index) => {
        if (index === 2) throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
  });

  it("gives up on an operation that never ends", async () => {
    await expect(runBounded({ count: 1, timeMs: 1, stallMs: 10 }, () => new Promise<never>(() => {}))).rejects.toThrow(
      "hung",
    );
  });
});
