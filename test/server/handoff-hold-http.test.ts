/**
 * A held retry (revision 2026-07-28) over stateless Streamable HTTP: the answer, a JSON body
 * otherwise, turns into an SSE stream as the hold starts, which carries `: keep-alive` comments
 * while the server waits for the page (so no proxy times it out) and then the result. A client
 * that closes the connection ends the hold; the server's `maxSseConnectionMs` does not, since
 * nothing could resume the answer.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { InteractionRequired, McpServer } from "../../src/server/index.js";
import { StreamableHttpServer } from "../../src/transports/http/index.js";
import { recordCreated } from "../interaction/server/record-created.js";
import { CONNECT_MESSAGE, CONNECT_URL, createManager, LOCAL_USER } from "../interaction/server/support.js";
import { untilTurns as until } from "../support/turns.js";
import { collect } from "../transports/support.js";

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": { elicitation: { url: {} } },
};
const SECOND = 1_000;

afterEach(() => {
  vi.useRealTimers();
});

function endpoint(options: { maxSseConnectionMs?: number } = {}) {
  const { manager, bus } = createManager();
  const created = recordCreated(manager);
  const holds: string[] = [];
  const wait = manager.waitForCompletion.bind(manager);
  manager.waitForCompletion = (id, signal) => {
    holds.push(id);
    return wait(id, signal);
  };
  let linked = false;
  let runs = 0;
  const server = new McpServer({ name: "s", version: "1" }, { interactions: manager });
  server.registerTool("repos", { description: "Lists repositories" }, () => {
    runs++;
    if (!linked) throw new InteractionRequired({ url: CONNECT_URL, message: CONNECT_MESSAGE });
    return { content: [{ type: "text", text: "octo/hello-world" }] };
  });
  const http = new StreamableHttpServer({
    onsession: (transport) => void server.connect(transport),
    onrequest: (transport) => server.connect(transport),
    keepAliveIntervalMs: 10 * SECOND,
    ...options,
  });
  const post = (id: number, extra: Record<string, unknown> = {}, signal?: AbortSignal) =>
    http.handle(
      new Request("http://127.0.0.1/mcp", {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2026-07-28",
          "mcp-method": "tools/call",
          "mcp-name": "repos",
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id,
          method: "tools/call",
          params: { name: "repos", arguments: {}, ...extra, _meta: META },
        }),
        ...(signal === undefined ? {} : { signal }),
      }),
    );
  const complete = async () => {
    linked = true;
    await manager.complete(await until(() => created[0]), { user: LOCAL_USER });
  };
  return { http, post, holds, complete, bus, runs: () => runs };
}

/** The retry params of the first answer: accept for its page, its requestState as received. */
async function acceptRetry(first: Response) {
  const { result } = (await first.json()) as { result: Record<string, unknown> };
  const [key] = Object.keys(result.inputRequests as object);
  return { inputResponses: { [key ?? ""]: { action: "accept" } }, requestState: result.requestState };
}

describe("a held retry over stateless Streamable HTTP", () => {
  it("streams keep-alives while it waits for the page, then the result", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    const { post, holds, complete, http } = endpoint();
    const first = await post(1);
    expect(first.headers.get("content-type")).toBe("application/json");
    const held = await post(2, await acceptRetry(first));
    expect(held.status).toBe(200);
    expect(held.headers.get("content-type")).toBe("text/event-stream");
    expect(holds).toHaveLength(1);
    const seen = collect(held.body);
    await vi.advanceTimersByTimeAsync(10 * SECOND);
    expect(seen.text).toBe(": keep-alive\n\n");
    await vi.advanceTimersByTimeAsync(10 * SECOND);
    expect(seen.text).toBe(": keep-alive\n\n".repeat(2));
    await complete();
    await until(() => (seen.closed ? true : undefined));
    expect(seen.text).toContain('"text":"octo/hello-world"');
    expect(seen.text).toContain('"resultType":"complete"');
    await http.close();
  });

  it("is not cut by maxSseConnectionMs, which nothing could resume: the result still comes on it", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    const { post, complete, http } = endpoint({ maxSseConnectionMs: 5 * SECOND });
    const held = await post(2, await acceptRetry(await post(1)));
    expect(held.headers.get("content-type")).toBe("text/event-stream");
    const seen = collect(held.body);
    await vi.advanceTimersByTimeAsync(20 * SECOND);
    expect(seen.closed).toBe(false);
    expect(seen.text).toBe(": keep-alive\n\n".repeat(2));
    await complete();
    await until(() => (seen.closed ? true : undefined));
    expect(seen.text).toContain('"text":"octo/hello-world"');
    await http.close();
  });

  it("ends the hold when the client closes the connection, leaving no subscription", async () => {
    const { post, holds, bus, runs, http } = endpoint();
    const first = await post(1);
    const leaving = new AbortController();
    const held = await post(2, await acceptRetry(first), leaving.signal);
    expect(held.headers.get("content-type")).toBe("text/event-stream");
    expect(holds).toHaveLength(1);
    expect(bus.listeners()).toBeGreaterThan(0);
    leaving.abort();
    await until(() => (bus.listeners() === 0 ? true : undefined));
    expect(runs()).toBe(1);
    await http.close();
  });
});
