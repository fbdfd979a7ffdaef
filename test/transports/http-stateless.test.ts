/**
 * Streamable HTTP for revision 2026-07-28: a POST without `Mcp-Session-Id` whose body is a 2026
 * request is served on its own, beside sessions; statuses and headers as a client sees them.
 */
import { describe, expect, it } from "vitest";
import { McpServer } from "../../src/server/index.js";
import { StreamableHttpServer } from "../../src/transports/http/index.js";

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};

function endpoint() {
  const server = new McpServer({ name: "s", version: "1" });
  server.registerTool(
    "where",
    {
      description: "Names its region",
      inputSchema: { type: "object", properties: { region: { type: "string", "x-mcp-header": "Region" } } },
    },
    (args) => ({ content: [{ type: "text", text: String(args.region) }] }),
  );
  server.registerTool(
    "echo",
    { description: "Echoes", inputSchema: { type: "object", properties: {} } },
    async (_a, ctx) => {
      await ctx.progress(1, 2);
      return { content: [{ type: "text", text: "echo" }] };
    },
  );
  const http = new StreamableHttpServer({
    onsession: (transport) => void server.connect(transport),
    onrequest: (transport) => server.connect(transport),
  });
  return http;
}

function post(
  http: StreamableHttpServer,
  body: { method: string; params?: Record<string, unknown>; [key: string]: unknown },
  headers: Record<string, string> = {},
  signal?: AbortSignal,
) {
  const name = body.params?.name ?? body.params?.uri;
  return http.handle(
    new Request("http://127.0.0.1/mcp", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": body.method,
        ...(typeof name === "string" ? { "mcp-name": name } : {}),
        ...headers,
      },
      body: JSON.stringify(body),
      ...(signal === undefined ? {} : { signal }),
    }),
  );
}

describe("Streamable HTTP server, stateless requests", () => {
  it("answers a 2026 request as JSON without creating a session", async () => {
    const http = endpoint();
    const response = await post(
      http,
      { jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: META } },
      { "mcp-method": "tools/list" },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("mcp-session-id")).toBeNull();
    const body = await response.json();
    expect(body.result).toMatchObject({ resultType: "complete", tools: [{ name: "where" }, { name: "echo" }] });
    expect(http.sessionCount).toBe(0);
  });

  it("streams progress before the result when the handler sends any", async () => {
    const response = await post(endpoint(), {
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "echo", arguments: {}, _meta: { ...META, progressToken: "p" } },
    });
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const text = await response.text();
    expect(text.indexOf("notifications/progress")).toBeLessThan(text.indexOf('"resultType":"complete"'));
  });

  it("refuses headers that disagree with the body with -32020 and HTTP 400", async () => {
    const response = await post(
      endpoint(),
      { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "echo", arguments: {}, _meta: META } },
      { "mcp-method": "tools/call", "mcp-name": "other" },
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ id: 3, error: { code: -32020 } });
  });

  it("refuses a missing Mcp-Method header with -32020", async () => {
    const response = await post(
      endpoint(),
      { jsonrpc: "2.0", id: 7, method: "tools/list", params: { _meta: META } },
      { "mcp-method": "" },
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: -32020 } });
  });

  it("refuses a 2026 header over a body whose _meta names no version with -32602 and HTTP 400", async () => {
    const response = await post(endpoint(), { jsonrpc: "2.0", id: 9, method: "tools/list", params: {} });
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body).toMatchObject({ id: 9, error: { code: -32602 } });
    expect(body.error.message).toContain("io.modelcontextprotocol/protocolVersion");
  });

  it("refuses a JSON array body on the 2026 path with -32600 (400) and keeps serving", async () => {
    const http = endpoint();
    const request = { jsonrpc: "2.0", id: 10, method: "tools/list", params: { _meta: META } };
    const send = (body: unknown) =>
      http.handle(
        new Request("http://127.0.0.1/mcp", {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            "mcp-protocol-version": "2026-07-28",
            "mcp-method": "tools/list",
          },
          body: JSON.stringify(body),
        }),
      );
    for (const batch of [[request], [request, { ...request, id: 11 }]]) {
      const refused = await send(batch);
      expect(refused.status).toBe(400);
      const answer = await refused.json();
      expect(Array.isArray(answer)).toBe(false);
      expect(answer).toMatchObject({ error: { code: -32600 } });
      expect(answer.error.message).toContain("single JSON-RPC message");
    }
    expect(http.sessionCount).toBe(0);
    const served = await send(request);
    expect(served.status).toBe(200);
    expect(await served.json()).toMatchObject({ id: 10, result: { resultType: "complete" } });
  });

  it("accepts a sessionless 2026 notification with 202 and no body, as the revision asks of any notification", async () => {
    const http = endpoint();
    const response = await post(http, {
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: 1, _meta: META },
    });
    expect(response.status).toBe(202);
    expect(await response.text()).toBe("");
    expect(http.sessionCount).toBe(0);
  });

  it("checks x-mcp-header parameters: the Mcp-Param header must be there and agree, Base64 or plain", async () => {
    const http = endpoint();
    const call = (region: string, headers: Record<string, string>) =>
      post(
        http,
        {
          jsonrpc: "2.0",
          id: 8,
          method: "tools/call",
          params: { name: "where", arguments: { region }, _meta: META },
        },
        headers,
      );
    const plain = await call("eu", { "mcp-param-region": "eu" });
    expect(await plain.json()).toMatchObject({ result: { content: [{ text: "eu" }] } });
    const encoded = `=?base64?${Buffer.from("été").toString("base64")}?=`;
    expect((await call("été", { "mcp-param-region": encoded })).status).toBe(200);
    const wrong: Record<string, string>[] = [
      {},
      { "mcp-param-region": "us" },
      { "mcp-param-region": "=?base64?ZXU?=" },
    ];
    for (const headers of wrong) {
      const refused = await call("eu", headers);
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({ error: { code: -32020 } });
    }
  });

  it("answers an unknown version with -32022 (400) and a removed method with -32601 (404)", async () => {
    const http = endpoint();
    const unknown = await post(
      http,
      {
        jsonrpc: "2.0",
        id: 4,
        method: "server/discover",
        params: { _meta: { ...META, "io.modelcontextprotocol/protocolVersion": "1900-01-01" } },
      },
      { "mcp-protocol-version": "1900-01-01" },
    );
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({ error: { code: -32022, data: { requested: "1900-01-01" } } });
    const removed = await post(http, { jsonrpc: "2.0", id: 5, method: "ping", params: { _meta: META } });
    expect(removed.status).toBe(404);
    expect(await removed.json()).toMatchObject({ id: 5, error: { code: -32601 } });
  });

  it("through handle(), does not start a request whose client already went away", async () => {
    let calls = 0;
    const server = new McpServer({ name: "s", version: "1" });
    server.registerTool("count", { description: "Counts its calls", inputSchema: { type: "object" } }, () => {
      calls++;
      return { content: [] };
    });
    const http = new StreamableHttpServer({ onsession: () => undefined, onrequest: (t) => server.connect(t) });
    const gone = new AbortController();
    gone.abort();
    await post(
      http,
      { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "count", arguments: {}, _meta: META } },
      {},
      gone.signal,
    );
    expect(calls).toBe(0);
  });

  it("close() ends a 2026 request still in flight, as it ends sessions: its handler is cancelled", async () => {
    const server = new McpServer({ name: "s", version: "1" });
    let started!: () => void;
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    let cancelled = false;
    server.registerTool(
      "wait",
      { description: "Waits until cancelled", inputSchema: { type: "object" } },
      (_a, ctx) => {
        started();
        return new Promise((resolve) => {
          ctx.signal.addEventListener("abort", () => {
            cancelled = true;
            resolve({ content: [] });
          });
        });
      },
    );
    const http = new StreamableHttpServer({ onsession: () => undefined, onrequest: (t) => server.connect(t) });
    const answer = post(http, {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "wait", arguments: {}, _meta: META },
    });
    await running;
    await http.close();
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(cancelled).toBe(true);
    expect((await answer).status).toBe(202);
    const later = await post(http, { jsonrpc: "2.0", id: 2, method: "tools/list", params: { _meta: META } });
    expect(later.status).toBe(503);
  });

  it("still creates a session for initialize on the same endpoint", async () => {
    const http = endpoint();
    const response = await post(
      http,
      {
        jsonrpc: "2.0",
        id: 6,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } },
      },
      { "mcp-protocol-version": "2025-11-25" },
    );
    expect(response.headers.get("mcp-session-id")).not.toBeNull();
    expect(http.sessionCount).toBe(1);
    await http.close();
  });
});
