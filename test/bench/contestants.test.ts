/**
 * Who runs each workload: every implementation against itself, the 2026-07-28 rows only where
 * the revision is spoken, the fleet rows for ours alone, and the two splits (our client with the bare server, the bare client
 * with ours) where a workload judges client and server apart.
 */
import { describe, expect, it } from "vitest";
import { contestantsFor } from "../../bench/contestants.js";
import { IMPLEMENTATIONS } from "../../bench/impl/index.js";
import { WORKLOADS } from "../../bench/workloads/index.js";

const workload = (id: string) => {
  const found = WORKLOADS.find((w) => w.id === id);
  if (found === undefined) throw new Error(`no workload ${id}`);
  return found;
};
const names = (id: string, only = IMPLEMENTATIONS) => contestantsFor(workload(id), only).map((c) => c.name);

describe("bench contestants", () => {
  it("runs the HTTP call, session, 2026 and payload rows with both splits besides each implementation", () => {
    for (const id of ["http-calls", "http-sessions", "http-payload"]) {
      expect(names(id)).toEqual(["bare", "ours", "sdk-v1", "sdk-v2", "ours@bare", "bare@ours"]);
    }
    const ours = contestantsFor(workload("http-calls"), IMPLEMENTATIONS).find((c) => c.name === "ours@bare");
    expect([ours?.client.name, ours?.server.name]).toEqual(["ours", "bare"]);
  });

  it("leaves SDK v1 out of the 2026-07-28 rows, which it cannot speak", () => {
    expect(names("http-stateless")).toEqual(["bare", "ours", "sdk-v2", "ours@bare", "bare@ours"]);
  });

  it("runs the stdio rows and the memory row for each implementation only", () => {
    for (const id of ["stdio-calls", "stdio-payload", "stdio-cold-start", "elicitation", "http-memory"]) {
      expect(names(id)).toEqual(["bare", "ours", "sdk-v1", "sdk-v2"]);
    }
  });

  it("runs the fleet rows for our server only, which is the one with a fleet", () => {
    for (const id of ["fleet-handoff", "fleet-session-calls", "fleet-haproxy"]) expect(names(id)).toEqual(["ours"]);
    const others = IMPLEMENTATIONS.filter((impl) => impl.name !== "ours");
    expect(names("fleet-handoff", others)).toEqual([]);
  });

  it("runs a split only when both of its sides were chosen", () => {
    const onlyOurs = IMPLEMENTATIONS.filter((impl) => impl.name === "ours");
    expect(names("http-calls", onlyOurs)).toEqual(["ours"]);
  });
});
