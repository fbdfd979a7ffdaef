/** The raw figures of a run: one value per round for each workload, figure and contestant. */
import type { ContestantName } from "./contestants.js";
import type { ImplName } from "./impl/types.js";
import type { MachineInfo } from "./machine.js";
import type { PayloadFloor } from "./payload-floor.js";
import type { FigureSpec, WithinRatio } from "./workloads/types.js";

export interface WorkloadInfo {
  id: string;
  title: string;
  description: string;
  figures: readonly FigureSpec[];
  within?: readonly WithinRatio[];
  /** A fleet row: our server only, several instances sharing Redis. */
  fleet?: boolean;
}

export interface RunResults {
  quick: boolean;
  rounds: number;
  scale: number;
  /** Whether servers and clients ran as compiled JavaScript (else through tsx). */
  compiled: boolean;
  implementations: { name: ImplName; label: string }[];
  workloads: WorkloadInfo[];
  /** values[workload][figure][contestant][round]; NaN for a run that failed. */
  values: Record<string, Record<string, Partial<Record<ContestantName, number[]>>>>;
  /** One line per failed run: round, workload, implementation and the error. */
  failures: string[];
  /** Workloads that could not run on this machine (no Redis, no haproxy), and why. */
  skipped: { workload: string; reason: string }[];
  machineAtStart: MachineInfo;
  machineAtEnd: MachineInfo;
  /** This machine's in-process JSON round trip at 8 and 32 MiB, taken before the workloads. */
  payloadFloor?: PayloadFloor;
}

/** The per-round values of one figure for one contestant ([] when it was not run). */
export function valuesOf(results: RunResults, workload: string, figure: string, impl: ContestantName): number[] {
  return results.values[workload]?.[figure]?.[impl] ?? [];
}

/** Records one round's figures for one contestant. */
export function record(
  results: RunResults,
  workload: WorkloadInfo,
  impl: ContestantName,
  figures: Record<string, number>,
): void {
  const byFigure = results.values[workload.id] ?? {};
  results.values[workload.id] = byFigure;
  for (const figure of workload.figures) {
    const byImpl = byFigure[figure.id] ?? {};
    byFigure[figure.id] = byImpl;
    const values = byImpl[impl] ?? [];
    byImpl[impl] = values;
    values.push(figures[figure.id] ?? Number.NaN);
  }
}
