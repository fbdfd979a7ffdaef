/** Renders a run as Markdown: machine, method, a summary of ratios, and one table per workload. */
import { CONTESTANT_NAMES, type ContestantName } from "./contestants.js";
import type { MachineInfo } from "./machine.js";
import { type RunResults, valuesOf, type WorkloadInfo } from "./results.js";
import { median, medianRatio, ratio, summarize } from "./stats.js";

/** 12,345 / 123 / 12.3 / 1.23; "—" for NaN. */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return "—";
  const abs = Math.abs(value);
  const digits = abs >= 100 ? 0 : abs >= 10 ? 1 : 2;
  return value.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

export function formatRatio(value: number): string {
  return Number.isFinite(value) ? `${value.toFixed(2)}×` : "—";
}

function cell(values: readonly number[]): string {
  const s = summarize(values);
  if (s.rounds === 0) return "—";
  if (s.rounds === 1) return formatNumber(s.median);
  return `${formatNumber(s.median)} (${formatNumber(s.min)}–${formatNumber(s.max)})`;
}

function table(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(" | ")} |`;
  return [line(header), line(header.map(() => "---")), ...rows.map(line)].join("\n");
}

/** How the code ran: compiled as users run it, or from TypeScript. */
function loaderText(results: RunResults): string {
  return results.compiled
    ? "compiled JavaScript on plain `node`, as users run a published package: `npm run bench` first builds dist/ as `npm run build` does (declarations by `tsc`, the JavaScript bundled by esbuild) and compiles bench/ to bench/.build, where ours imports `mcp-handoff/*` from dist/ and the SDKs load their published files"
    : "`node --import tsx`, TypeScript compiled on load; the figures include the loader's cost";
}

function load(machine: MachineInfo): string {
  return machine.load.map((l) => l.toFixed(2)).join(" / ");
}

function machineSection(results: RunResults): string {
  const m = results.machineAtStart;
  const machine = table(
    ["date", "node", "CPU", "cores", "memory", "OS", "load 1/5/15 min at start", "at end"],
    [[m.date, m.node, m.cpu, String(m.cores), `${m.memoryGiB} GiB`, m.platform, load(m), load(results.machineAtEnd)]],
  );
  const floor = results.payloadFloor;
  if (floor === undefined) return machine;
  return [
    machine,
    "",
    "How this machine scales with payload size before any transport: one message carrying a string, taken through",
    "JSON.stringify, UTF-8 encoding, decoding and JSON.parse in the bench process, no I/O (median of 7 each). An echo",
    "over a socket takes these steps on both sides, so no implementation's 32 MiB ÷ 8 MiB ratio below can be expected",
    "under this one.",
    "",
    table(
      ["8 MiB", "32 MiB", "32 MiB ÷ 8 MiB"],
      [
        [
          `${formatNumber(floor.ms8MiB)} ms`,
          `${formatNumber(floor.ms32MiB)} ms`,
          formatRatio(floor.ms32MiB / floor.ms8MiB),
        ],
      ],
    ),
  ].join("\n");
}

function summarySection(results: RunResults): string {
  const rows: string[][] = [];
  for (const workload of results.workloads.filter((w) => w.fleet !== true)) {
    for (const figure of workload.figures) {
      const of = (impl: ContestantName) => valuesOf(results, workload.id, figure.id, impl);
      const ratio = (impl: ContestantName, base: ContestantName) => formatRatio(medianRatio(of(impl), of(base)));
      rows.push([
        `${workload.title}: ${figure.label}`,
        `${figure.unit} (${figure.better} is better)`,
        ratio("ours", "bare"),
        ratio("sdk-v1", "bare"),
        ratio("sdk-v2", "bare"),
        ratio("ours", "sdk-v1"),
        ratio("ours", "sdk-v2"),
        ratio("ours@bare", "bare"),
        ratio("bare@ours", "bare"),
      ]);
    }
  }
  return table(
    [
      "figure",
      "unit",
      "ours ÷ bare",
      "v1 ÷ bare",
      "v2 ÷ bare",
      "ours ÷ v1",
      "ours ÷ v2",
      "our client ÷ bare (ours@bare)",
      "our server ÷ bare (bare@ours)",
    ],
    rows,
  );
}

/** The contestants that have a figure in `workload`, in the report's order. */
function columnsOf(results: RunResults, workload: WorkloadInfo): ContestantName[] {
  return CONTESTANT_NAMES.filter((name) =>
    workload.figures.some((figure) => valuesOf(results, workload.id, figure.id, name).length > 0),
  );
}

/** Per contestant, the median over the rounds of `figure ÷ base` of the same round. */
function withinTable(results: RunResults, workload: WorkloadInfo, columns: readonly ContestantName[]): string {
  const rows = (workload.within ?? []).map(({ label, figure, base }) => [
    label,
    ...columns.map((name) => {
      const values = valuesOf(results, workload.id, figure, name);
      const bases = valuesOf(results, workload.id, base, name);
      return formatRatio(median(values.map((value, i) => ratio(value, bases[i]))));
    }),
  ]);
  return table(["ratio", ...columns], rows);
}

function workloadSection(results: RunResults, index: number): string {
  const workload = results.workloads[index]!;
  const columns = columnsOf(results, workload);
  const skipped = results.skipped?.find((s) => s.workload === workload.id);
  if (skipped !== undefined && columns.length === 0) {
    return [`### ${workload.title}`, "", workload.description, "", `Skipped: ${skipped.reason}.`].join("\n");
  }
  const rows = workload.figures.map((figure) => [
    figure.label,
    figure.unit,
    ...columns.map((impl) => cell(valuesOf(results, workload.id, figure.id, impl))),
  ]);
  const parts = [`### ${workload.title}`, "", workload.description, "", table(["figure", "unit", ...columns], rows)];
  if ((workload.within ?? []).length > 0) parts.push("", withinTable(results, workload, columns));
  return parts.join("\n");
}

/** How the fleet rows run, when the report has any. */
function fleetMethod(results: RunResults): string[] {
  if (!results.workloads.some((w) => w.fleet === true)) return [];
  return [
    "The fleet rows (titles starting with Fleet) run our server only: each instance is a child process of its own",
    "(bench/impl/ours/fleet-server.ts) with the interaction store, the event store, the bus and the session directory",
    "of `mcp-handoff/redis` on one Redis, under a key prefix fresh for each run and deleted after it; the bench starts",
    "and stops the instances (and HAProxy) itself, and skips a row, saying why, when Redis or haproxy is missing. The",
    "Redis is the machine's own on 127.0.0.1, shared with whatever else runs there. Their tables compare two figures",
    "of the same run (the ratios below them); latencies give the p50 and p99 of every round's samples.",
    "",
  ];
}

export function renderReport(results: RunResults): string {
  const mode = results.quick
    ? `**Quick run** (smoke test): ${results.rounds} round, counts and times scaled by ${results.scale}. Not for comparison.`
    : `${results.rounds} rounds, counts and times scaled by ${results.scale}.`;
  const parts = [
    `# mcp-handoff benchmarks, ${results.machineAtStart.date.slice(0, 10)}`,
    "",
    mode,
    "",
    "## Machine",
    "",
    machineSection(results),
    "",
    "## Method",
    "",
    "Each implementation runs the same workloads with its own client and server: the server in a child process",
    `(${loaderText(results)}; stdio, or Streamable HTTP on 127.0.0.1), the client in the bench process. The HTTP`,
    "workloads marked so also run two splits, so that client and server are judged apart: `ours@bare` is our client",
    "against the bare server, `bare@ours` the bare client against our server. The bare baseline is the floor: over",
    "HTTP its client is raw `node:http` with a keep-alive agent (no fetch, no web streams), each answer read whole,",
    "and its server a bare `node:http` JSON-RPC responder (JSON answers unless a workload asks for SSE); our client",
    "runs with its default HTTP path, `node:http`, and the SDK clients with `fetch`. Within a",
    "round every workload runs each contestant in turn, and the order rotates from round to round; each run starts",
    "once the machine is quiet (its CPUs less than 10% busy over 200 ms, or after 10 s), so that what the run before",
    "left behind (a server exiting, Redis dropping a fleet run's keys) is not timed as part of the next. Each loop",
    "is bounded by a count and a time; the bounds named below are a full run's, which `--quick` and `--scale`",
    "shrink. Cells show the median over the rounds and, with more than one round, the",
    "spread (min–max). Ratios divide a figure by the other implementation's figure from the same round, then take",
    "the median of those ratios; for calls/s and per s below 1× is slower, for ms and KiB above 1× is slower or larger.",
    "The `echo` tool's input is declared as plain JSON Schema for ours (zod is accepted but not needed), as a zod shape",
    "for SDK v1 (which requires zod), and as JSON Schema through `fromJsonSchema` for SDK v2 (its zod is newer than ours).",
    "",
    table(
      ["column", "implementation"],
      results.implementations.map(({ name, label }) => [name, label]),
    ),
    "",
    ...fleetMethod(results),
    ...(results.workloads.some((w) => w.fleet !== true)
      ? ["## Summary (ratios)", "", summarySection(results), ""]
      : []),
    "## Figures",
    "",
    ...results.workloads.flatMap((_, i) => [workloadSection(results, i), ""]),
  ];
  if ((results.skipped ?? []).length > 0) {
    parts.push("## Skipped", "", ...results.skipped.map((s) => `- ${s.workload}: ${s.reason}`), "");
  }
  if (results.failures.length > 0) {
    parts.push("## Failures", "", ...results.failures.map((f) => `- ${f}`), "");
  }
  return parts.join("\n");
}
