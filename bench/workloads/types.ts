/** What a workload is: figures it produces, and how to run them once for one implementation. */
import type { Implementation } from "../impl/types.js";

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
  /** Runs every figure once; the values are keyed by figure id. */
  run(impl: Implementation, scale: Scale): Promise<Record<string, number>>;
}

/** A count bound scaled down, never below 1. */
export function scaledCount(count: number, scale: Scale): number {
  return Math.max(1, Math.round(count * scale.factor));
}

/** A time bound (ms) scaled down, never below 100 ms. */
export function scaledTime(ms: number, scale: Scale): number {
  return Math.max(100, Math.round(ms * scale.factor));
}
