/**
 * McpClient against a server built on the official TypeScript SDK v2 (`@modelcontextprotocol/server`),
 * which speaks 2026-07-28: the client settles on the stateless era through `server/discover`,
 * lists and calls tools with `_meta` on every request, and finishes a multi round-trip tool
 * whose handler asks for an elicitation and the roots, echoing the SDK's `requestState`; a
 * server instance that serves only the handshake era gets `initialize` after the probe fails.
 */
import {
  acceptedContent,
  fromJsonSchema,
  inputRequired,
  inputResponse,
  McpServer as SdkServer,
} from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { describe, expect, it } from "vitest";
import { McpClient } from "../../src/client/index.js";
import { LATEST_VERSION } from "../../src/revisions/index.js";
import { createMemoryTransportPair } from "../../src/transports/memory.js";

function sdkServer(): SdkServer {
  const server = new SdkServer({ name: "sdk-v2-server", version: "2.0.0" });
  server.registerTool(
    "add",
    {
      description: "Adds two numbers",
      inputSchema: fromJsonSchema<{ a: number; b: number }>({
        type: "object",
        properties: { a: { type: "number" }, b: { type: "number" } },
        required: ["a", "b"],
      }),
    },
    async ({ a, b }) => ({ content: [{ type: "text", text: String(a + b) }] }),
  );
  // Schemas go through the SDK's fromJsonSchema: it needs a newer zod than the one installed here.
  const nameSchema = fromJsonSchema<{ name: string }>({
    type: "object",
    properties: { name: { type: "string" } },
    required: ["name"],
  });
  server.registerTool("greet", { description: "Greets the user by name" }, async (ctx) => {
    const answer = acceptedContent(ctx.mcpReq.inputResponses, "who", nameSchema);
    const roots = inputResponse(ctx.mcpReq.inputResponses, "where");
    if (answer === undefined || roots.kind !== "roots") {
      return inputRequired({
        inputRequests: {
          who: inputRequired.elicit({ message: "Your name?", requestedSchema: nameSchema }),
          where: inputRequired.listRoots(),
        },
        requestState: "sdk-state/1",
      });
    }
    return { content: [{ type: "text", text: `Hello, ${answer.name} (${roots.roots.length} root)` }] };
  });
  return server;
}

describe("McpClient against the official SDK v2 server", () => {
  it("speaks 2026-07-28 and finishes an input round", async () => {
    const [clientEnd, serverEnd] = createMemoryTransportPair();
    // The SDK's stdio entry picks the era from the opening message; the in-memory pair has the
    // transport shape it expects, so nothing is spawned.
    serveStdio(sdkServer, { transport: serverEnd as never });
    const client = new McpClient({ name: "handoff-client", version: "1.0.0" });
    client.setElicitationHandler(() => ({ action: "accept", content: { name: "Ada" } }));
    client.setRoots([{ uri: "file:///home/ada", name: "home" }]);
    await client.connect(clientEnd);
    expect(client.isStateless).toBe(true);
    expect(client.protocolVersion).toBe("2026-07-28");
    expect(client.serverInfo?.name).toBe("sdk-v2-server");
    const tools = await client.listAllTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(["add", "greet"]);
    expect(await client.callTool({ name: "add", arguments: { a: 2, b: 3 } })).toMatchObject({
      content: [{ type: "text", text: "5" }],
    });
    const greeted = await client.callTool({ name: "greet" });
    expect(greeted.content).toEqual([{ type: "text", text: "Hello, Ada (1 root)" }]);
    await client.close();
  });

  it("falls back to initialize when the SDK server serves only the handshake era", async () => {
    const [clientEnd, serverEnd] = createMemoryTransportPair();
    // Connected by hand, the SDK's server answers server/discover -32601, as a 2025 server does.
    await sdkServer().connect(serverEnd as never);
    const client = new McpClient({ name: "handoff-client", version: "1.0.0" });
    await client.connect(clientEnd);
    expect(client.isStateless).toBe(false);
    expect(client.protocolVersion).toBe(LATEST_VERSION);
    expect(await client.callTool({ name: "add", arguments: { a: 1, b: 1 } })).toMatchObject({
      content: [{ type: "text", text: "2" }],
    });
    await client.close();
  });
});
