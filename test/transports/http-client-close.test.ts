/**
 * Streamable HTTP client: `close()` ends the wait before the GET stream's next reconnection, so
 * that no timer of the transport keeps the process alive after it closed.
 */
import type { ServerResponse } from "node:http";
import { afterEach, describe, expect, it, vi } from "vitest";
import { StreamableHttpClientTransport } from "../../src/transports/http/client.js";
import { HTTP_PATHS, type RawPeer, type SeenRequest, settle, startRawPeer } from "./http-client-peer.js";

let peer: RawPeer | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await peer?.close();
  peer = undefined;
});

const WAIT_MS = 600_000;

/** The timers set for `WAIT_MS` from now on, and whether each was cleared since. */
function watchWaits(): { set: unknown[]; cleared: Set<unknown> } {
  const seen = { set: [] as unknown[], cleared: new Set<unknown>() };
  const setTimer = globalThis.setTimeout;
  const clearTimer = globalThis.clearTimeout;
  vi.spyOn(globalThis, "setTimeout").mockImplementation(((run: () => void, ms?: number) => {
    const timer = setTimer(run, ms);
    if (ms === WAIT_MS) seen.set.push(timer);
    return timer;
  }) as typeof setTimeout);
  vi.spyOn(globalThis, "clearTimeout").mockImplementation((timer) => {
    seen.cleared.add(timer);
    clearTimer(timer);
  });
  return seen;
}

/** A session whose GET stream sends one event with an id and ends, so the client waits to reconnect. */
function answer(request: SeenRequest, res: ServerResponse): void {
  if (request.method === "DELETE") {
    res.writeHead(204).end();
    return;
  }
  if (request.method === "GET") {
    res.writeHead(200, { "content-type": "text/event-stream" }).end("id: 1\ndata: \n\n");
    return;
  }
  const { id } = request.body ?? {};
  if (id === undefined) {
    res.writeHead(202).end();
    return;
  }
  const result = { jsonrpc: "2.0", id, result: {} };
  res.writeHead(200, { "content-type": "application/json", "mcp-session-id": "s1" }).end(JSON.stringify(result));
}

describe.each(HTTP_PATHS)("Streamable HTTP client (%s): close", (http) => {
  it("ends the wait before the GET stream's reconnection: its timer is cleared", async () => {
    peer = await startRawPeer(answer);
    const transport = new StreamableHttpClientTransport(peer.url, {
      http,
      reconnect: { maxRetries: 3, initialDelayMs: WAIT_MS, maxDelayMs: WAIT_MS },
    });
    const waits = watchWaits();
    await transport.start();
    await transport.send({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} });
    await transport.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    // initialize, notifications/initialized, then the GET stream, which ends at once.
    await peer.answered(3);
    await settle();
    // The stream ended: the transport waits to reconnect.
    expect(waits.set).toHaveLength(1);
    expect(waits.cleared.has(waits.set[0])).toBe(false);
    await transport.close();
    await settle();
    expect(waits.cleared.has(waits.set[0])).toBe(true);
    expect(peer.seen.map((request) => request.method)).toEqual(["POST", "POST", "GET", "DELETE"]);
  });
});
