/**
 * `ctx.session.notifyElicitationComplete` serves both eras with the same handler code: revision
 * 2025-11-25 sends `notifications/elicitation/complete`, revision 2026-07-28 completes through the
 * client's retry and the call sends nothing more.
 */
import { describe, expect, it } from "vitest";
import { McpClient } from "../../src/client/index.js";
import type { Transport } from "../../src/jsonrpc/transport.js";
import { McpServer } from "../../src/server/index.js";
import { StreamableHttpClientTransport, StreamableHttpServer } from "../../src/transports/http/index.js";
import { createMemoryTransportPair } from "../../src/transports/memory.js";

/** One server definition: its tool hands the user off to a page and completes it once accepted. */
function connectServer() {
  const server = new McpServer({ name: "pages", version: "1.0.0" });
  server.registerTool("connect", {}, async (_args, ctx) => {
    const answer = await ctx.elicit({ mode: "url", url: "https://pages.example.com/connect", message: "Connect." });
    if (answer.action !== "accept") return { content: [{ type: "text", text: answer.action }] };
    const told = await ctx.session.notifyElicitationComplete(answer.elicitationId);
    return { content: [{ type: "text", text: told ? "connected, told" : "connected" }] };
  });
  return server;
}

type Carrier = "memory" | "http";

/** The client's end of a connection to `server`, in memory or over Streamable HTTP (no socket). */
async function clientEndFor(server: McpServer, carrier: Carrier): Promise<{ end: Transport; close(): Promise<void> }> {
  if (carrier === "memory") {
    const [clientEnd, serverEnd] = createMemoryTransportPair();
    await server.connect(serverEnd);
    return { end: clientEnd, close: async () => {} };
  }
  const http = new StreamableHttpServer({
    onsession: (transport) => void server.connect(transport),
    onrequest: (transport) => server.connect(transport),
  });
  const end = new StreamableHttpClientTransport(new URL("http://127.0.0.1/mcp"), {
    fetch: (input, init) => http.handle(new Request(input, init)),
  });
  return { end, close: () => http.close() };
}

async function callOn(protocolVersion: "2025-11-25" | "2026-07-28", carrier: Carrier) {
  const client = new McpClient({ name: "c", version: "1" }, { protocolVersion });
  const asked: string[] = [];
  const completed: string[] = [];
  client.setElicitationHandler(
    async (params) => {
      if (params.mode === "url") asked.push(params.elicitationId ?? "(none)");
      return { action: "accept" };
    },
    { modes: ["url"] },
  );
  client.onElicitationComplete = (id) => completed.push(id);
  const server = connectServer();
  const { end, close } = await clientEndFor(server, carrier);
  await client.connect(end);
  const result = await client.callTool({ name: "connect", arguments: {} });
  // Over HTTP the completion may travel on the standalone GET stream, after the call's answer.
  for (let i = 0; i < 50 && completed.length < asked.length && protocolVersion === "2025-11-25"; i++) {
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  await client.close();
  await server.close();
  await close();
  return { result, asked, completed };
}

describe.each(["memory", "http"] as const)("notifyElicitationComplete on both eras (%s)", (carrier) => {
  it("sends notifications/elicitation/complete on 2025-11-25", async () => {
    const { result, asked, completed } = await callOn("2025-11-25", carrier);
    expect(result).toEqual({ content: [{ type: "text", text: "connected, told" }] });
    expect(asked).toHaveLength(1);
    expect(completed).toEqual(asked);
  });

  it("does nothing on 2026-07-28, where the retry is the completion, and the same tool answers", async () => {
    const { result, asked, completed } = await callOn("2026-07-28", carrier);
    expect(result).toMatchObject({ content: [{ type: "text", text: "connected" }] });
    expect(result.isError).toBeUndefined();
    expect(asked).toHaveLength(1);
    expect(completed).toEqual([]);
  });
});
