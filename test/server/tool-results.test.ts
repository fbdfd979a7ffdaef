import { describe, expect, it } from "vitest";
import { McpServer, type ToolHandler } from "../../src/server/index.js";
import { recordingLogger } from "../support/recording-logger.js";
import { connectClient } from "./support.js";

describe("tools/call: a handler that returns no result", () => {
  it("becomes a tool error naming the tool, not a -32603 carrying a JavaScript error text", async () => {
    const server = new McpServer({ name: "s", version: "1" });
    server.registerTool("forgetful", {}, (() => undefined) as unknown as ToolHandler);
    const { client } = await connectClient(server);
    await expect(client.request("tools/call", { name: "forgetful" })).resolves.toEqual({
      content: [{ type: "text", text: "Tool forgetful returned no result" }],
      isError: true,
    });
    await server.close();
  });
});

describe("McpServer: a handler that fails unexpectedly", () => {
  it("is reported to the server's logger as well as answered -32603", async () => {
    const logger = recordingLogger();
    const server = new McpServer({ name: "s", version: "1" }, { logger });
    const failure = new Error("ENOENT: no such file or directory");
    server.registerResource("notes", "file:///notes", {}, () => {
      throw failure;
    });
    const { client, session } = await connectClient(server);
    await expect(client.request("resources/read", { uri: "file:///notes" })).rejects.toMatchObject({ code: -32603 });
    expect(logger.entries).toEqual([
      { level: "error", message: "resources/read failed", error: failure, sessionId: session.id },
    ]);
    await server.close();
  });
});
