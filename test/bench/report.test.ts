/**
 * The bench report: the machine and its load, the method, and for the workloads that run them
 * the two splits in the summary (our client ÷ bare, our server ÷ bare) and the ratios within a
 * contestant (32 MiB ÷ 8 MiB), from figures made up here.
 */
import { describe, expect, it } from "vitest";
import { renderReport } from "../../bench/report.js";
import type { RunResults } from "../../bench/results.js";

const machine = {
  date: "2026-12-01T00:00:00.000Z",
  node: "v20.20.2",
  platform: "Linux x64",
  cpu: "Test CPU",
  cores: 2,
  memoryGiB: 8,
  load: [1.5, 1, 0.5] as [number, number, number],
};

function results(): RunResults {
  return {
    quick: false,
    rounds: 3,
    scale: 1,
    compiled: true,
    implementations: [
      { name: "bare", label: "bare JSON-RPC loop" },
      { name: "ours", label: "mcp-handoff" },
    ],
    workloads: [
      {
        id: "http-calls",
        title: "HTTP calls",
        description: "Echo.",
        figures: [{ id: "one-client", label: "1 in flight", unit: "calls/s", better: "higher" }],
      },
      {
        id: "http-payload",
        title: "HTTP payload",
        description: "Echo of large strings.",
        figures: [
          { id: "sse-8m", label: "8 MiB, SSE answer", unit: "ms/call", better: "lower" },
          { id: "sse-32m", label: "32 MiB, SSE answer", unit: "ms/call", better: "lower" },
        ],
        within: [{ label: "32 MiB ÷ 8 MiB, SSE answer", figure: "sse-32m", base: "sse-8m" }],
      },
    ],
    values: {
      "http-calls": {
        "one-client": {
          bare: [100, 100, 100],
          ours: [60, 60, 60],
          "ours@bare": [50, 50, 50],
          "bare@ours": [90, 90, 90],
        },
      },
      "http-payload": {
        "sse-8m": { bare: [10, 10, 10], ours: [10, 20, 10] },
        "sse-32m": { bare: [40, 40, 40], ours: [41, 80, 42] },
      },
    },
    failures: [],
    skipped: [],
    machineAtStart: machine,
    machineAtEnd: { ...machine, load: [2, 1.25, 0.75] },
    payloadFloor: { ms8MiB: 30, ms32MiB: 135 },
  };
}

describe("the bench report", () => {
  const report = renderReport(results());

  it("prints the machine and its load at start and at end", () => {
    expect(report).toContain(
      "| 2026-12-01T00:00:00.000Z | v20.20.2 | Test CPU | 2 | 8 GiB | Linux x64 | 1.50 / 1.00 / 0.50 | 2.00 / 1.25 / 0.75 |",
    );
  });

  it("prints how the machine itself scales from 8 to 32 MiB, next to which the within ratios are read", () => {
    expect(report).toContain("| 30.0 ms | 135 ms | 4.50× |");
  });

  it("says the bare client is raw node:http and names the splits", () => {
    expect(report).toMatch(/raw `node:http` with a keep-alive agent \(no fetch, no web streams\)/);
    expect(report).toMatch(
      /`ours@bare` is our client\s+against the bare server, `bare@ours` the bare client against our server/,
    );
  });

  it("gives the splits' ratios to bare in the summary", () => {
    expect(report).toContain("our client ÷ bare (ours@bare) | our server ÷ bare (bare@ours) |");
    expect(report).toContain(
      "| HTTP calls: 1 in flight | calls/s (higher is better) | 0.60× | — | — | — | — | 0.50× | 0.90× |",
    );
  });

  it("shows only the columns a workload ran, and its ratios within a contestant", () => {
    expect(report).toContain("| figure | unit | bare | ours | ours@bare | bare@ours |");
    expect(report).toContain("| figure | unit | bare | ours |\n");
    expect(report).toContain("| 32 MiB ÷ 8 MiB, SSE answer | 4.00× | 4.10× |");
  });

  it("reports a fleet row with its ratios, leaves it out of the summary, and says why a row was skipped", () => {
    const run = results();
    const fleetRow = (id: string) => ({
      id,
      title: `Fleet ${id}`,
      description: "Two instances.",
      figures: [
        { id: "other", label: "on B", unit: "calls/s", better: "higher" as const },
        { id: "owner", label: "on A", unit: "calls/s", better: "higher" as const },
      ],
      within: [{ label: "B ÷ A", figure: "other", base: "owner" }],
      fleet: true,
    });
    run.workloads.push(fleetRow("fleet-calls"), fleetRow("fleet-proxy"));
    run.values["fleet-calls"] = { other: { ours: [80, 90, 70] }, owner: { ours: [100, 100, 100] } };
    run.skipped = [{ workload: "fleet-proxy", reason: "haproxy is not installed" }];
    const text = renderReport(run);
    expect(text).toContain("| B ÷ A | 0.80× |");
    expect(text).not.toContain("| Fleet fleet-calls: on B |");
    expect(text).toContain("### Fleet fleet-proxy\n\nTwo instances.\n\nSkipped: haproxy is not installed.");
    expect(text).toContain("## Skipped\n\n- fleet-proxy: haproxy is not installed");
    expect(text).toMatch(/The fleet rows .* run our server only/);
    expect(report).not.toContain("fleet rows");
  });
});
