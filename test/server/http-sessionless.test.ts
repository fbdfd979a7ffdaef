/**
 * `McpServer` behind a Streamable HTTP server without sessions (`sessionIdGenerator: undefined`),
 * as serverless hosts run it: a 2025-era client initializes once, and every later POST arrives
 * on a fresh transport and is served as if that handshake had happened on it, at the revision its
 * `MCP-Protocol-Version` names (spec 2025-11-25: basic/transports § Session Management, § Protocol
 * Version Header). Each case runs through `handle()` and through `toNodeHandler`.
 */
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import * as z from "zod";
import { McpClient } from "../../src/client/index.js";
import { InteractionManager } from "../../src/interaction/server/index.js";
import { McpServer } from "../../src/server/index.js";
import { InProcessMessageBus, MemoryInteractionStore } from "../../src/stores/index.js";
import {
  StreamableHttpClientTransport,
  StreamableHttpServer,
  type StreamableHttpServerOptions,
  toNodeHandler,
} from "../../src/transports/http/index.js";

type Kind = "handle" | "node";

const BOTH = "application/json, text/event-stream";
const CONNECT_URL = "https://mcp.example.com/connect/github";

/** A promise with its resolve function. */
function signal(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** The server every case talks to, and what its `wait` tool saw. */
function buildServer() {
  const manager = new InteractionManager({
    store: new MemoryInteractionStore(),
    bus: new InProcessMessageBus(),
    unsafeLocalUser: { issuer: "local", subject: "alice" },
  });
  const server = new McpServer({ name: "sessionless", version: "1.0.0" }, { interactions: manager });
  server.registerTool(
    "greet",
    { title: "Greeter", description: "Greets someone by name", inputSchema: { name: z.string() } },
    ({ name }) => ({ content: [{ type: "text", text: `Hello, ${name}!` }] }),
  );
  server.registerTool("fail", { description: "Always fails" }, () => {
    throw new Error("the weather service is down");
  });
  server.registerTool("ask", { description: "Asks the user for their name" }, async (_args, ctx) => {
    const answer = await ctx.elicit({
      message: "What is your name?",
      requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
    });
    return { content: [{ type: "text", text: `Hello, ${String(answer.content?.name)}!` }] };
  });
  server.registerTool("link", { description: "Links a GitHub account" }, async (_args, ctx) => {
    const outcome = await ctx.interact({ url: CONNECT_URL, message: "Connect your GitHub account." });
    return { content: [{ type: "text", text: `The user chose ${outcome.action}.` }] };
  });
  const started = signal();
  const aborted = signal();
  server.registerTool("wait", { description: "Waits until it is cancelled" }, async (_args, ctx) => {
    started.resolve();
    await new Promise<void>((resolve) => ctx.signal.addEventListener("abort", () => resolve(), { once: true }));
    aborted.resolve();
    return { content: [] };
  });
  return { server, started: started.promise, aborted: aborted.promise };
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** An endpoint without sessions in front of a fresh server, reached through `handle()` or `node:http`. */
async function start(kind: Kind, options: Partial<StreamableHttpServerOptions> = {}) {
  const built = buildServer();
  const endpoint = new StreamableHttpServer({
    sessionIdGenerator: undefined,
    onsession: (transport) => built.server.connect(transport),
    ...options,
  });
  closers.push(
    () => built.server.close(),
    () => endpoint.close(),
  );
  let url = new URL("http://127.0.0.1/mcp");
  let fetcher: typeof fetch = (input, init) => endpoint.handle(new Request(input, init));
  if (kind === "node") {
    const http: Server = createServer(toNodeHandler(endpoint)).listen(0, "127.0.0.1");
    await once(http, "listening");
    closers.push(async () => {
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    });
    url = new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`);
    fetcher = fetch;
  }
  /** Every answer's status and `Mcp-Session-Id`, by the method of the request. */
  const answers: { method: string; status: number; sessionId: string | null }[] = [];
  const recording: typeof fetch = async (input, init) => {
    const response = await fetcher(input, init);
    answers.push({
      method: init?.method ?? "GET",
      status: response.status,
      sessionId: response.headers.get("mcp-session-id"),
    });
    return response;
  };
  /** One raw POST of `body` with `headers`. */
  const post = (body: unknown, headers: Record<string, string> = {}, init: RequestInit = {}) =>
    fetcher(url, {
      method: "POST",
      headers: { accept: BOTH, "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
      ...init,
    });
  return { ...built, endpoint, url, fetch: recording, answers, post };
}

/** Our client pinned to 2025-11-25, connected to `url`. */
async function connect(url: URL, fetcher: typeof fetch, setup?: (client: McpClient) => void): Promise<McpClient> {
  const client = new McpClient({ name: "sessionless-test", version: "1.0.0" }, { protocolVersion: "2025-11-25" });
  setup?.(client);
  await client.connect(new StreamableHttpClientTransport(url, { fetch: fetcher }));
  closers.push(() => client.close());
  return client;
}

const toolsList = { jsonrpc: "2.0", id: 7, method: "tools/list" };

describe.each<Kind>(["handle", "node"])("McpServer without sessions, through %s()", (kind) => {
  it("answers initialize without an Mcp-Session-Id, and the client stays without one", async () => {
    const { url, fetch, answers } = await start(kind);
    const client = await connect(url, fetch);
    expect(client.protocolVersion).toBe("2025-11-25");
    expect(client.serverInfo).toMatchObject({ name: "sessionless" });
    expect(answers.filter((answer) => answer.method === "POST")).toEqual([
      { method: "POST", status: 200, sessionId: null },
      { method: "POST", status: 202, sessionId: null },
    ]);
  });

  it("lists and calls tools, each POST on a transport of its own that closes after it", async () => {
    const { url, fetch, endpoint } = await start(kind);
    const client = await connect(url, fetch);
    const { tools } = await client.listTools({});
    expect(tools.map((tool) => tool.name)).toEqual(["greet", "fail", "ask", "link", "wait"]);
    expect(tools[0]).toMatchObject({ name: "greet", title: "Greeter" });
    const result = await client.callTool({ name: "greet", arguments: { name: "Ada" } });
    expect(result).toEqual({ content: [{ type: "text", text: "Hello, Ada!" }] });
    expect(endpoint.sessionCount).toBe(0);
  });

  it("answers a failing tool with isError and keeps serving", async () => {
    const { url, fetch } = await start(kind);
    const client = await connect(url, fetch);
    const failed = await client.callTool({ name: "fail", arguments: {} });
    expect(failed.isError).toBe(true);
    expect(JSON.stringify(failed.content)).toContain("the weather service is down");
    const result = await client.callTool({ name: "greet", arguments: { name: "Grace" } });
    expect(result.content).toEqual([{ type: "text", text: "Hello, Grace!" }]);
  });

  it("serves a POST that names its revision in MCP-Protocol-Version at that revision", async () => {
    const { post } = await start(kind);
    const answer = await post(toolsList, { "mcp-protocol-version": "2025-11-25" });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("mcp-session-id")).toBeNull();
    const tools = (await sseResult(answer)).tools as { name: string; title?: string }[];
    // `title` exists since 2025-06-18.
    expect(tools[0]).toMatchObject({ name: "greet", title: "Greeter" });
  });

  it("serves a POST without MCP-Protocol-Version as 2025-03-26, which has no tool titles", async () => {
    const { post } = await start(kind);
    const answer = await post(toolsList);
    expect(answer.status).toBe(200);
    const tools = (await sseResult(answer)).tools as { name: string; title?: string }[];
    expect(tools[0]?.name).toBe("greet");
    expect(tools[0]).not.toHaveProperty("title");
  });

  it("refuses an MCP-Protocol-Version it does not support with 400, and serves the same POST with a supported one", async () => {
    const { post } = await start(kind);
    const refused = await post(toolsList, { "mcp-protocol-version": "2099-01-01" });
    expect(refused.status).toBe(400);
    expect((await refused.json()).error.message).toContain("2099-01-01");
    const served = await post(toolsList, { "mcp-protocol-version": "2025-06-18" });
    expect(served.status).toBe(200);
    expect((await sseResult(served)).tools).toHaveLength(5);
  });

  it("answers a notification with 202 and no body", async () => {
    const { post } = await start(kind);
    const answer = await post(
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { "mcp-protocol-version": "2025-11-25" },
    );
    expect(answer.status).toBe(202);
    expect(await answer.text()).toBe("");
  });

  it("answers GET and DELETE with 405: there is no stream and no session to end", async () => {
    const { url, fetch } = await start(kind);
    const get = await fetch(url, { headers: { accept: "text/event-stream" } });
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
    await get.text();
    const del = await fetch(url, { method: "DELETE" });
    expect(del.status).toBe(405);
    await del.text();
  });

  it("sends no elicitation: the client's capabilities are not known, so the call is answered -32021", async () => {
    const { url, fetch } = await start(kind);
    const asked: unknown[] = [];
    const client = await connect(url, fetch, (c) =>
      c.setElicitationHandler((params) => {
        asked.push(params);
        return { action: "accept", content: { name: "Mallory" } };
      }),
    );
    await expect(client.callTool({ name: "ask", arguments: {} })).rejects.toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { elicitation: { form: {} } } },
    });
    expect(asked).toEqual([]);
  });

  it("ends a hand-off as for a client without URL-mode elicitation: a tool error without the URL", async () => {
    const { url, fetch } = await start(kind);
    const asked: unknown[] = [];
    const client = await connect(url, fetch, (c) =>
      c.setElicitationHandler(
        (params) => {
          asked.push(params);
          return { action: "accept" };
        },
        { modes: ["form", "url"] },
      ),
    );
    const result = await client.callTool({ name: "link", arguments: {} });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result)).not.toContain(CONNECT_URL);
    expect(asked).toEqual([]);
  });

  it("stops a tool when the client leaves its SSE answer", async () => {
    const { post, started, aborted } = await start(kind);
    const leave = new AbortController();
    const answer = await post(
      { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "wait", arguments: {} } },
      { "mcp-protocol-version": "2025-11-25" },
      { signal: leave.signal },
    );
    expect(answer.headers.get("content-type")).toBe("text/event-stream");
    await started;
    leave.abort();
    await answer.body?.cancel().catch(() => {});
    await aborted;
  });

  it("stops a tool when the client of a JSON answer leaves", async () => {
    const { post, started, aborted } = await start(kind, { enableJsonResponse: true });
    const leave = new AbortController();
    const answer = post(
      { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "wait", arguments: {} } },
      { "mcp-protocol-version": "2025-11-25" },
      { signal: leave.signal },
    );
    answer.catch(() => {});
    await started;
    leave.abort();
    await aborted;
  });

  it("stops a tool when our client closes while the call is in flight", async () => {
    const { url, fetch, started, aborted } = await start(kind);
    const client = await connect(url, fetch);
    const call = client.callTool({ name: "wait", arguments: {} });
    call.catch(() => {});
    await started;
    await client.close();
    await aborted;
  });
});

/** The result of the one response in an SSE answer. */
async function sseResult(answer: Response): Promise<Record<string, unknown>> {
  const text = await answer.text();
  const data = text
    .split("\n")
    .filter((line) => line.startsWith("data: "))
    .map((line) => JSON.parse(line.slice(6)) as { result?: Record<string, unknown>; error?: unknown });
  const response = data.find((message) => "result" in message || "error" in message);
  if (response?.result === undefined) throw new Error(`no result in ${text}`);
  return response.result;
}
