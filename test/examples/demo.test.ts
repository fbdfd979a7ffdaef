import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);

/** The steps that differ by era. */
const ERA = {
  "2026-07-28": {
    extra: [],
    form: "client   input required: URL elicitation in InputRequiredResult",
    completion: ["server   the key arrived; the answer to the retried call is the completion"],
  },
  "2025-11-25": {
    extra: ["--revision", "2025-11-25"],
    form: "client   elicitation/create arrived during the call",
    completion: [
      "server   sent notifications/elicitation/complete",
      "client   notifications/elicitation/complete arrived",
    ],
  },
} as const;

describe.each(Object.keys(ERA) as (keyof typeof ERA)[])("npm run demo -- --simple, on %s", (revision) => {
  it("completes the hand-off: consent, the key entered on the server's page, completion, the call returns", async () => {
    const era = ERA[revision];
    const { stdout, stderr } = await run(
      process.execPath,
      ["--import", "tsx", "examples/demo/main.ts", "--simple", ...era.extra],
      { cwd: process.cwd(), timeout: 60_000 },
    );
    expect(stderr).toBe("");
    const lines = stdout.split("\n");
    const order = [
      `(protocol ${revision})`,
      "client   calling get_forecast",
      era.form,
      "asks you to open a page",
      "full URL: http://127.0.0.1:",
      "yes, open it",
      "browser  GET http://127.0.0.1:",
      "server   stored the API key",
      ...era.completion,
      "client   the call returned: Tomorrow in Lisbon",
      "done     the hand-off completed",
    ].map((needle) => lines.findIndex((line) => line.includes(needle)));
    expect(order.every((index) => index >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    // The user was asked once; the key was typed on the server's page and no line the client printed carries it.
    expect(lines.filter((line) => line.includes("yes, open it"))).toHaveLength(1);
    expect(lines.filter((line) => line.startsWith("client")).join("\n")).not.toContain("demo-key-7f3a9c");
  });
});

describe("npm run demo -- --interactive", () => {
  it("refuses at once, saying why, when stdin is not a terminal", async () => {
    const failure = await run(process.execPath, ["--import", "tsx", "examples/demo/main.ts", "--interactive"], {
      cwd: process.cwd(),
      timeout: 30_000,
    }).catch((error: unknown) => error as { code?: number; stderr?: string; killed?: boolean });
    expect(failure).toMatchObject({ code: 2, killed: false });
    expect((failure as { stderr: string }).stderr).toContain("stdin is not a terminal");
  });
});
