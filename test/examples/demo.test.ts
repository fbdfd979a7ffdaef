import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);

/** The steps that differ by era. */
const ERA = {
  "2026-07-28": {
    extra: [],
    form: "client   input required: URL elicitation in InputRequiredResult",
    // No notification on this revision: the answer to the retried call is the completion.
    completion: [],
  },
  "2025-11-25": {
    extra: ["--revision", "2025-11-25"],
    form: "client   elicitation/create arrived during the call",
    completion: ["client   notifications/elicitation/complete arrived"],
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
      "browser  the page asks for the Forecast API key",
      ...era.completion,
      "client   the call returned: Tomorrow in Lisbon",
      "done     the hand-off completed",
    ].map((needle) => lines.findIndex((line) => line.includes(needle)));
    expect(order.every((index) => index >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    // The server has the key once the page saved it, before the call returns (the completion notice
    // travels beside it, in either order).
    const stored = lines.findIndex((line) => line.startsWith("server   stored the API key"));
    expect(stored).toBeGreaterThan(lines.findIndex((line) => line.startsWith("browser  the page asks")));
    expect(stored).toBeLessThan(lines.findIndex((line) => line.includes("client   the call returned")));
    // The key page is the local connect page: a one-time link on 127.0.0.1, asked for once.
    expect(lines.filter((line) => line.startsWith("server   no API key yet"))).toHaveLength(1);
    expect(lines.find((line) => line.includes("full URL:"))).toMatch(/\/connect\/[\w-]+\?token=[\w-]{43}$/);
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
