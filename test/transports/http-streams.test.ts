import { afterEach, describe, expect, it, vi } from "vitest";
import { MemoryEventStore } from "../../src/transports/http/event-store.js";
import { StreamableHttpServer } from "../../src/transports/http/server.js";
import type { StreamableHttpSessionTransport } from "../../src/transports/http/session-transport.js";
import {
  BOTH,
  connectEcho,
  type EchoServer,
  initialize,
  initializeRequest,
  nextMessage,
  openWebSession,
  post,
  sseEvents,
  sseMessages,
  startEchoServer,
} from "./support.js";

let echo: EchoServer | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await echo?.close();
  echo = undefined;
});

async function start(options: Parameters<typeof startEchoServer>[0] = {}): Promise<EchoServer> {
  echo = await startEchoServer(options);
  return echo;
}

function openGet(url: URL, sessionId: string, lastEventId?: string): Promise<Response> {
  const headers: Record<string, string> = { accept: "text/event-stream", "mcp-session-id": sessionId };
  if (lastEventId !== undefined) headers["last-event-id"] = lastEventId;
  return fetch(url, { headers });
}

const announce = (id: number, count = 1) => ({ jsonrpc: "2.0" as const, id, method: "announce", params: { count } });

describe("Streamable HTTP server: the standalone GET stream", () => {
  it("carries a notification unrelated to any request", async () => {
    const { url } = await start();
    const sessionId = await initialize(url);
    const stream = await openGet(url, sessionId);
    expect(stream.status).toBe(200);
    expect(stream.headers.get("content-type")).toBe("text/event-stream");
    const events = sseEvents(stream);

    const answer = await post(url, announce(2), { "mcp-session-id": sessionId });
    expect(await sseMessages(answer)).toEqual([{ jsonrpc: "2.0", id: 2, result: {} }]);
    expect(await nextMessage(events)).toEqual({ jsonrpc: "2.0", method: "notifications/announced", params: { n: 0 } });
    await events.return(undefined);
  });

  it("lets a newer GET take the stream over from one the server still holds (a client that lost it silently)", async () => {
    const { url } = await start();
    const sessionId = await initialize(url);
    // The client lost this connection without the server noticing: it is still open on the server's side.
    const stale = sseEvents(await openGet(url, sessionId));

    const newer = await openGet(url, sessionId);
    expect(newer.status).toBe(200);
    const events = sseEvents(newer);
    const answer = await post(url, announce(2), { "mcp-session-id": sessionId });
    expect(await sseMessages(answer)).toEqual([{ jsonrpc: "2.0", id: 2, result: {} }]);
    expect(await nextMessage(events)).toEqual({ jsonrpc: "2.0", method: "notifications/announced", params: { n: 0 } });
    await events.return(undefined);
    // The old connection was ended, with nothing more written to it.
    const rest: unknown[] = [];
    for await (const event of stale) rest.push(event.data);
    expect(rest).toEqual([]);
  });

  it("keeps unrelated notifications sent before the GET stream opened and delivers them when it does", async () => {
    const { url } = await start();
    const sessionId = await initialize(url);
    const answer = await post(url, announce(2, 2), { "mcp-session-id": sessionId });
    expect(await sseMessages(answer)).toEqual([{ jsonrpc: "2.0", id: 2, result: {} }]);
    const events = sseEvents(await openGet(url, sessionId));
    expect(await nextMessage(events)).toEqual({ jsonrpc: "2.0", method: "notifications/announced", params: { n: 0 } });
    expect(await nextMessage(events)).toEqual({ jsonrpc: "2.0", method: "notifications/announced", params: { n: 1 } });
    await events.return(undefined);
  });

  it("needs an Accept that allows text/event-stream, and a known session", async () => {
    const { url } = await start();
    const sessionId = await initialize(url);
    const noAccept = await fetch(url, { headers: { accept: "application/json", "mcp-session-id": sessionId } });
    expect(noAccept.status).toBe(406);
    await noAccept.text();
    const unknown = await openGet(url, "unknown");
    expect(unknown.status).toBe(404);
    await unknown.text();
  });

  it("through handle(), drops a stream whose client stops reading once too much waits unread", async () => {
    const sessions: StreamableHttpSessionTransport[] = [];
    const server = new StreamableHttpServer({
      onsession: (transport) => {
        sessions.push(transport);
        connectEcho(transport);
      },
    });
    const init = await server.handle(
      new Request("http://127.0.0.1/mcp", {
        method: "POST",
        headers: { accept: BOTH, "content-type": "application/json" },
        body: JSON.stringify(initializeRequest(1)),
      }),
    );
    await init.text();
    const get = () =>
      server.handle(
        new Request("http://127.0.0.1/mcp", {
          headers: { accept: "text/event-stream", "mcp-session-id": init.headers.get("mcp-session-id") ?? "" },
        }),
      );
    const stalled = await get();
    expect(stalled.status).toBe(200);
    // 32 MiB of notifications that the client never reads.
    const data = "x".repeat(64 * 1024);
    for (let i = 0; i < 512; i++) {
      await sessions[0]?.send({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data } });
    }
    const next = await get();
    expect(next.status).toBe(200);
    await next.body?.cancel();
    await expect(stalled.text()).rejects.toThrow();
    expect(sessions[0]?.isClosed).toBe(false);
    await server.close();
  });

  it("ends when the session is deleted", async () => {
    const { url } = await start();
    const sessionId = await initialize(url);
    const stream = await openGet(url, sessionId);
    await fetch(url, { method: "DELETE", headers: { "mcp-session-id": sessionId } });
    expect(await sseMessages(stream)).toEqual([]);
  });
});

describe("Streamable HTTP server: resumability", () => {
  it("numbers events and replays the standalone messages missed after Last-Event-ID", async () => {
    const { url } = await start({ eventStore: new MemoryEventStore() });
    const sessionId = await initialize(url);
    const headers = { "mcp-session-id": sessionId };
    const events = sseEvents(await openGet(url, sessionId));
    await (await post(url, announce(2), headers)).text();
    const first = await nextMessage(events);
    expect(first).toMatchObject({ method: "notifications/announced", params: { n: 0 } });
    expect(first.eventId).toEqual(expect.any(String));
    await events.return(undefined);

    // Sent while the client is away: stored, not lost.
    await (await post(url, announce(3, 2), headers)).text();

    const resumed = sseEvents(await openGet(url, sessionId, first.eventId));
    expect(await nextMessage(resumed)).toMatchObject({ params: { n: 0 } });
    expect(await nextMessage(resumed)).toMatchObject({ params: { n: 1 } });
    await resumed.return(undefined);
  });

  it("resumes a POST stream whose connection dropped, delivering the response stored meanwhile", async () => {
    const { url } = await start({ eventStore: new MemoryEventStore() });
    const sessionId = await initialize(url);
    const headers = { "mcp-session-id": sessionId };
    const held = await post(url, { jsonrpc: "2.0", id: 5, method: "progress", params: { key: "p" } }, headers);
    const events = sseEvents(held);
    const progress = await nextMessage(events);
    expect(progress).toMatchObject({ method: "notifications/progress" });
    await events.return(undefined);

    await (await post(url, { jsonrpc: "2.0", id: 6, method: "release", params: { key: "p" } }, headers)).text();

    const resumed = await openGet(url, sessionId, progress.eventId);
    expect(await sseMessages(resumed)).toEqual([{ jsonrpc: "2.0", id: 5, result: { released: true } }]);
  });

  it("opens every SSE connection with a priming event whose id resumes from the first message", async () => {
    const { url } = await start({ eventStore: new MemoryEventStore(), retryIntervalMs: 250 });
    const sessionId = await initialize(url);
    const headers = { "mcp-session-id": sessionId };
    const held = await post(url, { jsonrpc: "2.0", id: 7, method: "progress", params: { key: "q" } }, headers);
    const events = sseEvents(held);
    const priming = (await events.next()).value;
    expect(priming).toMatchObject({ data: "", id: expect.any(String) });
    expect(await nextMessage(events)).toMatchObject({ method: "notifications/progress" });
    await events.return(undefined);
    await (await post(url, { jsonrpc: "2.0", id: 8, method: "release", params: { key: "q" } }, headers)).text();

    const raw = await (await openGet(url, sessionId, priming?.id)).text();
    expect(raw).not.toContain("retry:");
    expect(raw.match(/^data: .+$/gm)?.map((line) => JSON.parse(line.slice(6)))).toEqual([
      { jsonrpc: "2.0", method: "notifications/progress", params: { progress: 1 } },
      { jsonrpc: "2.0", id: 7, result: { released: true } },
    ]);
    const standalone = await openGet(url, sessionId);
    const reader = standalone.body?.getReader();
    const first = new TextDecoder().decode((await reader?.read())?.value);
    expect(first).toMatch(/^id: \S+\nretry: 250\ndata: \n\n$/);
    await reader?.cancel();
  });

  it("closes a POST's connection on request without ending its stream; the rest is resumed", async () => {
    const { url, extras } = await start({ eventStore: new MemoryEventStore() });
    const sessionId = await initialize(url);
    const headers = { "mcp-session-id": sessionId };
    const held = await post(url, { jsonrpc: "2.0", id: 9, method: "progress", params: { key: "c" } }, headers);
    const events = sseEvents(held);
    const progress = await nextMessage(events);
    extras.at(-1)?.closeSseStream?.();
    // The connection ends without the response.
    expect((await events.next()).done).toBe(true);

    await (await post(url, { jsonrpc: "2.0", id: 10, method: "release", params: { key: "c" } }, headers)).text();
    const resumed = await openGet(url, sessionId, progress.eventId);
    expect(await sseMessages(resumed)).toEqual([{ jsonrpc: "2.0", id: 9, result: { released: true } }]);
  });

  it("offers no way to close a connection that could not be resumed", async () => {
    const { url, extras } = await start();
    const sessionId = await initialize(url);
    await (await post(url, { jsonrpc: "2.0", id: 2, method: "echo" }, { "mcp-session-id": sessionId })).text();
    expect(extras.at(-1)?.closeSseStream).toBeUndefined();
  });

  it("neither primes nor offers to close streams in stateless mode, where no GET can resume them", async () => {
    const { url, extras } = await start({ sessionIdGenerator: undefined, eventStore: new MemoryEventStore() });
    const raw = await (await post(url, { jsonrpc: "2.0", id: 3, method: "echo" })).text();
    expect(raw.match(/^data: .*$/gm)).toEqual(['data: {"jsonrpc":"2.0","id":3,"result":{"echo":{}}}']);
    expect(extras.at(-1)?.closeSseStream).toBeUndefined();
  });

  it("sends no priming event without an event store, since nothing could be resumed", async () => {
    const { url } = await start();
    const sessionId = await initialize(url);
    const raw = await (
      await post(url, { jsonrpc: "2.0", id: 2, method: "echo" }, { "mcp-session-id": sessionId })
    ).text();
    expect(raw).toBe('event: message\ndata: {"jsonrpc":"2.0","id":2,"result":{"echo":{}}}\n\n');
  });

  it("refuses a retry interval that SSE cannot carry", () => {
    const options = { onsession: () => {}, eventStore: new MemoryEventStore() };
    expect(() => new StreamableHttpServer({ ...options, retryIntervalMs: 1.5 })).toThrow(TypeError);
    expect(() => new StreamableHttpServer({ ...options, retryIntervalMs: -1 })).toThrow(TypeError);
  });

  it("refuses a Last-Event-ID of another session with 410: nothing of this session follows it", async () => {
    const { url } = await start({ eventStore: new MemoryEventStore() });
    const first = await initialize(url);
    const events = sseEvents(await openGet(url, first));
    await (await post(url, announce(2), { "mcp-session-id": first })).text();
    const { eventId } = await nextMessage(events);
    await events.return(undefined);

    const second = await initialize(url);
    const stolen = await openGet(url, second, eventId);
    expect(stolen.status).toBe(410);
    expect((await stolen.json()).error.message).toMatch(/no event of this session/);
  });

  it("never reads another session's stream to refuse its Last-Event-ID; its own id is read and resumed", async () => {
    const store = new MemoryEventStore();
    const replayed: string[] = [];
    const replay = store.replayEventsAfter.bind(store);
    store.replayEventsAfter = (lastEventId, send) => {
      replayed.push(lastEventId);
      return replay(lastEventId, send);
    };
    const { url } = await start({ eventStore: store });
    const first = await initialize(url);
    const events = sseEvents(await openGet(url, first));
    await (await post(url, announce(2), { "mcp-session-id": first })).text();
    const { eventId } = await nextMessage(events);
    await events.return(undefined);

    const second = await initialize(url);
    expect((await openGet(url, second, eventId)).status).toBe(410);
    expect(replayed).toEqual([]);
    // Positive control: the owner's own resumption reads the store and is served.
    const resumed = await openGet(url, first, eventId);
    expect(resumed.status).toBe(200);
    expect(replayed).toContain(eventId);
    await resumed.body?.cancel();
  });
});

describe("Streamable HTTP server: stateless mode", () => {
  it("serves each POST on a fresh transport without session ids; GET and DELETE get 405", async () => {
    const { url, sessions } = await start({ sessionIdGenerator: undefined });
    const init = await post(url, initializeRequest(1));
    expect(init.headers.get("mcp-session-id")).toBeNull();
    await init.text();
    const response = await post(url, { jsonrpc: "2.0", id: 2, method: "echo", params: { x: 1 } });
    expect(await sseMessages(response)).toEqual([{ jsonrpc: "2.0", id: 2, result: { echo: { x: 1 } } }]);
    expect(sessions).toHaveLength(2);
    expect(sessions.every((transport) => transport.isClosed)).toBe(true);
    expect((await fetch(url, { headers: { accept: "text/event-stream" } })).status).toBe(405);
    expect((await fetch(url, { method: "DELETE" })).status).toBe(405);
  });
});

describe("Streamable HTTP server: idle sessions", () => {
  it("ends a session idle for sessionIdleTimeoutMs; its id then gets 404", async () => {
    vi.useFakeTimers();
    const server = new StreamableHttpServer({ onsession: (t) => connectEcho(t), sessionIdleTimeoutMs: 60_000 });
    const call = (body: unknown, headers: Record<string, string> = {}) =>
      server.handle(
        new Request("http://127.0.0.1/mcp", {
          method: "POST",
          headers: { accept: BOTH, "content-type": "application/json", ...headers },
          body: JSON.stringify(body),
        }),
      );
    const init = await call(initializeRequest(1));
    await init.text();
    const headers = { "mcp-session-id": init.headers.get("mcp-session-id") ?? "" };

    await vi.advanceTimersByTimeAsync(59_000);
    const kept = await call({ jsonrpc: "2.0", method: "notifications/initialized" }, headers);
    expect(kept.status).toBe(202);

    await vi.advanceTimersByTimeAsync(59_000);
    expect(server.sessionCount).toBe(1);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(server.sessionCount).toBe(0);
    const expired = await call({ jsonrpc: "2.0", method: "notifications/initialized" }, headers);
    expect(expired.status).toBe(404);
  });

  /** An in-process server with `options`, initialized; its session id and a way to send to it. */
  async function idleServer(options: { sessionIdleTimeoutMs?: number; maxSseConnectionMs?: number } = {}) {
    const server = new StreamableHttpServer({ onsession: (t) => connectEcho(t), ...options });
    const { send: request, headers } = await openWebSession(server);
    const notify = () => request("POST", headers, { jsonrpc: "2.0", method: "notifications/initialized" });
    return { server, headers, request, notify };
  }

  const MINUTE = 60_000;

  it("by default ends a session idle for 30 minutes; its id then gets 404", async () => {
    vi.useFakeTimers();
    const { server, notify } = await idleServer();
    await vi.advanceTimersByTimeAsync(29 * MINUTE);
    expect((await notify()).status).toBe(202);
    await vi.advanceTimersByTimeAsync(29 * MINUTE);
    expect(server.sessionCount).toBe(1);
    await vi.advanceTimersByTimeAsync(2 * MINUTE);
    expect(server.sessionCount).toBe(0);
    expect((await notify()).status).toBe(404);
  });

  it("keeps a session with an open GET stream past the default, and ends it once the stream is gone", async () => {
    vi.useFakeTimers();
    // One connection for the whole test: without the age limit the server never closes it.
    const { server, headers, request, notify } = await idleServer({ maxSseConnectionMs: Number.POSITIVE_INFINITY });
    const stream = await request("GET", headers);
    expect(stream.status).toBe(200);
    // The client reads its stream (keep-alives included), so the connection counts as alive.
    const reader = stream.body?.getReader();
    const drain = async () => {
      while (reader && !(await reader.read()).done) {}
    };
    void drain().catch(() => {});
    await vi.advanceTimersByTimeAsync(5 * 30 * MINUTE);
    expect(server.sessionCount).toBe(1);
    expect((await notify()).status).toBe(202);

    await reader?.cancel();
    await vi.advanceTimersByTimeAsync(61 * MINUTE);
    expect(server.sessionCount).toBe(0);
    expect((await notify()).status).toBe(404);
  });

  it("ends each idle session on its own schedule: the one still in use stays, the abandoned one goes", async () => {
    vi.useFakeTimers();
    const first = await idleServer({ sessionIdleTimeoutMs: 60_000 });
    const init = await first.request("POST", {}, initializeRequest(2));
    await init.text();
    const second = { "mcp-session-id": init.headers.get("mcp-session-id") ?? "" };
    const notifySecond = () => first.request("POST", second, { jsonrpc: "2.0", method: "notifications/initialized" });
    for (let minute = 0; minute < 3; minute++) {
      await vi.advanceTimersByTimeAsync(40_000);
      expect((await notifySecond()).status).toBe(202);
    }
    expect(first.server.sessionCount).toBe(1);
    expect((await first.notify()).status).toBe(404);
    expect((await notifySecond()).status).toBe(202);
  });

  it("with sessionIdleTimeoutMs: Infinity keeps an idle session until it is deleted", async () => {
    vi.useFakeTimers();
    const { server, headers, request, notify } = await idleServer({ sessionIdleTimeoutMs: Number.POSITIVE_INFINITY });
    await vi.advanceTimersByTimeAsync(30 * 24 * 60 * MINUTE);
    expect(server.sessionCount).toBe(1);
    expect((await notify()).status).toBe(202);
    expect((await request("DELETE", headers)).status).toBe(204);
    expect((await notify()).status).toBe(404);
  });

  it("refuses a sessionIdleTimeoutMs a timer cannot wait", () => {
    for (const bad of [0, -1, 1.5, Number.NaN, 2 ** 31]) {
      expect(
        () => new StreamableHttpServer({ onsession: () => undefined, sessionIdleTimeoutMs: bad }),
        String(bad),
      ).toThrow(TypeError);
    }
  });
});
