import { describe, expect, it } from "vitest";
import * as z from "zod";
import type { JsonRpcMessage } from "../../src/jsonrpc/messages.js";
import { McpServer, type RequestContext } from "../../src/server/index.js";
import { createMemoryTransportPair } from "../../src/transports/memory.js";
import { connectClient, until } from "./support.js";

/** A server whose one tool reports what `body` returned or threw. */
function serverWith(body: (ctx: RequestContext) => Promise<unknown>) {
  const server = new McpServer({ name: "s", version: "1" });
  server.registerTool("run", {}, async (_args, ctx) => {
    const outcome = await body(ctx).then(
      (value) => ({ value }),
      (error: { code?: unknown }) => ({ error: error.code }),
    );
    return { content: [{ type: "text", text: JSON.stringify(outcome) }] };
  });
  return server;
}

async function runTool(server: McpServer, protocolVersion: string, capabilities: Record<string, unknown>) {
  const { client } = await connectClient(server, {
    protocolVersion,
    capabilities,
    handlers: { "elicitation/create": () => ({ action: "decline" }) },
  });
  const result = await client.request("tools/call", { name: "run", arguments: {} });
  return JSON.parse((result.content as { text: string }[])[0]?.text ?? "{}");
}

describe("what each negotiated revision allows", () => {
  const form = { message: "Name?", requestedSchema: { type: "object" as const, properties: {} } };

  it("has no elicitation before 2025-06-18, even when the client claims it", async () => {
    const server = serverWith((ctx) => ctx.elicit(form));
    await expect(runTool(server, "2025-03-26", { elicitation: {} })).resolves.toEqual({
      error: "METHOD_NOT_SUPPORTED",
    });
  });

  it("has form elicitation but no URL mode in 2025-06-18", async () => {
    const formServer = serverWith((ctx) => ctx.elicit(form));
    await expect(runTool(formServer, "2025-06-18", { elicitation: {} })).resolves.toEqual({
      value: { action: "decline" },
    });
    const urlServer = serverWith((ctx) => ctx.elicit({ mode: "url", url: "https://a.example/", message: "Go." }));
    await expect(runTool(urlServer, "2025-06-18", { elicitation: { url: {} } })).resolves.toEqual({
      error: "CAPABILITY_NOT_SUPPORTED",
    });
  });

  it("sends elicitation/complete only to a client that declared URL mode", async () => {
    const server = serverWith((ctx) => ctx.session.notifyElicitationComplete("e-1"));
    await expect(runTool(server, "2025-11-25", { elicitation: { form: {} } })).resolves.toEqual({
      error: "CAPABILITY_NOT_SUPPORTED",
    });
  });

  it("shapes results for the older revision", async () => {
    const server = new McpServer({ name: "s", version: "1" });
    server.registerTool("data", { title: "Data", outputSchema: { n: z.number() } }, () => ({
      content: [],
      structuredContent: { n: 1 },
    }));
    const { client } = await connectClient(server, { protocolVersion: "2024-11-05" });
    const { tools } = await client.request("tools/list");
    expect(tools).toEqual([{ name: "data", inputSchema: { type: "object", additionalProperties: false } }]);
    await expect(client.request("tools/call", { name: "data", arguments: {} })).resolves.toEqual({
      content: [{ type: "text", text: '{"n":1}' }],
    });
  });
});

describe("JSON-RPC batches", () => {
  async function sendBatch(protocolVersion: string): Promise<JsonRpcMessage[]> {
    const server = new McpServer({ name: "s", version: "1" });
    const [clientEnd, serverEnd] = createMemoryTransportPair();
    await server.connect(serverEnd);
    const received: JsonRpcMessage[] = [];
    clientEnd.onmessage = (message) => received.push(...(Array.isArray(message) ? message : [message]));
    await clientEnd.start();
    await clientEnd.send({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion, capabilities: {}, clientInfo: { name: "c", version: "1" } },
    });
    await until(() => received[0]);
    await clientEnd.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    // The memory transport carries arrays as they are, as a batch would arrive from the wire.
    const batch = [
      { jsonrpc: "2.0" as const, id: 1, method: "ping" },
      { jsonrpc: "2.0" as const, id: 2, method: "ping" },
    ];
    await clientEnd.send(batch as unknown as JsonRpcMessage);
    return until(() => (received.length > 1 ? received.slice(1) : undefined));
  }

  it("are served in 2025-03-26", async () => {
    const answers = await sendBatch("2025-03-26");
    await until(() => (answers.length === 2 ? true : undefined));
    expect(answers).toEqual([
      { jsonrpc: "2.0", id: 1, result: {} },
      { jsonrpc: "2.0", id: 2, result: {} },
    ]);
  });

  it("are refused in 2025-06-18", async () => {
    const answers = await sendBatch("2025-06-18");
    expect(answers).toEqual([{ jsonrpc: "2.0", id: null, error: expect.objectContaining({ code: -32600 }) }]);
  });
});
