/**
 * The one measuring loop: `workers` chains of operations, each starting its next operation when
 * the previous one ends, until `count` operations were started or `timeMs` passed. A watchdog
 * ends the wait if an operation hangs, so a run always stops by itself.
 */
export interface Bounds {
  /** Most operations to start. */
  count: number;
  /** ms after which no new operation starts. */
  timeMs: number;
  /** Operations kept in flight at once. Default 1. */
  workers?: number;
  /** ms past `timeMs` after which a hung operation fails the run. Default 60,000. */
  stallMs?: number;
}

export interface LoopResult {
  /** Operations that finished. */
  completed: number;
  /** ms from the first start to the last end. */
  elapsedMs: number;
}

/** Runs `operation(worker, index)`; any failure rejects the whole run. */
export async function runBounded(
  bounds: Bounds,
  operation: (worker: number, index: number) => Promise<unknown>,
): Promise<LoopResult> {
  const workers = Math.max(1, bounds.workers ?? 1);
  const started = performance.now();
  const deadline = started + bounds.timeMs;
  let next = 0;
  let completed = 0;
  const chain = async (worker: number) => {
    while (next < bounds.count && performance.now() < deadline) {
      await operation(worker, next++);
      completed++;
    }
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const watchdog = new Promise<never>((_, reject) => {
    const stallMs = bounds.stallMs ?? 60_000;
    timer = setTimeout(
      () => reject(new Error(`an operation hung for more than ${stallMs} ms`)),
      bounds.timeMs + stallMs,
    );
  });
  try {
    await Promise.race([Promise.all(Array.from({ length: workers }, (_, worker) => chain(worker))), watchdog]);
  } finally {
    clearTimeout(timer);
  }
  return { completed, elapsedMs: performance.now() - started };
}

/** Operations per second. */
export function perSecond(result: LoopResult): number {
  return result.completed === 0 ? Number.NaN : (result.completed * 1000) / result.elapsedMs;
}

/** ms per operation. */
export function msPerOperation(result: LoopResult): number {
  return result.completed === 0 ? Number.NaN : result.elapsedMs / result.completed;
}
