/**
 * The server's method table, as a client of either era sees it: what no entry serves, what needs
 * a capability the server does not offer, and which methods may answer in rounds.
 */
import { describe, expect, it } from "vitest";
import { JsonRpcSession, type Params } from "../../src/jsonrpc/session.js";
import { META, MRTR_METHODS } from "../../src/revisions/index.js";
import { ServerDefinition } from "../../src/server/definition.js";
import { McpServer } from "../../src/server/index.js";
import { serverMethods } from "../../src/server/methods.js";
import { createMemoryTransportPair } from "../../src/transports/memory.js";
import { connectClient } from "./support.js";

const meta = (): Params => ({
  [META.protocolVersion]: "2026-07-28",
  [META.clientCapabilities]: {},
  [META.clientInfo]: { name: "t", version: "1" },
});

async function statelessClient(server: McpServer): Promise<JsonRpcSession> {
  const [clientEnd, serverEnd] = createMemoryTransportPair();
  await server.connect(serverEnd);
  const client = new JsonRpcSession();
  await client.connect(clientEnd);
  return client;
}

/** A server with one prompt: it offers prompts, and neither tools nor resources. */
function promptServer(): McpServer {
  const server = new McpServer({ name: "s", version: "1" });
  server.registerPrompt("hello", { description: "Says hello" }, () => ({
    messages: [{ role: "user", content: { type: "text", text: "hello" } }],
  }));
  return server;
}

describe("the server's method table", () => {
  it("answers -32601 for a method it has no entry for, in both eras", async () => {
    const { client } = await connectClient(promptServer());
    await expect(client.request("tools/frobnicate")).rejects.toMatchObject({ code: -32601 });
    const modern = await statelessClient(promptServer());
    await expect(modern.request("tools/frobnicate", { _meta: meta() })).rejects.toMatchObject({ code: -32601 });
  });

  it("refuses a method of a capability the server does not offer with -32601 naming it, in both eras", async () => {
    const { client } = await connectClient(promptServer());
    await expect(client.request("tools/call", { name: "x", arguments: {} })).rejects.toMatchObject({
      code: -32601,
      message: expect.stringContaining("does not offer tools"),
    });
    await expect(client.request("resources/read", { uri: "file:///x" })).rejects.toMatchObject({
      code: -32601,
      message: expect.stringContaining("does not offer resources"),
    });
    // Positive control: the capability it offers is served.
    expect(await client.request("prompts/list")).toMatchObject({ prompts: [{ name: "hello" }] });

    const modern = await statelessClient(promptServer());
    await expect(modern.request("tools/list", { _meta: meta() })).rejects.toMatchObject({
      code: -32601,
      message: expect.stringContaining("does not offer tools"),
    });
    expect(await modern.request("prompts/list", { _meta: meta() })).toMatchObject({ prompts: [{ name: "hello" }] });
  });

  it("checks a stateful request against what initialize announced, a stateless one against what is offered now", async () => {
    const server = promptServer();
    const { client } = await connectClient(server);
    const modern = await statelessClient(server);
    server.registerTool("late", { description: "Registered after initialize" }, () => ({ content: [] }));
    await expect(client.request("tools/list")).rejects.toMatchObject({ code: -32601 });
    expect(await modern.request("tools/list", { _meta: meta() })).toMatchObject({ tools: [{ name: "late" }] });
  });

  it("lets exactly the codec's multi round-trip methods answer in rounds", () => {
    const table = serverMethods(new ServerDefinition({} as never, {} as never, {} as never, 100));
    const inRounds = [...table].flatMap(([method, spec]) => ("rounds" in spec && spec.rounds ? [method] : []));
    expect(new Set(inRounds)).toEqual(new Set(MRTR_METHODS));
  });
});
