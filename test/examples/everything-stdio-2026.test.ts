/**
 * The everything example over stdio speaks both eras on one process: bare JSON lines, as any
 * client would write them, so the test depends on no client code.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { describe, expect, it } from "vitest";

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": { elicitation: {} },
};

describe("the everything example over stdio, revision 2026-07-28", () => {
  it("answers server/discover and an input round without initialize, then a 2025 initialize on the same pipe", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", "examples/everything/server.ts", "--stdio"], {
      stdio: ["pipe", "pipe", "ignore"],
    });
    const lines = createInterface({ input: child.stdout });
    const answers = new Map<number, Record<string, unknown>>();
    const waiting = new Map<number, (answer: Record<string, unknown>) => void>();
    lines.on("line", (line) => {
      const message = JSON.parse(line) as { id?: number };
      if (typeof message.id !== "number") return;
      answers.set(message.id, message);
      waiting.get(message.id)?.(message);
    });
    const ask = (id: number, method: string, params: Record<string, unknown>) =>
      new Promise<Record<string, unknown>>((resolve) => {
        waiting.set(id, resolve);
        child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
      });
    try {
      const discovered = (await ask(1, "server/discover", { _meta: META })).result as Record<string, unknown>;
      expect(discovered.supportedVersions).toContain("2026-07-28");
      const call = { name: "test_input_required_result_elicitation", arguments: {}, _meta: META };
      const first = (await ask(2, "tools/call", call)).result as Record<string, unknown>;
      expect(first.resultType).toBe("input_required");
      const done = (
        await ask(3, "tools/call", {
          ...call,
          inputResponses: { user_name: { action: "accept", content: { name: "Ada" } } },
          requestState: first.requestState,
        })
      ).result as Record<string, unknown>;
      expect(done.content).toEqual([{ type: "text", text: "Hello, Ada!" }]);
      const initialized = (
        await ask(4, "initialize", {
          protocolVersion: "2025-11-25",
          capabilities: {},
          clientInfo: { name: "old", version: "1" },
        })
      ).result as Record<string, unknown>;
      expect(initialized.protocolVersion).toBe("2025-11-25");
    } finally {
      child.kill("SIGTERM");
      await once(child, "exit");
    }
  });
});
