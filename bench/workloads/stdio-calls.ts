/** stdio: `tools/call` of `echo` with a short text, 1, 16 and 256 requests in flight. */
import { serverCommand } from "../impl/process.js";
import { perSecond, runBounded } from "./loop.js";
import { type Scale, scaledCount, scaledTime, type Workload } from "./types.js";

/**
 * Counts high enough that each level runs for most of TIME_MS on the fastest implementation: a
 * level over in a few hundred ms measures the machine's hiccups as much as the code.
 */
const LEVELS = [
  { workers: 1, count: 40_000 },
  { workers: 16, count: 400_000 },
  { workers: 256, count: 600_000 },
] as const;
const TIME_MS = 3_000;
/**
 * Warm-up calls (up to TIME_MS): enough for the larger code paths of the SDKs and ours to reach
 * optimized code. Each level then warms up again at its own number in flight (up to half of
 * TIME_MS), untimed: one request at a time takes other paths than sixteen (a line per read, a
 * write per answer), and those too must be compiled before the level is timed.
 */
const WARMUP = 5_000;

export const stdioCalls: Workload = {
  id: "stdio-calls",
  title: "stdio: tools/call throughput",
  description: `An echo of "hello" over one stdio connection; each level runs up to ${TIME_MS} ms after ${WARMUP} warm-up calls, and ${WARMUP} more (up to ${TIME_MS / 2} ms) at its own number in flight.`,
  figures: LEVELS.map(({ workers }) => ({
    id: `inflight-${workers}`,
    label: `${workers} in flight`,
    unit: "calls/s",
    better: "higher" as const,
  })),
  async run({ client: impl }, scale: Scale) {
    const session = await impl.openStdio(serverCommand(impl.stdioServer));
    try {
      await runBounded({ count: scaledCount(WARMUP, scale), timeMs: TIME_MS, workers: 16 }, () =>
        session.echo("hello"),
      );
      const figures: Record<string, number> = {};
      for (const { workers, count } of LEVELS) {
        const warmup = { count: scaledCount(WARMUP, scale), timeMs: scaledTime(TIME_MS / 2, scale), workers };
        await runBounded(warmup, () => session.echo("hello"));
        const bounds = { count: scaledCount(count, scale), timeMs: scaledTime(TIME_MS, scale), workers };
        figures[`inflight-${workers}`] = perSecond(await runBounded(bounds, () => session.echo("hello")));
      }
      return figures;
    } finally {
      await session.close();
    }
  },
};
