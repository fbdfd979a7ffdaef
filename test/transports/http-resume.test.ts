import { describe, expect, it } from "vitest";
import type { JsonRpcMessage } from "../../src/jsonrpc/messages.js";
import { MemoryEventStore } from "../../src/transports/http/event-store.js";
import { StreamableHttpServer } from "../../src/transports/http/server.js";
import type { StreamableHttpSessionTransport } from "../../src/transports/http/session-transport.js";
import {
  BOTH,
  connectEcho,
  initializeRequest,
  nextMessage,
  openWebSession,
  sseEvents,
  sseMessages,
} from "./support.js";

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

  it("keeps storing a stream's messages when the client that resumed it goes away before the replay ends", async () => {
    let gate: Promise<void> | undefined;
    let lookups = 0;
    class SlowReplay extends MemoryEventStore {
      override async replayEventsAfter(
        lastEventId: string,
        send: (eventId: string, message: JsonRpcMessage) => Promise<void>,
      ): Promise<string> {
        const streamId = await super.replayEventsAfter(lastEventId, send);
        // A resumption looks the id up once, then replays: only the replay waits.
        if (gate !== undefined && ++lookups % 2 === 0) await gate;
        return streamId;
      }
    }
    const sessions: StreamableHttpSessionTransport[] = [];
    const server = new StreamableHttpServer({
      onsession: (transport) => {
        sessions.push(transport);
        connectEcho(transport);
      },
      eventStore: new SlowReplay(),
    });
    const { send: call, headers } = await openWebSession(server);
    const first = sseEvents(await call("GET", headers));
    const priming = (await first.next()).value?.id ?? "";
    await first.return(undefined);

    // A resumption whose client leaves while the server is still replaying.
    let release!: () => void;
    gate = new Promise((resolve) => {
      release = resolve;
    });
    const dropped = await call("GET", { ...headers, "last-event-id": priming });
    await dropped.body?.cancel();
    release();
    gate = undefined;
    await new Promise((resolve) => setImmediate(resolve));

    // The stream is still resumable: what the server sends on it now is stored, not refused or held back.
    const transport = sessions[0] as StreamableHttpSessionTransport;
    await transport.send({ jsonrpc: "2.0", id: "srv-1", method: "ping" });
    await transport.send({ jsonrpc: "2.0", method: "notifications/announced", params: { n: 0 } });
    const resumed = sseEvents(await call("GET", { ...headers, "last-event-id": priming }));
    expect(await nextMessage(resumed)).toMatchObject({ id: "srv-1", method: "ping" });
    expect(await nextMessage(resumed)).toMatchObject({ params: { n: 0 } });
    await resumed.return(undefined);
    await server.close();
  });

  it("refuses with 410 a resumption whose missed events the store has dropped, instead of skipping them", async () => {
    const sessions: StreamableHttpSessionTransport[] = [];
    const server = new StreamableHttpServer({
      onsession: (transport) => {
        sessions.push(transport);
        connectEcho(transport);
      },
      eventStore: new MemoryEventStore({ maxEvents: 3 }),
    });
    const { send: call, headers } = await openWebSession(server);
    const transport = sessions[0] as StreamableHttpSessionTransport;
    const note = (n: number) =>
      transport.send({ jsonrpc: "2.0", method: "notifications/n", params: { n } }, { relatedRequestId: 5 });
    const held = sseEvents(
      await call("POST", headers, { jsonrpc: "2.0", id: 5, method: "progress", params: { key: "k" } }),
    );
    await nextMessage(held);
    await note(1);
    const seen = await nextMessage(held);
    expect(seen).toMatchObject({ params: { n: 1 } });
    // The client loses its connection; two more events are stored, the oldest dropped.
    await held.return(undefined);
    await note(2);
    await note(3);

    // Nothing it missed is gone: the resumption replays it.
    const resumed = sseEvents(await call("GET", { ...headers, "last-event-id": seen.eventId ?? "" }));
    expect(await nextMessage(resumed)).toMatchObject({ params: { n: 2 } });
    expect(await nextMessage(resumed)).toMatchObject({ params: { n: 3 } });
    await resumed.return(undefined);

    // A client still at event 1 has missed event 2, which is dropped now.
    await note(4);
    await note(5);
    const gone = await call("GET", { ...headers, "last-event-id": seen.eventId ?? "" });
    expect(gone.status).toBe(410);
    expect(await gone.json()).toMatchObject({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32000, message: expect.stringContaining("no longer stored") },
    });
    // The session goes on.
    const answer = await call("POST", headers, { jsonrpc: "2.0", id: 6, method: "echo", params: {} });
    expect(await sseMessages(answer)).toEqual([{ jsonrpc: "2.0", id: 6, result: { echo: {} } }]);
    await server.close();
  });

  it("refuses with 410 a Last-Event-ID the store cannot place (unknown, or of another session), never a fresh stream", async () => {
    const store = new MemoryEventStore();
    const server = new StreamableHttpServer({ onsession: (t) => connectEcho(t), eventStore: store });
    const mine = await openWebSession(server);
    const other = await openWebSession(server);
    const otherPriming = (await sseEvents(await other.send("GET", other.headers)).next()).value?.id ?? "";
    const first = sseEvents(await mine.send("GET", mine.headers));
    const priming = (await first.next()).value?.id ?? "";
    await first.return(undefined);

    for (const [what, id] of [
      ["an id the store never gave", "nope"],
      ["an id of a stream the store does not know", "no-such-stream/1"],
      ["an id of another session", otherPriming],
    ] as const) {
      const refused = await mine.send("GET", { ...mine.headers, "last-event-id": id });
      expect(refused.status, what).toBe(410);
      expect(refused.headers.get("content-type"), what).toBe("application/json");
      expect(await refused.json(), what).toMatchObject({
        id: null,
        error: { code: -32000, message: expect.stringContaining("cannot be resumed") },
      });
    }

    // Positive control: this session's own id resumes its stream.
    const resumed = await mine.send("GET", { ...mine.headers, "last-event-id": priming });
    expect(resumed.status).toBe(200);
    expect(resumed.headers.get("content-type")).toBe("text/event-stream");
    await resumed.body?.cancel();
    await server.close();
  });

  it("refuses with 410 a Last-Event-ID sent to a server without an event store, which has nothing to replay", async () => {
    const server = new StreamableHttpServer({ onsession: (t) => connectEcho(t) });
    const { send, headers } = await openWebSession(server);
    const refused = await send("GET", { ...headers, "last-event-id": "e-1" });
    expect(refused.status).toBe(410);
    expect(await refused.json()).toMatchObject({ error: { message: expect.stringContaining("stores no events") } });
    // Positive control: the same GET without the id opens the stream.
    const fresh = await send("GET", headers);
    expect(fresh.status).toBe(200);
    await fresh.body?.cancel();
    await server.close();
  });
});
