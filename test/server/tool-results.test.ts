import { describe, expect, it } from "vitest";
import { McpServer, type ToolHandler } from "../../src/server/index.js";
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
