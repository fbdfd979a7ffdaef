/**
 * McpClient against this package's own McpServer, which serves both eras on one connection: the
 * client settles on 2026-07-28 by itself, and a tool that elicits, asks for roots and hands off
 * finishes through InputRequiredResult rounds answered by the client's handlers. Pinned to
 * 2025-11-25, the same client and server use the handshake and server-sent requests instead.
 */
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { McpClient } from "../../src/client/index.js";
import type { JsonRpcMessage } from "../../src/jsonrpc/messages.js";
import { LATEST_VERSION } from "../../src/revisions/index.js";
import { McpServer } from "../../src/server/index.js";
import { createMemoryTransportPair } from "../../src/transports/memory.js";

function buildServer(): McpServer {
  const server = new McpServer({ name: "dual", version: "1.0.0" });
  server.registerTool("profile", { inputSchema: { greeting: z.string() } }, async ({ greeting }, ctx) => {
    const answer = await ctx.elicit({
      message: "Your name?",
      requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
    });
    const { roots } = await ctx.listRoots();
    const name = answer.action === "accept" ? String(answer.content?.name) : "nobody";
    return { content: [{ type: "text", text: `${greeting}, ${name} (${roots.length} root)` }] };
  });
  return server;
}

async function run(options: ConstructorParameters<typeof McpClient>[1]) {
  const [clientEnd, serverEnd] = createMemoryTransportPair();
  const sent: JsonRpcMessage[] = [];
  const send = clientEnd.send.bind(clientEnd);
  clientEnd.send = (message, sendOptions) => {
    sent.push(structuredClone(message));
    return send(message, sendOptions);
  };
  await buildServer().connect(serverEnd);
  const client = new McpClient({ name: "client", version: "1.0.0" }, options);
  client.setElicitationHandler(() => ({ action: "accept", content: { name: "Ada" } }));
  client.setRoots([{ uri: "file:///home/ada", name: "home" }]);
  await client.connect(clientEnd);
  const result = await client.callTool({ name: "profile", arguments: { greeting: "Hello" } });
  await client.close();
  const methods = sent.filter((m) => "method" in m).map((m) => (m as { method: string }).method);
  return { client, result, methods };
}

describe("McpClient and McpServer across eras", () => {
  it("settle on the stateless era by themselves and finish the tool through input rounds", async () => {
    const { client, result, methods } = await run({});
    expect(client.isStateless).toBe(true);
    expect(result.content).toEqual([{ type: "text", text: "Hello, Ada (1 root)" }]);
    expect(methods).not.toContain("initialize");
    expect(methods[0]).toBe("server/discover");
    expect(methods.filter((m) => m === "tools/call").length).toBeGreaterThan(1);
  });

  it("use the handshake and server-sent requests when the client pins the stateful era", async () => {
    const { client, result, methods } = await run({ protocolVersion: LATEST_VERSION });
    expect(client.isStateless).toBe(false);
    expect(result.content).toEqual([{ type: "text", text: "Hello, Ada (1 root)" }]);
    expect(methods).toContain("initialize");
    expect(methods.filter((m) => m === "tools/call")).toHaveLength(1);
  });
});
