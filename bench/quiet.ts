/**
 * Waiting for a quiet machine before each measurement: what the previous one left behind (a
 * server still exiting, Redis dropping a fleet run's keys, HAProxy stopping) must not be timed
 * as part of the next contestant's run, which would charge it to whoever happens to come first.
 */
import os from "node:os";

/** Share of all CPUs' time spent busy under which the machine counts as quiet. */
const QUIET_BUSY = 0.1;
/** ms of each sample. */
const SAMPLE_MS = 200;
/** ms after which the measurement goes ahead anyway (a machine that is never quiet). */
const MAX_WAIT_MS = 10_000;

function cpuTimes(): { busy: number; total: number } {
  let busy = 0;
  let total = 0;
  for (const { times } of os.cpus()) {
    const all = times.user + times.nice + times.sys + times.irq + times.idle;
    total += all;
    busy += all - times.idle;
  }
  return { busy, total };
}

/**
 * Resolves once the CPUs were busy less than `QUIET_BUSY` of a `SAMPLE_MS` sample, or after
 * `MAX_WAIT_MS`; the ms waited.
 */
export async function untilQuiet(): Promise<number> {
  const started = performance.now();
  for (;;) {
    const before = cpuTimes();
    await new Promise((resolve) => setTimeout(resolve, SAMPLE_MS));
    const after = cpuTimes();
    const total = after.total - before.total;
    const waited = performance.now() - started;
    if (total <= 0 || (after.busy - before.busy) / total < QUIET_BUSY || waited >= MAX_WAIT_MS) return waited;
  }
}
