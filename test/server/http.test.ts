import { afterEach, describe, expect, it } from "vitest";
import * as z from "zod";
import { JsonRpcSession } from "../../src/jsonrpc/session.js";
import { McpServer, type ServerSession } from "../../src/server/index.js";
import {
  MemoryEventStore,
  StreamableHttpClientTransport,
  StreamableHttpServer,
  type StreamableHttpServerOptions,
} from "../../src/transports/http/index.js";
import { until } from "./support.js";

/**
 * The HTTP server's web-standard handler, called directly: no socket is opened. `options` may
 * replace `onsession`. The client, server and endpoint are closed after the test; the client
 * only if `closeClient` (a test that closes it itself leaves it out).
 */
function httpPair(server: McpServer, options: Partial<StreamableHttpServerOptions> = {}, closeClient = true) {
  const http = new StreamableHttpServer({ onsession: (transport) => void server.connect(transport), ...options });
  /** Each request the client made, as `METHOD` or `GET after <Last-Event-ID>`. */
  const requests: string[] = [];
  const transport = new StreamableHttpClientTransport(new URL("http://127.0.0.1/mcp"), {
    fetch: (input, init) => {
      const request = new Request(input, init);
      const resumed = request.headers.get("last-event-id");
      requests.push(resumed === null ? request.method : `${request.method} after ${resumed}`);
      return http.handle(request);
    },
  });
  const client = new JsonRpcSession();
  if (closeClient) closers.push(() => client.close());
  closers.push(
    () => server.close(),
    () => http.close(),
  );
  return { http, transport, requests, client };
}

/**
 * Connects `client` to `transport` and completes the 2025-11-25 handshake, with `capabilities`
 * declared: `initialize`, then `notifications/initialized`.
 */
async function initialize(
  client: JsonRpcSession,
  transport: StreamableHttpClientTransport,
  capabilities: Record<string, unknown> = {},
): Promise<void> {
  await client.connect(transport);
  const init = await client.request("initialize", {
    protocolVersion: "2025-11-25",
    capabilities,
    clientInfo: { name: "c", version: "1" },
  });
  expect(init.protocolVersion).toBe("2025-11-25");
  transport.setProtocolVersion?.("2025-11-25");
  await client.notify("notifications/initialized");
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

describe("McpServer over Streamable HTTP", () => {
  it("negotiates, calls a tool that elicits, and completes the elicitation on that session", async () => {
    const server = new McpServer({ name: "http", version: "1" });
    server.registerTool("connect", { inputSchema: { service: z.string() } }, async ({ service }, ctx) => {
      const form = await ctx.elicit({
        message: `Which ${service} account?`,
        requestedSchema: { type: "object", properties: { account: { type: "string" } }, required: ["account"] },
      });
      const url = await ctx.elicit({ mode: "url", url: "https://example.com/connect", message: "Sign in." });
      await ctx.session.notifyElicitationComplete(url.elicitationId);
      return { content: [{ type: "text", text: `${String(form.content?.account)} ${url.action}` }] };
    });
    const { transport, client } = httpPair(server);
    const completions: unknown[] = [];
    client.setRequestHandler("elicitation/create", (params) =>
      params.mode === "url" ? { action: "accept" } : { action: "accept", content: { account: "ada" } },
    );
    client.setNotificationHandler("notifications/elicitation/complete", (params) => {
      completions.push(params);
    });
    await initialize(client, transport, { elicitation: { form: {}, url: {} } });
    expect(server.sessions[0]?.id).toBe(transport.sessionId);

    const result = await client.request("tools/call", { name: "connect", arguments: { service: "GitHub" } });
    expect(result).toEqual({ content: [{ type: "text", text: "ada accept" }] });
    // The completion travels on the standalone GET stream, so it may trail the POST's answer.
    await until(() => completions[0]);
    expect(completions).toEqual([{ elicitationId: expect.any(String) }]);
  });

  it("lets a tool close its SSE connection mid-call; the client resumes and gets the rest and the result", async () => {
    const server = new McpServer({ name: "http", version: "1" });
    const closed: boolean[] = [];
    server.registerTool("poll", {}, async (_args, ctx) => {
      await ctx.progress(1, 3);
      closed.push(ctx.closeSseStream());
      await ctx.progress(2, 3);
      await ctx.progress(3, 3);
      return { content: [{ type: "text", text: "done" }] };
    });
    const { transport, requests, client } = httpPair(server, {
      eventStore: new MemoryEventStore(),
      retryIntervalMs: 0,
    });
    await initialize(client, transport);

    const seen: number[] = [];
    const result = await client.request(
      "tools/call",
      { name: "poll", arguments: {} },
      { onprogress: ({ progress }) => seen.push(progress) },
    );
    expect(result).toEqual({ content: [{ type: "text", text: "done" }] });
    expect(closed).toEqual([true]);
    expect(seen).toEqual([1, 2, 3]);
    expect(requests.filter((r) => r.startsWith("GET after "))).toHaveLength(1);
  });

  it("cannot close a connection where no stream can be resumed", async () => {
    const server = new McpServer({ name: "http", version: "1" });
    let closed: boolean | undefined;
    server.registerTool("poll", {}, (_args, ctx) => {
      closed = ctx.closeSseStream();
      return { content: [] };
    });
    const { transport, client } = httpPair(server);
    await initialize(client, transport);
    await client.request("tools/call", { name: "poll", arguments: {} });
    expect(closed).toBe(false);
  });

  it("serves a session whose transport callbacks an application wraps after the server connected", async () => {
    const server = new McpServer({ name: "http", version: "1" });
    server.registerTool("noop", {}, () => ({ content: [] }));
    const seen: string[] = [];
    let ended = 0;
    const { http, transport, client } = httpPair(
      server,
      {
        onsession: async (session) => {
          await server.connect(session);
          const deliver = session.onmessage;
          session.onmessage = (message, extra) => {
            for (const one of Array.isArray(message) ? message : [message]) if ("method" in one) seen.push(one.method);
            deliver?.(message, extra);
          };
          const close = session.onclose;
          session.onclose = () => {
            ended++;
            close?.();
          };
        },
      },
      false,
    );
    await initialize(client, transport);
    await expect(client.request("tools/call", { name: "noop", arguments: {} })).resolves.toEqual({ content: [] });
    await client.close();
    await until(() => (ended === 1 ? true : undefined));
    expect(seen).toEqual(["initialize", "notifications/initialized", "tools/call"]);
    expect(http.sessionCount).toBe(0);
  });

  it("keeps serving a session through its connection when its transport is refused to a second connect", async () => {
    const server = new McpServer({ name: "http", version: "1" });
    const connections: ServerSession[] = [];
    server.registerTool("whose", {}, (_args, ctx) => ({
      content: [{ type: "text", text: `${connections.indexOf(ctx.session)} ${ctx.session.protocolVersion}` }],
    }));
    const refusals: unknown[] = [];
    const { transport, client } = httpPair(server, {
      onsession: async (session) => {
        connections.push(await server.connect(session));
        await server.connect(session).catch((error: unknown) => refusals.push(error));
      },
    });
    await initialize(client, transport);
    expect(refusals).toEqual([expect.objectContaining({ code: "ALREADY_CONNECTED" })]);
    await expect(client.request("tools/call", { name: "whose", arguments: {} })).resolves.toEqual({
      content: [{ type: "text", text: "0 2025-11-25" }],
    });
  });
});
