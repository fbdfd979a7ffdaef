import { describe, expect, it } from "vitest";
import { StreamableHttpServer } from "../../src/transports/http/server.js";
import type { StreamableHttpSessionTransport } from "../../src/transports/http/session-transport.js";
import { BOTH, initializeRequest } from "./support.js";

/** A server whose protocol layer answers `initialize` and never anything else. */
function silentServer() {
  const sessions: StreamableHttpSessionTransport[] = [];
  const server = new StreamableHttpServer({
    onsession: (transport) => {
      sessions.push(transport);
      transport.onmessage = (message) => {
        if (!Array.isArray(message) && "method" in message && message.method === "initialize" && "id" in message) {
          void transport.send({
            jsonrpc: "2.0",
            id: message.id,
            result: { protocolVersion: "2025-11-25", capabilities: {}, serverInfo: { name: "s", version: "1" } },
          });
        }
      };
      void transport.start();
    },
  });
  const post = (body: unknown, headers: Record<string, string> = {}) =>
    server.handle(
      new Request("http://127.0.0.1/mcp", {
        method: "POST",
        headers: { accept: BOTH, "content-type": "application/json", ...headers },
        body: JSON.stringify(body),
      }),
    );
  return { server, sessions, post };
}

describe("Streamable HTTP session transport: memory", () => {
  it("does not keep every cancelled request id for the life of the session", async () => {
    const { sessions, post } = silentServer();
    const init = await post(initializeRequest(0));
    await init.text();
    const headers = { "mcp-session-id": init.headers.get("mcp-session-id") ?? "" };
    for (let id = 1; id <= 1100; id++) {
      const call = await post({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "x" } }, headers);
      await post({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id } }, headers);
      // The cancelled request no longer holds its stream open.
      await call.text();
    }
    const remembered = (sessions[0] as unknown as { cancelled: Set<unknown> }).cancelled;
    expect(remembered.size).toBeLessThanOrEqual(1000);
  });
});

describe("Streamable HTTP server: a failed initialize", () => {
  it("leaves no session behind; its id then gets 404", async () => {
    const server = new StreamableHttpServer({
      onsession: (transport) => {
        transport.onmessage = (message) => {
          if (Array.isArray(message) || !("id" in message) || !("method" in message)) return;
          void transport.send({
            jsonrpc: "2.0",
            id: message.id,
            error: { code: -32602, message: "Invalid params: clientInfo needs a name and a version" },
          });
        };
        void transport.start();
      },
    });
    const post = (body: unknown, headers: Record<string, string> = {}) =>
      server.handle(
        new Request("http://127.0.0.1/mcp", {
          method: "POST",
          headers: { accept: BOTH, "content-type": "application/json", ...headers },
          body: JSON.stringify(body),
        }),
      );
    for (let i = 0; i < 3; i++) {
      const refused = await post({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} });
      expect(await refused.text()).toContain("-32602");
      const sessionId = refused.headers.get("mcp-session-id");
      if (sessionId !== null) {
        const later = await post(
          { jsonrpc: "2.0", method: "notifications/initialized" },
          { "mcp-session-id": sessionId },
        );
        expect(later.status).toBe(404);
      }
    }
    expect(server.sessionCount).toBe(0);
  });
});
