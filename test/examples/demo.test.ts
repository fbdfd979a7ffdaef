import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);

describe("npm run demo -- --simple", () => {
  it("completes the hand-off: consent, the key entered on the server's page, completion, the call returns", async () => {
    const { stdout } = await run(process.execPath, ["--import", "tsx", "examples/demo/main.ts", "--simple"], {
      cwd: process.cwd(),
      timeout: 60_000,
    });
    const lines = stdout.split("\n");
    const order = [
      "client   calling get_forecast",
      "asks you to open a page",
      "full URL: http://127.0.0.1:",
      "yes, open it",
      "browser  GET http://127.0.0.1:",
      "server   stored the API key",
      "server   sent notifications/elicitation/complete",
      "client   notifications/elicitation/complete arrived",
      "client   the call returned: Tomorrow in Lisbon",
      "done     the hand-off completed",
    ].map((needle) => lines.findIndex((line) => line.includes(needle)));
    expect(order.every((index) => index >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    // The key was typed on the server's page; no line the client printed carries it.
    expect(lines.filter((line) => line.startsWith("client")).join("\n")).not.toContain("demo-key-7f3a9c");
  });
});
