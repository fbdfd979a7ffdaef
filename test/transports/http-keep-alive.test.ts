import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { JsonRpcMessage } from "../../src/jsonrpc/messages.js";
import { StreamableHttpClientTransport } from "../../src/transports/http/client.js";
import { toNodeHandler } from "../../src/transports/http/node.js";
import { StreamableHttpServer, type StreamableHttpServerOptions } from "../../src/transports/http/server.js";
import type { StreamableHttpSessionTransport } from "../../src/transports/http/session-transport.js";
import { collect, connectEcho, initialize, initializeRequest, openWebSession } from "./support.js";
import { Inbox } from "./transport.contract.js";

const KEEP_ALIVE = ": keep-alive\n\n";
const SECOND = 1000;

const cleanups: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  vi.useRealTimers();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** An in-process server (the web path, `handle`) with `options`, and an initialized session on it. */
async function webSession(options: Partial<StreamableHttpServerOptions> = {}) {
  const sessions: StreamableHttpSessionTransport[] = [];
  const onsession = (transport: StreamableHttpSessionTransport) => {
    sessions.push(transport);
    connectEcho(transport);
  };
  const server = new StreamableHttpServer({ onsession, ...options });
  cleanups.push(() => server.close());
  const { send, headers } = await openWebSession(server);
  const get = () => send("GET", headers);
  /** Whether the server still holds a connection of the session open (its GET stream here). */
  const held = () => sessions[0]?.busy === true;
  return { server, send, headers, get, held };
}

describe("Streamable HTTP server: SSE keep-alive", () => {
  it("writes a keep-alive comment on a GET stream silent for the interval (15 s by default), not before", async () => {
    vi.useFakeTimers();
    const { get } = await webSession();
    const stream = await get();
    expect(stream.status).toBe(200);
    const seen = collect(stream.body);

    await vi.advanceTimersByTimeAsync(15 * SECOND - 1);
    expect(seen.text).toBe("");
    await vi.advanceTimersByTimeAsync(1);
    expect(seen.text).toBe(KEEP_ALIVE);
    await vi.advanceTimersByTimeAsync(15 * SECOND);
    expect(seen.text).toBe(KEEP_ALIVE.repeat(2));
    expect(seen.closed).toBe(false);
  });

  it("writes none on a stream that carries messages within the interval", async () => {
    vi.useFakeTimers();
    const { get, send, headers } = await webSession({ keepAliveIntervalMs: 10 * SECOND });
    const seen = collect((await get()).body);
    for (let i = 0; i < 5; i++) {
      await vi.advanceTimersByTimeAsync(6 * SECOND);
      const answer = await send("POST", headers, { jsonrpc: "2.0", id: 10 + i, method: "announce" });
      await answer.text();
    }
    expect(seen.text).toContain("notifications/announced");
    expect(seen.text).not.toContain("keep-alive");
  });

  it("drops a GET stream whose client takes nothing, once a keep-alive went unread for an interval", async () => {
    vi.useFakeTimers();
    const { get, held } = await webSession();
    // Nobody reads this body: the client's connection is gone without a word.
    const lost = await get();
    expect(lost.status).toBe(200);
    await vi.advanceTimersByTimeAsync(15 * SECOND);
    expect(held()).toBe(true);

    await vi.advanceTimersByTimeAsync(15 * SECOND);
    expect(held()).toBe(false);
    await expect(lost.text()).rejects.toThrow();
    const next = await get();
    expect(next.status).toBe(200);
    await next.body?.cancel();
  });

  it("lets a session whose GET stream was dropped expire", async () => {
    vi.useFakeTimers();
    const { server, get } = await webSession({ sessionIdleTimeoutMs: 60 * SECOND });
    expect((await get()).status).toBe(200);
    await vi.advanceTimersByTimeAsync(10 * 60 * SECOND);
    expect(server.sessionCount).toBe(0);
  });

  for (const off of [0, Number.POSITIVE_INFINITY]) {
    it(`writes nothing and drops nothing with keepAliveIntervalMs: ${off}`, async () => {
      vi.useFakeTimers();
      // The age limit of a connection is off too: only keep-alives could end this stream.
      const { get, held } = await webSession({
        keepAliveIntervalMs: off,
        maxSseConnectionMs: Number.POSITIVE_INFINITY,
      });
      const seen = collect((await get()).body);
      await vi.advanceTimersByTimeAsync(60 * 60 * SECOND);
      expect(seen.text).toBe("");
      expect(seen.closed).toBe(false);
      expect(held()).toBe(true);
    });
  }

  it("refuses a keepAliveIntervalMs a timer cannot wait", () => {
    for (const bad of [-1, 1.5, Number.NaN, 2 ** 31]) {
      expect(
        () => new StreamableHttpServer({ onsession: () => undefined, keepAliveIntervalMs: bad }),
        String(bad),
      ).toThrow(TypeError);
    }
  });

  it("our client ignores keep-alives: messages on its GET stream still arrive, and nothing is reported", async () => {
    vi.useFakeTimers();
    const server = new StreamableHttpServer({ onsession: (t) => connectEcho(t), keepAliveIntervalMs: 5 * SECOND });
    cleanups.push(() => server.close());
    const getText: string[] = [];
    // The client reaches the server in-process; what its GET stream carries is recorded on the way.
    const inProcess: typeof fetch = async (input, init) => {
      const response = await server.handle(new Request(input, init));
      if ((init?.method ?? "GET") !== "GET" || response.body === null) return response;
      const decoder = new TextDecoder();
      const tap = new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          getText.push(decoder.decode(chunk, { stream: true }));
          controller.enqueue(chunk);
        },
      });
      return new Response(response.body.pipeThrough(tap), { status: response.status, headers: response.headers });
    };
    const client = new StreamableHttpClientTransport(new URL("http://127.0.0.1/mcp"), { fetch: inProcess });
    cleanups.push(() => client.close());
    const inbox = new Inbox(client);
    await client.start();
    await client.send(initializeRequest(1));
    await inbox.until((i) => i.messages.length === 1);
    client.setProtocolVersion("2025-11-25");
    await client.send({ jsonrpc: "2.0", method: "notifications/initialized" });

    await vi.advanceTimersByTimeAsync(16 * SECOND);
    expect(getText.join("")).toContain(KEEP_ALIVE.repeat(3));
    await client.send({ jsonrpc: "2.0", id: 2, method: "announce" });
    await inbox.until((i) => i.messages.length === 3);
    const received = inbox.messages.slice(1) as JsonRpcMessage[];
    expect(received).toContainEqual({ jsonrpc: "2.0", method: "notifications/announced", params: { n: 0 } });
    expect(received).toContainEqual({ jsonrpc: "2.0", id: 2, result: {} });
    expect(inbox.errors).toEqual([]);
  });
});

describe("Streamable HTTP server: SSE keep-alive on node:http", () => {
  /** `toNodeHandler` on 127.0.0.1; `streams` collects the response of each GET. */
  async function nodeServer() {
    const server = new StreamableHttpServer({ onsession: (t) => connectEcho(t) });
    const handler = toNodeHandler(server);
    const streams: ServerResponse[] = [];
    const http: Server = createServer((req, res) => {
      if (req.method === "GET") streams.push(res);
      void handler(req, res);
    });
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    cleanups.push(async () => {
      await server.close();
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    });
    const { port } = http.address() as AddressInfo;
    return { url: new URL(`http://127.0.0.1:${port}/mcp`), streams };
  }

  /** A GET on its own connection; resolves with the response once its headers arrive. */
  function openGet(url: URL, sessionId: string): Promise<IncomingMessage> {
    return new Promise((resolve, reject) => {
      const req = request(url, {
        agent: false,
        headers: { accept: "text/event-stream", "mcp-session-id": sessionId },
      });
      req.on("response", resolve).on("error", reject).end();
    });
  }

  function body(res: IncomingMessage) {
    const state = { text: "", closed: false };
    res.setEncoding("utf8");
    res.on("data", (chunk: string) => {
      state.text += chunk;
    });
    res.on("close", () => {
      state.closed = true;
    });
    return state;
  }

  it("writes keep-alives on an idle GET stream, and drops it once its client stops taking data", async () => {
    const { url, streams } = await nodeServer();
    const sessionId = await initialize(url);
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    const first = await openGet(url, sessionId);
    expect(first.statusCode).toBe(200);
    const seen = body(first);

    await vi.advanceTimersByTimeAsync(15 * SECOND);
    await vi.waitUntil(() => seen.text.length > 0);
    expect(seen.text).toBe(KEEP_ALIVE);

    // The connection stalls without a FIN: what the server writes stays in its socket's buffer.
    streams[0]?.socket?.cork();
    await vi.advanceTimersByTimeAsync(15 * SECOND);
    // The server still holds the stream: one unread keep-alive is no proof that its client left.
    expect(streams[0]?.writableEnded).toBe(false);

    await vi.advanceTimersByTimeAsync(15 * SECOND);
    await vi.waitUntil(() => seen.closed);
    const next = await openGet(url, sessionId);
    expect(next.statusCode).toBe(200);
    next.destroy();
  });
});
