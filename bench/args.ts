/** The command line of `npm run bench`. */
import { parseArgs } from "node:util";
import type { ImplName } from "./impl/types.js";

export interface BenchOptions {
  quick: boolean;
  rounds: number;
  /** Multiplies every count and time bound. */
  scale: number;
  /** Implementations to run; default all. */
  only: ImplName[] | undefined;
  /** Workload ids to run; default all. */
  workloads: string[] | undefined;
  /** Only the fleet rows (several instances of our server sharing Redis), reported in results/fleet. */
  fleet: boolean;
  /** Folder for <date>.md and latest.md; undefined with --no-write. */
  outDir: string | undefined;
  /** Where to write the raw figures as JSON, if anywhere. */
  jsonPath: string | undefined;
}

export const USAGE = `usage: npm run bench -- [--quick] [--rounds N] [--scale F] [--only bare,ours,sdk-v1,sdk-v2]
                           [--workloads id,... | --fleet] [--out DIR | --no-write] [--json FILE]
  --fleet  only the fleet rows (instances sharing the Redis at BENCH_REDIS_URL, default
           redis://127.0.0.1:6379; HAProxy); the report goes to results/fleet/`;

const NAMES: readonly ImplName[] = ["bare", "ours", "sdk-v1", "sdk-v2"];

function list(value: string | undefined): string[] | undefined {
  return value === undefined
    ? undefined
    : value
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean);
}

function positive(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!(n > 0) || !Number.isFinite(n)) throw new Error(`--${name} must be a positive number, got ${value}`);
  return n;
}

/** @throws Error with a message fit for the terminal on a bad argument. */
export function parseBenchArgs(argv: string[], defaultOutDir: string): BenchOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      quick: { type: "boolean", default: false },
      rounds: { type: "string" },
      scale: { type: "string" },
      only: { type: "string" },
      workloads: { type: "string" },
      fleet: { type: "boolean", default: false },
      out: { type: "string" },
      "no-write": { type: "boolean", default: false },
      json: { type: "string" },
    },
  });
  const quick = values.quick === true;
  const fleet = values.fleet === true;
  if (fleet && values.workloads !== undefined) throw new Error("--fleet and --workloads cannot be combined");
  const only = list(values.only);
  const unknown = only?.filter((name) => !NAMES.includes(name as ImplName));
  if (unknown !== undefined && unknown.length > 0) throw new Error(`unknown implementation: ${unknown.join(", ")}`);
  return {
    quick,
    rounds: Math.round(positive(values.rounds, "rounds", quick ? 1 : 5)),
    scale: positive(values.scale, "scale", quick ? 0.1 : 1),
    only: only as ImplName[] | undefined,
    workloads: list(values.workloads),
    fleet,
    outDir: values["no-write"] ? undefined : (values.out ?? (fleet ? `${defaultOutDir}/fleet` : defaultOutDir)),
    jsonPath: values.json,
  };
}
