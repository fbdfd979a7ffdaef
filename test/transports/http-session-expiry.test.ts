/**
 * Idle expiry of a session whose client is gone while requests are still in flight (a hand-off
 * waiting for its user, say): with no connection attached and no request for the idle period,
 * the session ends and those requests are cancelled. A client still connected keeps its session.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { McpServer } from "../../src/server/index.js";
import { StreamableHttpServer, type StreamableHttpServerOptions } from "../../src/transports/http/server.js";
import { BOTH, initializeRequest } from "./support.js";

const MINUTE = 60_000;
const cleanups: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  vi.useRealTimers();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** An `McpServer` whose `wait` tool runs until its request is cancelled, and a session on it through `handle()`. */
async function waitingSession(options: Partial<StreamableHttpServerOptions> = {}) {
  const cancelled: string[] = [];
  const mcp = new McpServer({ name: "expiry", version: "1" });
  mcp.registerTool(
    "wait",
    { description: "Waits until cancelled", inputSchema: { type: "object", properties: { tag: { type: "string" } } } },
    (args, ctx) =>
      new Promise((resolve) => {
        ctx.signal.addEventListener("abort", () => {
          cancelled.push(String(args.tag));
          resolve({ content: [] });
        });
      }),
  );
  const server = new StreamableHttpServer({
    onsession: (transport) => mcp.connect(transport),
    sessionIdleTimeoutMs: MINUTE,
    ...options,
  });
  cleanups.push(() => server.close());
  const send = (body: unknown, headers: Record<string, string> = {}, signal?: AbortSignal) =>
    server.handle(
      new Request("http://127.0.0.1/mcp", {
        method: "POST",
        headers: { accept: BOTH, "content-type": "application/json", ...headers },
        body: JSON.stringify(body),
        ...(signal === undefined ? {} : { signal }),
      }),
    );
  const init = await send(initializeRequest(1));
  await init.text();
  const headers = {
    "mcp-session-id": init.headers.get("mcp-session-id") ?? "",
    "mcp-protocol-version": "2025-11-25",
  };
  await (await send({ jsonrpc: "2.0", method: "notifications/initialized" }, headers)).text();
  const wait = (id: number, tag: string, signal?: AbortSignal) =>
    send({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "wait", arguments: { tag } } }, headers, signal);
  return { server, wait, cancelled };
}

describe("Streamable HTTP server: idle expiry with requests in flight", () => {
  it("ends a session whose client left its SSE answer while the request waits, and cancels the request", async () => {
    vi.useFakeTimers();
    const { server, wait, cancelled } = await waitingSession();
    const pending = await wait(2, "left");
    expect(pending.status).toBe(200);
    // The client goes away: its end of the answer stream is closed, and it sends nothing more.
    await pending.body?.cancel();
    await vi.advanceTimersByTimeAsync(2 * MINUTE);
    expect(server.sessionCount).toBe(0);
    expect(cancelled).toEqual(["left"]);
  });

  it("ends a session whose client aborted its JSON answer while the request waits, and cancels the request", async () => {
    vi.useFakeTimers();
    const { server, wait, cancelled } = await waitingSession({ enableJsonResponse: true });
    const abort = new AbortController();
    const pending = wait(2, "aborted", abort.signal).catch(() => undefined);
    await vi.advanceTimersByTimeAsync(0);
    abort.abort();
    await pending;
    await vi.advanceTimersByTimeAsync(2 * MINUTE);
    expect(server.sessionCount).toBe(0);
    expect(cancelled).toEqual(["aborted"]);
  });

  it("keeps a session whose client still holds its answer open, SSE or JSON, and leaves the request running", async () => {
    vi.useFakeTimers();
    for (const enableJsonResponse of [false, true]) {
      const { server, wait, cancelled } = await waitingSession({ enableJsonResponse });
      // The client reads what comes (keep-alives on SSE), so its connection counts as alive.
      const pending = wait(2, "held").then(async (response) => {
        const reader = response.body?.getReader();
        while (reader && !(await reader.read()).done) {}
      });
      await vi.advanceTimersByTimeAsync(10 * MINUTE);
      expect(server.sessionCount, `JSON: ${enableJsonResponse}`).toBe(1);
      expect(cancelled).toEqual([]);
      await server.close();
      await pending;
    }
  });
});
