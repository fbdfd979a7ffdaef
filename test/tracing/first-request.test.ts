/**
 * A server whose tracing is still loading serves the first message its transport delivers, even
 * when the application does not wait for `connect` (`onrequest: (t) => void server.connect(t)`):
 * the connection is attached before anything is awaited, and that first request goes untraced.
 */
import { describe, expect, it } from "vitest";
import { McpServer } from "../../src/server/index.js";
import { StreamableHttpServer } from "../../src/transports/http/index.js";

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "c", version: "1" },
};

async function firstCall(tracing: boolean | undefined, awaited: boolean): Promise<unknown> {
  const server = new McpServer({ name: "s", version: "1" }, tracing === undefined ? {} : { tracing });
  server.registerTool("echo", { description: "Echoes", inputSchema: { type: "object", properties: {} } }, () => ({
    content: [{ type: "text", text: "echo" }],
  }));
  const http = new StreamableHttpServer({
    onsession: (transport) => void server.connect(transport),
    onrequest: awaited ? (transport) => server.connect(transport) : (transport) => void server.connect(transport),
  });
  const answer = await http.handle(
    new Request("http://127.0.0.1/mcp", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/call",
        "mcp-name": "echo",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", _meta: META } }),
    }),
  );
  const body = (await answer.json()) as { result?: { content?: unknown } };
  await http.close();
  return body.result?.content;
}

describe("the first request while tracing loads", () => {
  for (const tracing of [true, undefined]) {
    it(`is answered when connect is not awaited (tracing: ${tracing})`, async () => {
      expect(await firstCall(tracing, false)).toEqual([{ type: "text", text: "echo" }]);
    });
  }

  it("positive control: answered the same when connect is awaited", async () => {
    expect(await firstCall(true, true)).toEqual([{ type: "text", text: "echo" }]);
  });
});
