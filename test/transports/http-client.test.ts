import { getEventListeners } from "node:events";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { JsonRpcMessage } from "../../src/jsonrpc/messages.js";
import { StreamableHttpClientTransport } from "../../src/transports/http/client.js";
import { StreamableHttpError } from "../../src/transports/http/errors.js";
import { MemoryEventStore } from "../../src/transports/http/event-store.js";
import { HTTP_PATHS } from "./http-client-peer.js";
import { type HttpProxy, startProxy } from "./http-client-proxy.js";
import { type EchoServer, initializeRequest, startEchoServer } from "./support.js";
import { Inbox } from "./transport.contract.js";

let echo: EchoServer | undefined;
let proxy: HttpProxy | undefined;
const clients: StreamableHttpClientTransport[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  await proxy?.close();
  proxy = undefined;
  await echo?.close();
  echo = undefined;
});

type ClientOptions = NonNullable<ConstructorParameters<typeof StreamableHttpClientTransport>[1]>;

async function start(options: Parameters<typeof startEchoServer>[0] = {}): Promise<EchoServer> {
  echo = await startEchoServer(options);
  return echo;
}

async function connect(
  url: URL,
  options: ClientOptions,
): Promise<{ client: StreamableHttpClientTransport; inbox: Inbox }> {
  const client = new StreamableHttpClientTransport(url, options);
  clients.push(client);
  const inbox = new Inbox(client);
  await client.start();
  return { client, inbox };
}

/** Sends a request and waits for the message answering it. */
async function call(
  client: StreamableHttpClientTransport,
  inbox: Inbox,
  id: number | string,
  method: string,
  params: Record<string, unknown> = {},
): Promise<JsonRpcMessage> {
  await client.send({ jsonrpc: "2.0", id, method, params });
  return answerTo(inbox, id);
}

async function answerTo(inbox: Inbox, id: number | string): Promise<JsonRpcMessage> {
  const isAnswer = (m: JsonRpcMessage | JsonRpcMessage[]) => !Array.isArray(m) && "id" in m && m.id === id;
  await inbox.until((i) => i.messages.some((m) => isAnswer(m) && !("method" in m)));
  return inbox.messages.find((m) => isAnswer(m) && !("method" in m)) as JsonRpcMessage;
}

async function handshake(client: StreamableHttpClientTransport, inbox: Inbox, version = "2025-11-25") {
  const result = await call(client, inbox, 1, "initialize", initializeRequest(1, version).params);
  client.setProtocolVersion(version);
  await client.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  return result;
}

describe.each(HTTP_PATHS)("Streamable HTTP client transport (%s)", (http) => {
  it("round-trips through a server: session id kept and sent back with the protocol version", async () => {
    const { url, extras } = await start();
    const { client, inbox } = await connect(url, { http });
    const init = await handshake(client, inbox);
    expect(init).toMatchObject({ id: 1, result: { protocolVersion: "2025-11-25" } });
    expect(client.sessionId).toMatch(/^[\x21-\x7e]+$/);

    expect(await call(client, inbox, 2, "echo", { text: "héllo" })).toEqual({
      jsonrpc: "2.0",
      id: 2,
      result: { echo: { text: "héllo" } },
    });
    expect(extras.at(-1)?.headers).toMatchObject({
      "mcp-session-id": client.sessionId,
      "mcp-protocol-version": "2025-11-25",
    });
    expect(inbox.errors).toEqual([]);
  });

  it("opens the GET stream after initialization and receives unrelated server messages on it", async () => {
    const { url } = await start();
    const { client, inbox } = await connect(url, { http });
    await handshake(client, inbox);
    await vi.waitFor(() => expect(echo?.sessions[0]?.busy).toBe(true));
    await call(client, inbox, 2, "announce", { count: 2 });
    await inbox.until((i) => i.messages.filter((m) => "method" in m).length === 2);
    expect(inbox.messages.filter((m) => "method" in m)).toEqual([
      { jsonrpc: "2.0", method: "notifications/announced", params: { n: 0 } },
      { jsonrpc: "2.0", method: "notifications/announced", params: { n: 1 } },
    ]);
  });

  it("receives a server-to-client request on the request's SSE stream and answers it", async () => {
    const { url } = await start();
    const { client, inbox } = await connect(url, { http });
    await handshake(client, inbox);
    await client.send({ jsonrpc: "2.0", id: 3, method: "ask", params: { question: "q" } });
    await inbox.until((i) => i.messages.some((m) => "method" in m && m.method === "sampling/createMessage"));
    await client.send({ jsonrpc: "2.0", id: "srv-1", result: { text: "a" } });
    expect(await answerTo(inbox, 3)).toEqual({ jsonrpc: "2.0", id: 3, result: { answer: { text: "a" } } });
  });

  it("handles JSON answers from a server in JSON response mode", async () => {
    const { url } = await start({ enableJsonResponse: true });
    const { client, inbox } = await connect(url, { http });
    await handshake(client, inbox);
    expect(await call(client, inbox, 2, "echo", { n: 1 })).toEqual({
      jsonrpc: "2.0",
      id: 2,
      result: { echo: { n: 1 } },
    });
  });

  it("continues an existing session when given its id", async () => {
    const { url, extras, sessions } = await start();
    const first = await connect(url, { http });
    await handshake(first.client, first.inbox);
    const sessionId = first.client.sessionId;

    const { client, inbox } = await connect(url, { http, sessionId });
    client.setProtocolVersion("2025-11-25");
    expect(await call(client, inbox, 10, "echo")).toEqual({ jsonrpc: "2.0", id: 10, result: { echo: {} } });
    expect(extras.at(-1)?.sessionId).toBe(sessionId);
    expect(sessions).toHaveLength(1);
  });

  it("names why a request reached no server (connection refused), not only that fetch failed", async () => {
    const closed = await startEchoServer();
    const url = closed.url;
    await closed.close();
    const client = new StreamableHttpClientTransport(url, { http });
    await client.start();
    const failure = await client.send(initializeRequest(1)).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(StreamableHttpError);
    expect((failure as StreamableHttpError).status).toBeUndefined();
    const why = http === "fetch" ? "fetch failed: .*ECONNREFUSED" : "connect ECONNREFUSED 127\\.0\\.0\\.1:\\d+$";
    expect((failure as Error).message).toMatch(new RegExp(`^POST http://127\\.0\\.0\\.1:\\d+/mcp failed: ${why}`));
    await client.close();
  });

  it("sends DELETE for its session on close and fires onclose once", async () => {
    const { url, server } = await start();
    const { client, inbox } = await connect(url, { http });
    await handshake(client, inbox);
    expect(server.sessionCount).toBe(1);
    await client.close();
    await client.close();
    expect(server.sessionCount).toBe(0);
    expect(inbox.closes).toBe(1);
    await expect(client.send({ jsonrpc: "2.0", method: "x" })).rejects.toMatchObject({ code: "CONNECTION_CLOSED" });
  });

  it("leaves no abort listener behind per request, so many requests raise no MaxListenersExceededWarning", async () => {
    const { url } = await start();
    const signals = new Set<AbortSignal>();
    const recording: typeof fetch = (input, init) => {
      if (init?.signal) signals.add(init.signal);
      return fetch(input, init);
    };
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on("warning", onWarning);
    try {
      const { client, inbox } = await connect(url, http === "fetch" ? { fetch: recording } : { http });
      await handshake(client, inbox);
      for (let id = 2; id < 202; id++) await call(client, inbox, id, "echo", { id });
      // Warnings are emitted on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off("warning", onWarning);
    }
    expect(warnings.filter((w) => w.name === "MaxListenersExceededWarning")).toEqual([]);
    const most = Math.max(0, ...[...signals].map((signal) => getEventListeners(signal, "abort").length));
    expect(most).toBeLessThan(10);
  });

  it("close() ends a POST stream still waiting for its response", async () => {
    const { url } = await start();
    const { client, inbox } = await connect(url, { http });
    await handshake(client, inbox);
    await client.send({ jsonrpc: "2.0", id: 2, method: "progress", params: { key: "never" } });
    await inbox.until((i) => i.messages.some((m) => "method" in m && m.method === "notifications/progress"));
    await client.close();
    expect(inbox.closes).toBe(1);
    expect(inbox.errors).toEqual([]);
  });

  it("reports an ended session as sessionExpired, forgets it, and can initialize again", async () => {
    const { url } = await start();
    const { client, inbox } = await connect(url, { http });
    await call(client, inbox, 1, "initialize", initializeRequest(1).params);
    const oldSession = client.sessionId ?? "";
    await fetch(url, { method: "DELETE", headers: { "mcp-session-id": oldSession } });

    const error = await client.send({ jsonrpc: "2.0", id: 2, method: "echo" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StreamableHttpError);
    expect(error).toMatchObject({ code: "TRANSPORT_ERROR", status: 404, sessionExpired: true });
    expect(client.sessionId).toBeUndefined();

    await client.send({ jsonrpc: "2.0", id: 3, method: "initialize", params: initializeRequest(3).params });
    expect(await answerTo(inbox, 3)).toMatchObject({ result: { protocolVersion: "2025-11-25" } });
    expect(client.sessionId).toBeDefined();
    expect(client.sessionId).not.toBe(oldSession);
  });

  it("reports through onerror when the GET stream cannot reopen, and leaves ending the session to a POST's 404", async () => {
    const { url, sessions } = await start();
    const { client, inbox } = await connect(url, {
      http,
      reconnect: { maxRetries: 2, initialDelayMs: 5, maxDelayMs: 5 },
    });
    await handshake(client, inbox);
    await vi.waitFor(() => expect(sessions[0]?.busy).toBe(true));
    await sessions[0]?.close();
    await inbox.until((i) => i.errors.length > 0);
    expect(inbox.errors[0]).toMatchObject({ code: "TRANSPORT_ERROR", status: 404, sessionExpired: false });
    expect(client.sessionId).toBeDefined();
    const error = await client.send({ jsonrpc: "2.0", id: 2, method: "echo" }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 404, sessionExpired: true });
    expect(client.sessionId).toBeUndefined();
  });

  it("surfaces other HTTP failures as StreamableHttpError with the server's message", async () => {
    const { url } = await start({ maxBodyBytes: 200 });
    const { client } = await connect(url, { http });
    const error = await client
      .send({ jsonrpc: "2.0", id: 1, method: "echo", params: { text: "x".repeat(500) } })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "TRANSPORT_ERROR", status: 413, sessionExpired: false });
    expect((error as Error).message).toContain("200 bytes");
  });

  it("treats 405 on GET from a stateless server as no standalone stream", async () => {
    const { url } = await start({ sessionIdGenerator: undefined });
    const { client, inbox } = await connect(url, { http });
    await handshake(client, inbox);
    expect(client.sessionId).toBeUndefined();
    expect(await call(client, inbox, 2, "echo")).toMatchObject({ id: 2 });
    expect(inbox.errors).toEqual([]);
  });

  it("resumes a dropped SSE stream with Last-Event-ID and gets the response sent meanwhile", async () => {
    const { url } = await start({ eventStore: new MemoryEventStore() });
    let cut = false;
    proxy = await startProxy(url, {
      // The answer to the `progress` POST breaks after its first chunk, once.
      cut: (request) => {
        if (cut || request.method !== "POST" || !request.body.includes('"progress"')) return false;
        cut = true;
        return true;
      },
    });
    const { client, inbox } = await connect(proxy.url, {
      http,
      reconnect: { maxRetries: 3, initialDelayMs: 5, maxDelayMs: 20 },
    });
    await handshake(client, inbox);
    await client.send({ jsonrpc: "2.0", id: 5, method: "progress", params: { key: "r" } });
    await inbox.until((i) => i.messages.some((m) => "method" in m && m.method === "notifications/progress"));
    const resumed = () => proxy?.seen.some((r) => r.method === "GET" && r.headers["last-event-id"] !== undefined);
    await vi.waitFor(() => expect(resumed()).toBe(true));

    await call(client, inbox, 6, "release", { key: "r" });
    expect(await answerTo(inbox, 5)).toEqual({ jsonrpc: "2.0", id: 5, result: { released: true } });
    expect(inbox.errors).toEqual([]);
  });
});
