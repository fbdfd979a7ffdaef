/**
 * Over Streamable HTTP, McpClient meets an older server: the `server/discover` probe gets a 400 or
 * 404 without a modern JSON-RPC error, so the client falls back to `initialize` and carries on
 * with a session and the stateful headers. A stateless server gets `Mcp-Method` and `Mcp-Name`
 * on each POST and no session. The servers are `fetch` functions, so nothing listens.
 */
import { describe, expect, it } from "vitest";
import { McpClient } from "../../src/client/index.js";
import { LATEST_VERSION } from "../../src/revisions/index.js";
import { StreamableHttpClientTransport } from "../../src/transports/http/index.js";

interface Seen {
  method: string;
  headers: Headers;
}

const json = (body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json", ...headers } });

/** A 2025-era server: refuses a POST without a session unless it is `initialize`. */
function legacyFetch(seen: Seen[], probeStatus: 400 | 404): typeof fetch {
  return async (_input, init) => {
    if (init?.method !== "POST") return new Response(null, { status: 405 });
    const body = JSON.parse(String(init.body)) as { id?: number; method: string };
    const headers = new Headers(init.headers);
    seen.push({ method: body.method, headers });
    if (body.method === "initialize") {
      return json(
        {
          jsonrpc: "2.0",
          id: body.id,
          result: {
            protocolVersion: LATEST_VERSION,
            capabilities: { tools: {} },
            serverInfo: { name: "old", version: "1" },
          },
        },
        { "mcp-session-id": "s-1" },
      );
    }
    if (headers.get("mcp-session-id") !== "s-1") {
      return new Response("Bad Request: no valid session ID provided", { status: probeStatus });
    }
    if (body.id === undefined) return new Response(null, { status: 202 });
    return json({ jsonrpc: "2.0", id: body.id, result: { tools: [] } });
  };
}

/** A 2026-era server answering discover, tools/list and tools/call. */
function modernFetch(seen: Seen[]): typeof fetch {
  return async (_input, init) => {
    if (init?.method !== "POST") return new Response(null, { status: 405 });
    const body = JSON.parse(String(init.body)) as { id: number; method: string };
    seen.push({ method: body.method, headers: new Headers(init.headers) });
    const results: Record<string, unknown> = {
      "server/discover": { resultType: "complete", supportedVersions: ["2026-07-28"], capabilities: { tools: {} } },
      "tools/list": { resultType: "complete", tools: [], ttlMs: 0, cacheScope: "private" },
      "tools/call": { resultType: "complete", content: [] },
    };
    return json({ jsonrpc: "2.0", id: body.id, result: results[body.method] });
  };
}

describe("McpClient over Streamable HTTP", () => {
  for (const status of [400, 404] as const) {
    it(`falls back to initialize when the probe gets HTTP ${status} from an older server`, async () => {
      const seen: Seen[] = [];
      const client = new McpClient({ name: "c", version: "1" });
      const url = new URL("http://127.0.0.1:9/mcp");
      await client.connect(new StreamableHttpClientTransport(url, { fetch: legacyFetch(seen, status) }));
      expect(client.isStateless).toBe(false);
      expect(client.protocolVersion).toBe(LATEST_VERSION);
      await client.listTools();
      expect(seen.map((s) => s.method)).toEqual([
        "server/discover",
        "initialize",
        "notifications/initialized",
        "tools/list",
      ]);
      const list = seen.at(-1)?.headers;
      expect(list?.get("mcp-session-id")).toBe("s-1");
      expect(list?.get("mcp-protocol-version")).toBe(LATEST_VERSION);
      expect(list?.get("mcp-method")).toBeNull();
      await client.close();
    });
  }

  it("sends the standard headers and no session to a stateless server", async () => {
    const seen: Seen[] = [];
    const client = new McpClient({ name: "c", version: "1" });
    await client.connect(
      new StreamableHttpClientTransport(new URL("http://127.0.0.1:9/mcp"), { fetch: modernFetch(seen) }),
    );
    await client.callTool({ name: "get_weather", arguments: {} });
    const call = seen.find((s) => s.method === "tools/call")?.headers;
    expect(call?.get("mcp-method")).toBe("tools/call");
    expect(call?.get("mcp-name")).toBe("get_weather");
    expect(call?.get("mcp-protocol-version")).toBe("2026-07-28");
    expect(call?.get("mcp-session-id")).toBeNull();
    expect(seen.map((s) => s.method)).not.toContain("initialize");
    await client.close();
  });
});
