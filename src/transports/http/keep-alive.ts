/**
 * Keep-alives for the SSE streams of one Streamable HTTP server: one unref'd timer for every
 * stream, due when the stream written to longest ago has been silent for the interval, so an
 * idle stream costs a set entry and no timer of its own.
 */
import type { SseSink } from "./sinks.js";
import { SweepTimer } from "./sweep-timer.js";

export class KeepAliveSweep {
  /** Open SSE streams; a sink leaves the set when it ends. */
  private readonly streams = new Set<SseSink>();
  /** Due when the stream written to longest ago needs a keep-alive; a write only updates its stream's time. */
  private readonly timer: SweepTimer;

  /** `intervalMs`: ms of silence after which a stream gets a keep-alive (an integer from 1 to 2^31 − 1). */
  constructor(private readonly intervalMs: number) {
    this.timer = new SweepTimer(intervalMs, () => this.sweep());
  }

  /** Watches an SSE stream for silence until it ends. */
  watch(stream: SseSink): void {
    stream.watch(this.streams);
    if (stream.open) this.timer.arm(stream.writtenAt);
  }

  /** Stops the timer and forgets every stream (the server is closing). */
  stop(): void {
    this.timer.stop();
    this.streams.clear();
  }

  /** Writes a keep-alive on each stream silent for the interval; one found gone has left the set as it ended. */
  private sweep(): void {
    const now = Date.now();
    let earliest = Number.POSITIVE_INFINITY;
    for (const stream of this.streams) {
      if (now - stream.writtenAt >= this.intervalMs) stream.keepAlive();
      if (stream.open) earliest = Math.min(earliest, stream.writtenAt);
      else this.streams.delete(stream);
    }
    if (earliest !== Number.POSITIVE_INFINITY) this.timer.arm(earliest);
  }
}
