/**
 * `maxSseConnectionMs`: the server closes an SSE connection that reached its allowed age where the
 * client can carry on (the GET stream; with an event store every stream), with a `retry` hint.
 * A reader that stopped reading is then let go within that bound even where keep-alives cannot
 * see it (its bytes sit in the kernel's buffers), and a live client reconnects and loses nothing.
 */
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { connect } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { StreamableHttpClientTransport } from "../../src/transports/http/client.js";
import { MemoryEventStore } from "../../src/transports/http/event-store.js";
import { toNodeHandler } from "../../src/transports/http/node.js";
import { StreamableHttpServer, type StreamableHttpServerOptions } from "../../src/transports/http/server.js";
import type { StreamableHttpSessionTransport } from "../../src/transports/http/session-transport.js";
import { collect, connectEcho, initialize, initializeRequest, openWebSession } from "./support.js";
import { Inbox } from "./transport.contract.js";

const MINUTE = 60_000;
const cleanups: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  vi.useRealTimers();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function webServer(options: Partial<StreamableHttpServerOptions>, sessions: StreamableHttpSessionTransport[] = []) {
  const server = new StreamableHttpServer({
    onsession: (t) => {
      sessions.push(t);
      connectEcho(t);
    },
    ...options,
  });
  cleanups.push(() => server.close());
  return server;
}

describe("maxSseConnectionMs", () => {
  it("closes a GET connection after 5 minutes by default with a retry hint; the next GET gets what was sent meanwhile", async () => {
    vi.useFakeTimers();
    const server = webServer({});
    const { send, headers } = await openWebSession(server);
    const first = collect((await send("GET", headers)).body);

    await vi.advanceTimersByTimeAsync(5 * MINUTE - 1);
    expect(first.closed).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(first.closed).toBe(true);
    expect(first.text.endsWith("retry: 1000\ndata: \n\n")).toBe(true);

    const announced = await send("POST", headers, { jsonrpc: "2.0", id: 2, method: "announce" });
    await announced.text();
    const second = await send("GET", headers);
    expect(second.status).toBe(200);
    const seen = collect(second.body);
    await vi.advanceTimersByTimeAsync(0);
    expect(seen.text).toContain('"method":"notifications/announced"');
  });

  it("over node:http, lets go of a reader that never reads once the bound is reached, which keep-alives do not", async () => {
    const server = new StreamableHttpServer({ onsession: (t) => connectEcho(t), maxSseConnectionMs: MINUTE });
    const handler = toNodeHandler(server);
    const responses: ServerResponse[] = [];
    const http: Server = createServer((req, res) => {
      if (req.method === "GET") responses.push(res);
      void handler(req, res);
    });
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    cleanups.push(async () => {
      await server.close();
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    });
    const url = new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`);
    const sessionId = await initialize(url);
    const get = () => fetch(url, { headers: { accept: "text/event-stream", "mcp-session-id": sessionId } });

    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    // A client that opens its stream and never reads a byte of it: the kernel takes what is written.
    const stalled = connect(Number(url.port), "127.0.0.1", () => {
      stalled.write(
        `GET /mcp HTTP/1.1\r\nHost: ${url.host}\r\nAccept: text/event-stream\r\nMcp-Session-Id: ${sessionId}\r\n\r\n`,
      );
      stalled.pause();
    });
    cleanups.push(() => stalled.destroy());
    while (responses.length === 0) await new Promise((resolve) => setImmediate(resolve));

    // Four keep-alives later the stream still holds the session: nothing unread shows in Node's buffer.
    await vi.advanceTimersByTimeAsync(MINUTE - 1);
    expect(responses[0]?.writableEnded).toBe(false);

    await vi.advanceTimersByTimeAsync(1);
    while (!responses[0]?.writableEnded) await new Promise((resolve) => setImmediate(resolve));
    const next = await get();
    expect(next.status).toBe(200);
    await next.body?.cancel();
  });

  it("keeps our client's GET stream working across the bound: it reconnects and receives later notifications", async () => {
    vi.useFakeTimers();
    const server = webServer({ maxSseConnectionMs: MINUTE, retryIntervalMs: 500 });
    const gets: number[] = [];
    const client = new StreamableHttpClientTransport(new URL("http://127.0.0.1/mcp"), {
      fetch: async (input, init) => {
        if ((init?.method ?? "GET") === "GET") gets.push(Date.now());
        return server.handle(new Request(input, init));
      },
    });
    cleanups.push(() => client.close());
    const inbox = new Inbox(client);
    await client.start();
    await client.send(initializeRequest(1));
    await inbox.until((i) => i.messages.length === 1);
    client.setProtocolVersion("2025-11-25");
    await client.send({ jsonrpc: "2.0", method: "notifications/initialized" });

    for (let round = 0; round < 4; round++) {
      await vi.advanceTimersByTimeAsync(MINUTE + 500);
      await client.send({ jsonrpc: "2.0", id: 10 + round, method: "announce" });
      await inbox.until((i) => i.messages.filter((m) => "method" in m).length === round + 1);
    }
    expect(gets.length).toBeGreaterThanOrEqual(4);
    expect(inbox.errors).toEqual([]);
  });

  it("with an event store, closes a POST's connection too; our client resumes it and gets the response", async () => {
    vi.useFakeTimers();
    const sessions: StreamableHttpSessionTransport[] = [];
    const server = webServer({ maxSseConnectionMs: MINUTE, eventStore: new MemoryEventStore() }, sessions);
    const resumed: string[] = [];
    const client = new StreamableHttpClientTransport(new URL("http://127.0.0.1/mcp"), {
      fetch: async (input, init) => {
        const request = new Request(input, init);
        const lastEventId = request.headers.get("last-event-id");
        if (lastEventId !== null) resumed.push(lastEventId);
        return server.handle(request);
      },
    });
    cleanups.push(() => client.close());
    const inbox = new Inbox(client);
    await client.start();
    await client.send(initializeRequest(1));
    await inbox.until((i) => i.messages.length === 1);
    client.setProtocolVersion("2025-11-25");

    await client.send({ jsonrpc: "2.0", id: 2, method: "progress", params: { key: "k" } });
    await inbox.until((i) => i.messages.length === 2);
    await vi.advanceTimersByTimeAsync(3 * MINUTE);
    expect(resumed.length).toBeGreaterThan(0);
    await client.send({ jsonrpc: "2.0", id: 3, method: "release", params: { key: "k" } });
    await inbox.until((i) => i.messages.some((m) => "id" in m && m.id === 2));
    expect(inbox.messages).toContainEqual({ jsonrpc: "2.0", id: 2, result: { released: true } });
    expect(inbox.errors).toEqual([]);
  });

  it("without an event store, leaves a POST's stream open past the bound: it could not be resumed", async () => {
    vi.useFakeTimers();
    const server = webServer({ maxSseConnectionMs: MINUTE });
    const { send, headers } = await openWebSession(server);
    const held = collect(
      (await send("POST", headers, { jsonrpc: "2.0", id: 2, method: "progress", params: { key: "k" } })).body,
    );
    await vi.advanceTimersByTimeAsync(3 * MINUTE);
    expect(held.closed).toBe(false);
    await (await send("POST", headers, { jsonrpc: "2.0", id: 3, method: "release", params: { key: "k" } })).text();
    await vi.advanceTimersByTimeAsync(0);
    expect(held.closed).toBe(true);
    expect(held.text).toContain('"result":{"released":true}');
  });

  it("refuses a maxSseConnectionMs a timer cannot wait", () => {
    for (const bad of [0, -1, 1.5, Number.NaN, 2 ** 31]) {
      expect(
        () => new StreamableHttpServer({ onsession: () => undefined, maxSseConnectionMs: bad }),
        String(bad),
      ).toThrow(TypeError);
    }
  });
});
