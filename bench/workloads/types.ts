/** What a workload is: figures it produces, and how to run them once for one contestant. */
import type { Contestant } from "../impl/types.js";

export interface FigureSpec {
  /** Stable key within the workload, e.g. "inflight-16". */
  id: string;
  /** Row label in the report, e.g. "16 in flight". */
  label: string;
  /** Unit of the value, e.g. "calls/s", "ms", "KiB". */
  unit: string;
  /** Which way is better, to read the ratios. */
  better: "higher" | "lower";
}

/** `figure ÷ base` for each contestant, reported with the median over the rounds. */
export interface WithinRatio {
  label: string;
  figure: string;
  base: string;
}

/** Multiplies every count and time bound; 1 for a full run, 0.1 for `--quick`. */
export interface Scale {
  factor: number;
}

export interface Workload {
  /** For `--workloads`, e.g. "stdio-calls". */
  id: string;
  /** Section title in the report. */
  title: string;
  /** One sentence on what is measured and how. */
  description: string;
  figures: readonly FigureSpec[];
  /** Also run our client with the bare server and the bare client with ours (see `contestantsFor`). */
  splits?: boolean;
  /** Revision 2026-07-28 only: run by the implementations that speak it. */
  stateless?: boolean;
  /**
   * Runs only for our implementation, several instances of our server sharing Redis; picked by
   * `--fleet` (see `Skipped` for a run without Redis or HAProxy).
   */
  fleet?: boolean;
  /** Ratios of two of its figures within each contestant, e.g. how 32 MiB scales against 8 MiB. */
  within?: readonly WithinRatio[];
  /** Runs every figure once; the values are keyed by figure id. */
  run(contestant: Contestant, scale: Scale): Promise<Record<string, number>>;
}

/** A count bound scaled down, never below 1. */
export function scaledCount(count: number, scale: Scale): number {
  return Math.max(1, Math.round(count * scale.factor));
}

/** A time bound (ms) scaled down, never below 100 ms. */
export function scaledTime(ms: number, scale: Scale): number {
  return Math.max(100, Math.round(ms * scale.factor));
}

/**
 * Thrown by a workload that cannot run on this machine (no Redis, no haproxy): the run is left
 * out of the figures and the report says why, instead of counting as failed.
 */
export class Skipped extends Error {
  override readonly name = "Skipped";
}
