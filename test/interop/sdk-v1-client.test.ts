/**
 * The official TypeScript SDK v1 client (`@modelcontextprotocol/sdk`) against our McpServer,
 * over stdio and over Streamable HTTP: handshake, tools, structured output, and both modes of
 * elicitation answered through the SDK's own handler API; and over Streamable HTTP without
 * sessions (`sessionIdGenerator: undefined`), through `handle()` and `toNodeHandler`.
 */
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  type ClientCapabilities,
  ElicitationCompleteNotificationSchema,
  ElicitRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import * as z from "zod";
import { McpServer } from "../../src/server/index.js";
import { StreamableHttpServer, toNodeHandler } from "../../src/transports/http/index.js";
import { deferred, FIXTURE_STDIO, type HttpServerProcess, ROOT, startFixtureHttp } from "./support.js";

type TransportKind = "stdio" | "http";

describe.each<TransportKind>(["stdio", "http"])("SDK v1 client -> our server over %s", (kind) => {
  let server: HttpServerProcess | undefined;
  const clients: Client[] = [];

  beforeAll(async () => {
    if (kind === "http") server = await startFixtureHttp();
    return async () => {
      await server?.stop();
    };
  });

  afterEach(async () => {
    await Promise.allSettled(clients.splice(0).map((client) => client.close()));
  });

  function newTransport(): Transport {
    if (kind === "stdio") return new StdioClientTransport({ ...FIXTURE_STDIO, cwd: ROOT, stderr: "inherit" });
    if (!server) throw new Error("the HTTP server did not start");
    return new StreamableHTTPClientTransport(server.url);
  }

  /** A connected v1 client; `setup` registers handlers before the handshake. */
  async function connect(capabilities: ClientCapabilities = {}, setup?: (client: Client) => void): Promise<Client> {
    const client = new Client({ name: "sdk-v1-interop", version: "1.0.0" }, { capabilities });
    clients.push(client);
    setup?.(client);
    await client.connect(newTransport());
    return client;
  }

  it("initializes and sees our server's name and capabilities", async () => {
    const client = await connect();
    expect(client.getServerVersion()).toEqual({ name: "interop-fixture", version: "1.0.0", title: "Interop Fixture" });
    expect(client.getServerCapabilities()).toMatchObject({ tools: { listChanged: true }, logging: {} });
    await expect(client.ping()).resolves.toEqual({});
  });

  it("lists the tools with their schemas", async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(["add", "ask_name", "connect_account", "echo"]);
    const add = tools.find((tool) => tool.name === "add");
    expect(add?.inputSchema).toMatchObject({ type: "object", properties: { a: { type: "number" } } });
    expect(add?.outputSchema).toMatchObject({ type: "object", properties: { sum: { type: "number" } } });
  });

  it("calls echo and add, and add's structured content passes the SDK's output validation", async () => {
    const client = await connect();
    await client.listTools();
    expect(await client.callTool({ name: "echo", arguments: { text: "hello there" } })).toEqual({
      content: [{ type: "text", text: "hello there" }],
    });
    const sum = await client.callTool({ name: "add", arguments: { a: 2, b: 3 } });
    expect(sum.structuredContent).toEqual({ sum: 5 });
    expect(sum.content).toEqual([{ type: "text", text: "2 + 3 = 5" }]);
    expect(sum.isError).toBeFalsy();
  });

  it("gets a tool error for bad arguments and a protocol error for an unknown tool", async () => {
    const client = await connect();
    const bad = await client.callTool({ name: "add", arguments: { a: "two", b: 3 } });
    expect(bad.isError).toBe(true);
    expect(JSON.stringify(bad.content)).toContain("Invalid arguments for tool add");
    await expect(client.callTool({ name: "nope", arguments: {} })).rejects.toMatchObject({ code: -32602 });
  });

  it("answers a form elicitation through setRequestHandler(ElicitRequestSchema)", async () => {
    const asked: unknown[] = [];
    const client = await connect({ elicitation: { form: {} } }, (c) =>
      c.setRequestHandler(ElicitRequestSchema, (request) => {
        asked.push(request.params);
        return { action: "accept", content: { name: "Grace" } };
      }),
    );
    const result = await client.callTool({ name: "ask_name", arguments: {} });
    // The greeting was left out; our server fills in the schema's default.
    expect(result.content).toEqual([{ type: "text", text: "Hello, Grace!" }]);
    // `mode` may be left out for form mode (spec 2025-11-25: client/elicitation § Elicitation Requests).
    expect(asked).toEqual([
      {
        ...(hasMode(asked[0]) ? { mode: "form" } : {}),
        message: "What is your name?",
        requestedSchema: {
          type: "object",
          properties: {
            name: { type: "string", title: "Name" },
            greeting: { type: "string", title: "Greeting", enum: ["Hello", "Hi"], default: "Hello" },
          },
          required: ["name"],
        },
      },
    ]);
  });

  it("answers a form elicitation with decline", async () => {
    const client = await connect({ elicitation: {} }, (c) =>
      c.setRequestHandler(ElicitRequestSchema, () => ({ action: "decline" })),
    );
    const result = await client.callTool({ name: "ask_name", arguments: {} });
    expect(result.content).toEqual([{ type: "text", text: "No name: the user chose to decline." }]);
  });

  it("answers a URL elicitation and receives notifications/elicitation/complete for it", async () => {
    const completed = deferred<string>();
    let offered: { url?: unknown; elicitationId?: unknown; mode?: unknown } = {};
    const client = await connect({ elicitation: { form: {}, url: {} } }, (c) => {
      c.setRequestHandler(ElicitRequestSchema, (request) => {
        offered = request.params;
        return { action: "accept" };
      });
      c.setNotificationHandler(ElicitationCompleteNotificationSchema, (notification) => {
        completed.resolve(notification.params.elicitationId);
      });
    });
    const result = await client.callTool({ name: "connect_account", arguments: {} });
    expect(offered).toMatchObject({ mode: "url", url: "https://accounts.example.com/connect?account=demo" });
    expect(typeof offered.elicitationId).toBe("string");
    expect(result.content).toEqual([
      { type: "text", text: `Connected (elicitation ${String(offered.elicitationId)}).` },
    ]);
    expect(await completed.promise).toBe(offered.elicitationId);
  });

  it("gets error -32021 naming URL mode, not a URL, when it did not declare URL mode", async () => {
    const client = await connect({ elicitation: { form: {} } }, (c) =>
      c.setRequestHandler(ElicitRequestSchema, () => expect.unreachable()),
    );
    const error = await client.callTool({ name: "connect_account", arguments: {} }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: { url: {} } } } });
    expect(JSON.stringify(error)).not.toContain("accounts.example.com");
    expect(String((error as Error).message)).not.toContain("accounts.example.com");
  });
});

describe.each(["handle", "node"] as const)("SDK v1 client -> our server without sessions, through %s()", (kind) => {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });

  /** A connected v1 client of an endpoint without sessions, and what its `wait` tool saw. */
  async function connect() {
    const started = deferred<void>();
    const aborted = deferred<void>();
    const mcp = new McpServer({ name: "sessionless", version: "1.0.0" });
    mcp.registerTool(
      "add",
      { inputSchema: { a: z.number(), b: z.number() }, outputSchema: { sum: z.number() } },
      ({ a, b }) => ({
        content: [{ type: "text", text: `${a + b}` }],
        structuredContent: { sum: a + b },
      }),
    );
    mcp.registerTool("fail", {}, () => {
      throw new Error("the weather service is down");
    });
    mcp.registerTool("wait", {}, async (_args, ctx) => {
      started.resolve();
      await new Promise((resolve) => ctx.signal.addEventListener("abort", resolve, { once: true }));
      aborted.resolve();
      return { content: [] };
    });
    const endpoint = new StreamableHttpServer({ sessionIdGenerator: undefined, onsession: (t) => mcp.connect(t) });
    closers.push(
      () => mcp.close(),
      () => endpoint.close(),
    );
    let transport = new StreamableHTTPClientTransport(new URL("http://127.0.0.1/mcp"), {
      fetch: (input, init) => endpoint.handle(new Request(input, init)),
    });
    if (kind === "node") {
      const http = createServer(toNodeHandler(endpoint)).listen(0, "127.0.0.1");
      await once(http, "listening");
      closers.push(async () => {
        http.closeAllConnections();
        await new Promise((resolve) => http.close(resolve));
      });
      const { port } = http.address() as AddressInfo;
      transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`));
    }
    const client = new Client({ name: "sdk-v1-sessionless", version: "1.0.0" }, { capabilities: {} });
    await client.connect(transport);
    closers.push(() => client.close());
    return { client, transport, started: started.promise, aborted: aborted.promise };
  }

  it("initializes without a session, then lists and calls tools, each POST on its own", async () => {
    const { client, transport } = await connect();
    expect(transport.sessionId).toBeUndefined();
    expect(client.getServerVersion()).toMatchObject({ name: "sessionless" });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["add", "fail", "wait"]);
    const sum = await client.callTool({ name: "add", arguments: { a: 2, b: 3 } });
    expect(sum.structuredContent).toEqual({ sum: 5 });
    await expect(client.ping()).resolves.toEqual({});
  });

  it("gets isError from a failing tool and for bad arguments", async () => {
    const { client } = await connect();
    const failed = await client.callTool({ name: "fail", arguments: {} });
    expect(failed.isError).toBe(true);
    expect(JSON.stringify(failed.content)).toContain("the weather service is down");
    const bad = await client.callTool({ name: "add", arguments: { a: "two", b: 3 } });
    expect(bad.isError).toBe(true);
  });

  it("stops a tool in flight when the client closes", async () => {
    const { client, started, aborted } = await connect();
    const call = client.callTool({ name: "wait", arguments: {} });
    call.catch(() => {});
    await started;
    await client.close();
    await aborted;
  });
});

function hasMode(params: unknown): boolean {
  return typeof params === "object" && params !== null && "mode" in params;
}
