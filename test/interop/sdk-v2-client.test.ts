/**
 * The official TypeScript SDK v2 client (`@modelcontextprotocol/client`) against our McpServer,
 * over stdio and over Streamable HTTP: handshake, its `server/discover` probe (answered in 2026-07-28),
 * an `InputRequiredResult` round,
 * tools, structured output, and both modes of elicitation through its handler API.
 */
import {
  Client,
  type ClientCapabilities,
  type ClientOptions,
  StreamableHTTPClientTransport,
  type Transport,
} from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { deferred, FIXTURE_STDIO, type HttpServerProcess, ROOT, startFixtureHttp } from "./support.js";

type TransportKind = "stdio" | "http";
type Params = Record<string, unknown>;

/** Keeps what the client sends and receives from now on, as it crosses its transport. */
function watchWire(client: Client): { sent: Params[]; received: Params[] } {
  const transport = client.transport;
  if (transport === undefined) throw new Error("the client is not connected");
  const wire = { sent: [] as Params[], received: [] as Params[] };
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    wire.sent.push(structuredClone(message) as Params);
    return send(message, options);
  };
  const onmessage = transport.onmessage;
  transport.onmessage = (message, extra) => {
    wire.received.push(structuredClone(message) as Params);
    onmessage?.(message, extra as never);
  };
  return wire;
}

describe.each<TransportKind>(["stdio", "http"])("SDK v2 client -> our server over %s", (kind) => {
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

  /** A connected v2 client; `setup` registers handlers before the handshake. */
  async function connect(
    capabilities: ClientCapabilities = {},
    setup?: (client: Client) => void,
    options: Omit<ClientOptions, "capabilities"> = {},
  ): Promise<Client> {
    const client = new Client({ name: "sdk-v2-interop", version: "1.0.0" }, { ...options, capabilities });
    clients.push(client);
    setup?.(client);
    await client.connect(newTransport());
    return client;
  }

  it("initializes on 2025-11-25 and sees our server's name and capabilities", async () => {
    const client = await connect();
    expect(client.getNegotiatedProtocolVersion()).toBe("2025-11-25");
    expect(client.getServerVersion()).toEqual({ name: "interop-fixture", version: "1.0.0", title: "Interop Fixture" });
    expect(client.getServerCapabilities()).toMatchObject({ tools: { listChanged: true }, logging: {} });
    await expect(client.ping()).resolves.toEqual({});
  });

  it("speaks 2026-07-28 when it probes with server/discover first (auto negotiation)", async () => {
    const client = await connect({}, undefined, { versionNegotiation: { mode: "auto" } });
    expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    expect((await client.callTool({ name: "echo", arguments: { text: "after the probe" } })).content).toEqual([
      { type: "text", text: "after the probe" },
    ]);
  });

  it("on 2026-07-28, answers our InputRequiredResult with its elicitation handler and gets the result on the retry", async () => {
    const asked: unknown[] = [];
    const client = await connect(
      { elicitation: { form: {} } },
      (c) =>
        c.setRequestHandler("elicitation/create", (request) => {
          asked.push(request.params);
          return { action: "accept", content: { name: "Ada", greeting: "Hi" } };
        }),
      { versionNegotiation: { mode: "auto" } },
    );
    expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    const wire = watchWire(client);
    const result = await client.callTool({ name: "ask_name", arguments: {} });
    expect(result.content).toEqual([{ type: "text", text: "Hi, Ada!" }]);
    expect(asked).toHaveLength(1);
    // The question travelled in an InputRequiredResult (no server request), and the retry was a
    // new request echoing requestState with the answer under the server's key.
    expect(wire.received.filter((m) => "method" in m && "id" in m)).toEqual([]);
    const [first, last] = wire.received.filter((m) => "result" in m) as { id: unknown; result: Params }[];
    expect(first?.result).toMatchObject({ resultType: "input_required", requestState: expect.any(String) });
    expect(last?.result.resultType).toBe("complete");
    const [call, retry] = wire.sent as { id: unknown; params: Params }[];
    expect(call?.params._meta).toMatchObject({ "io.modelcontextprotocol/protocolVersion": "2026-07-28" });
    expect(retry?.id).not.toEqual(call?.id);
    expect(retry?.params.requestState).toBe(first?.result.requestState);
    expect(Object.keys(retry?.params.inputResponses as Params)).toEqual(
      Object.keys(first?.result.inputRequests as Params),
    );
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

  it("answers a form elicitation through setRequestHandler('elicitation/create')", async () => {
    const asked: unknown[] = [];
    const client = await connect({ elicitation: { form: {} } }, (c) =>
      c.setRequestHandler("elicitation/create", (request) => {
        asked.push(request.params);
        return { action: "accept", content: { name: "Grace" } };
      }),
    );
    const result = await client.callTool({ name: "ask_name", arguments: {} });
    // The greeting was left out; our server fills in the schema's default.
    expect(result.content).toEqual([{ type: "text", text: "Hello, Grace!" }]);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({
      message: "What is your name?",
      requestedSchema: {
        type: "object",
        properties: { greeting: { enum: ["Hello", "Hi"], default: "Hello" } },
        required: ["name"],
      },
    });
  });

  it("answers a form elicitation with cancel", async () => {
    const client = await connect({ elicitation: {} }, (c) =>
      c.setRequestHandler("elicitation/create", () => ({ action: "cancel" })),
    );
    const result = await client.callTool({ name: "ask_name", arguments: {} });
    expect(result.content).toEqual([{ type: "text", text: "No name: the user chose to cancel." }]);
  });

  it("answers a URL elicitation and receives notifications/elicitation/complete for it", async () => {
    const completed = deferred<string>();
    let offered: { url?: unknown; elicitationId?: unknown; mode?: unknown } = {};
    const client = await connect({ elicitation: { form: {}, url: {} } }, (c) => {
      c.setRequestHandler("elicitation/create", (request) => {
        offered = request.params;
        return { action: "accept" };
      });
      c.setNotificationHandler("notifications/elicitation/complete", (notification) => {
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

  it("answers a URL elicitation with decline", async () => {
    const client = await connect({ elicitation: { url: {} } }, (c) =>
      c.setRequestHandler("elicitation/create", () => ({ action: "decline" })),
    );
    const result = await client.callTool({ name: "connect_account", arguments: {} });
    expect(result.content).toEqual([{ type: "text", text: "Not connected: the user chose to decline." }]);
  });
});
