/**
 * Watches the SSE streams of one Streamable HTTP server with two unref'd timers for all of them:
 * keep-alives, due when the stream written to longest ago has been silent for the interval, and
 * the age limit of a connection, due when the oldest connection that may be closed reaches it.
 * An idle stream costs a set entry and no timer of its own.
 */
import type { SseSink } from "./sinks.js";
import { SweepTimer } from "./sweep-timer.js";

export class KeepAliveSweep {
  /** Open SSE streams; a sink leaves the set when it ends. */
  private readonly streams = new Set<SseSink>();
  /** Due when the stream written to longest ago needs a keep-alive; a write only updates its stream's time. */
  private readonly keepAliveTimer: SweepTimer | undefined;
  /** Due when the oldest connection that can be closed reaches `maxConnectionMs`. */
  private readonly ageTimer: SweepTimer | undefined;

  /**
   * `keepAliveMs`: ms of silence after which a stream gets a keep-alive; `maxConnectionMs`: ms
   * after which a connection is closed where it can be (`SseSink.onexpire`). Each is an integer
   * from 1 to 2^31 − 1, or `undefined` for none.
   */
  constructor(
    private readonly keepAliveMs: number | undefined,
    private readonly maxConnectionMs: number | undefined,
  ) {
    if (keepAliveMs !== undefined) this.keepAliveTimer = new SweepTimer(keepAliveMs, () => this.sweepSilent());
    if (maxConnectionMs !== undefined) this.ageTimer = new SweepTimer(maxConnectionMs, () => this.sweepOld());
  }

  /** Watches an SSE stream until it ends. */
  watch(stream: SseSink): void {
    stream.watch(this.streams);
    if (!stream.open) return;
    this.keepAliveTimer?.arm(stream.writtenAt);
    if (stream.expirable) this.ageTimer?.arm(stream.openedAt);
  }

  /** Stops the timers and forgets every stream (the server is closing). */
  stop(): void {
    this.keepAliveTimer?.stop();
    this.ageTimer?.stop();
    this.streams.clear();
  }

  /** Writes a keep-alive on each stream silent for the interval; one found gone has left the set as it ended. */
  private sweepSilent(): void {
    const interval = this.keepAliveMs ?? Number.POSITIVE_INFINITY;
    const now = Date.now();
    let earliest = Number.POSITIVE_INFINITY;
    for (const stream of this.streams) {
      if (now - stream.writtenAt >= interval) stream.keepAlive();
      if (stream.open) earliest = Math.min(earliest, stream.writtenAt);
      else this.streams.delete(stream);
    }
    if (earliest !== Number.POSITIVE_INFINITY) this.keepAliveTimer?.arm(earliest);
  }

  /** Closes each connection that reached its allowed age and can be closed. */
  private sweepOld(): void {
    const limit = this.maxConnectionMs ?? Number.POSITIVE_INFINITY;
    const now = Date.now();
    let earliest = Number.POSITIVE_INFINITY;
    for (const stream of this.streams) {
      if (!stream.expirable) continue;
      if (now - stream.openedAt >= limit) stream.expire();
      else earliest = Math.min(earliest, stream.openedAt);
    }
    if (earliest !== Number.POSITIVE_INFINITY) this.ageTimer?.arm(earliest);
  }
}
