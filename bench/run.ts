/**
 * `npm run bench`: runs every workload for every contestant (each implementation, and for some
 * workloads our client and server each against the bare one), alternating them within each
 * round, and writes a Markdown report to bench/results/<date>.md and latest.md.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { type BenchOptions, parseBenchArgs, USAGE } from "./args.js";
import { type Contestant, contestantsFor } from "./contestants.js";
import { IMPLEMENTATIONS } from "./impl/index.js";
import { COMPILED, ROOT } from "./impl/process.js";
import { machineInfo } from "./machine.js";
import { payloadFloor } from "./payload-floor.js";
import { untilQuiet } from "./quiet.js";
import { renderReport } from "./report.js";
import { type RunResults, record } from "./results.js";
import { WORKLOADS } from "./workloads/index.js";
import { Skipped } from "./workloads/types.js";

const RESULTS_DIR = `${ROOT}bench/results`;
/** ms one workload may take for one implementation before it counts as failed. */
const RUN_TIMEOUT_MS = 10 * 60_000;

/** The contestants in the order of round `round`: the same cycle, starting one further on. */
function rotated(impls: readonly Contestant[], round: number): Contestant[] {
  const shift = round % impls.length;
  return [...impls.slice(shift), ...impls.slice(0, shift)];
}

async function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no result within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export async function runBench(options: BenchOptions, log: (line: string) => void): Promise<RunResults> {
  const impls = IMPLEMENTATIONS.filter((impl) => options.only?.includes(impl.name) ?? true);
  const workloads = WORKLOADS.filter((w) =>
    options.fleet ? w.fleet === true : (options.workloads?.includes(w.id) ?? true),
  );
  const missing = options.workloads?.filter((id) => !WORKLOADS.some((w) => w.id === id)) ?? [];
  if (missing.length > 0) throw new Error(`unknown workload: ${missing.join(", ")}`);
  const results: RunResults = {
    quick: options.quick,
    rounds: options.rounds,
    scale: options.scale,
    compiled: COMPILED,
    implementations: impls.map(({ name, label }) => ({ name, label })),
    workloads: workloads.map(({ id, title, description, figures, within, fleet }) => ({
      id,
      title,
      description,
      figures,
      ...(within === undefined ? {} : { within }),
      ...(fleet === true ? { fleet } : {}),
    })),
    values: {},
    failures: [],
    skipped: [],
    machineAtStart: machineInfo(),
    machineAtEnd: machineInfo(),
    payloadFloor: payloadFloor(),
  };
  for (let round = 0; round < options.rounds; round++) {
    for (const workload of workloads) {
      for (const contestant of rotated(contestantsFor(workload, impls), round)) {
        let figures: Record<string, number> = {};
        await untilQuiet();
        try {
          figures = await withTimeout(workload.run(contestant, { factor: options.scale }), RUN_TIMEOUT_MS);
        } catch (error) {
          if (error instanceof Skipped) {
            if (!results.skipped.some((s) => s.workload === workload.id))
              results.skipped.push({ workload: workload.id, reason: error.message });
            log(`round ${round + 1}/${options.rounds} ${workload.id} ${contestant.name}: skipped, ${error.message}`);
            continue;
          }
          results.failures.push(`round ${round + 1}, ${workload.id}, ${contestant.name}: ${String(error)}`);
        }
        record(results, workload, contestant.name, figures);
        const shown = workload.figures.map((f) => `${f.id}=${(figures[f.id] ?? Number.NaN).toFixed(2)}`);
        log(`round ${round + 1}/${options.rounds} ${workload.id} ${contestant.name}: ${shown.join(" ")}`);
      }
    }
  }
  results.machineAtEnd = machineInfo();
  return results;
}

async function main(): Promise<void> {
  let options: BenchOptions;
  try {
    options = parseBenchArgs(process.argv.slice(2), RESULTS_DIR);
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n${USAGE}\n`);
    process.exit(2);
  }
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const results = await runBench(options, log);
  const report = renderReport(results);
  process.stdout.write(`${report}\n`);
  if (options.outDir !== undefined) {
    await mkdir(options.outDir, { recursive: true });
    const dated = `${options.outDir}/${results.machineAtStart.date.slice(0, 10)}.md`;
    await writeFile(dated, report);
    await writeFile(`${options.outDir}/latest.md`, report);
    log(`wrote ${dated} and latest.md`);
  }
  if (options.jsonPath !== undefined) await writeFile(options.jsonPath, JSON.stringify(results, null, 2));
  // Keep-alive sockets of the clients would hold the process open for a few seconds more.
  process.exit(results.failures.length > 0 ? 1 : 0);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
