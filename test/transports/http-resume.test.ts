import { describe, expect, it } from "vitest";
import { MemoryEventStore } from "../../src/transports/http/event-store.js";
import { StreamableHttpServer } from "../../src/transports/http/server.js";
import { BOTH, connectEcho, initializeRequest, nextMessage, sseEvents, sseMessages } from "./http-fixtures.js";

describe("Streamable HTTP server: resuming a stream", () => {
  it("takes over a connection the server still believes open: the client has already lost it", async () => {
    const server = new StreamableHttpServer({ onsession: (t) => connectEcho(t), eventStore: new MemoryEventStore() });
    const call = (method: string, init: { body?: unknown; headers?: Record<string, string> }) =>
      server.handle(
        new Request("http://127.0.0.1/mcp", {
          method,
          headers: { accept: BOTH, "content-type": "application/json", ...init.headers },
          ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
        }),
      );
    const init = await call("POST", { body: initializeRequest(1) });
    await init.text();
    const headers = { "mcp-session-id": init.headers.get("mcp-session-id") ?? "" };

    // The first connection stays open on the server's side: its client has not been seen to go.
    const held = await call("POST", {
      body: { jsonrpc: "2.0", id: 5, method: "progress", params: { key: "k" } },
      headers,
    });
    const events = sseEvents(held);
    const progress = await nextMessage(events);
    expect(progress).toMatchObject({ method: "notifications/progress" });

    const resumed = await call("GET", { headers: { ...headers, "last-event-id": progress.eventId ?? "" } });
    expect(resumed.status).toBe(200);
    await (
      await call("POST", { body: { jsonrpc: "2.0", id: 6, method: "release", params: { key: "k" } }, headers })
    ).text();
    expect(await sseMessages(resumed)).toEqual([{ jsonrpc: "2.0", id: 5, result: { released: true } }]);
    // The stale connection ended without the response, which went to the new one only.
    const rest: unknown[] = [];
    for await (const event of events) if (event.data !== "") rest.push(event.data);
    expect(rest).toEqual([]);
    await server.close();
  });
});
