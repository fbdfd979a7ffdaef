/**
 * McpClient against a stateless-era server: the `server/discover` probe, `_meta` on every
 * request, no handshake and no ping; the fallback to `initialize` for older servers; and
 * multi round-trip requests (InputRequiredResult answered by the client's handlers, retried with
 * `requestState` byte for byte under a new id, capped).
 */
import { describe, expect, it } from "vitest";
import { McpClient, ProtocolError, SdkError } from "../../src/client/index.js";
import type { JsonRpcMessage, JsonRpcRequest } from "../../src/jsonrpc/messages.js";
import { JsonRpcSession, type Params, type Result } from "../../src/jsonrpc/session.js";
import { LATEST_VERSION } from "../../src/revisions/index.js";
import { paramHeadersOf, standardHeaders } from "../../src/revisions/stateless/client-headers.js";
import { createMemoryTransportPair } from "../../src/transports/memory.js";
import { FakeServer } from "./support.js";

const MODERN = "2026-07-28";
const V = "io.modelcontextprotocol/protocolVersion";
const CAPS = "io.modelcontextprotocol/clientCapabilities";
const INFO = "io.modelcontextprotocol/clientInfo";

type Handler = (params: Params) => Result | Promise<Result>;

/** A bare stateless server: each method a handler, every message the client sent kept. */
async function modernServer(handlers: Record<string, Handler>) {
  const [clientSide, serverSide] = createMemoryTransportPair();
  const session = new JsonRpcSession();
  session.setRequestHandler("server/discover", () => ({
    resultType: "complete",
    supportedVersions: [MODERN],
    capabilities: { tools: {}, prompts: {}, resources: {} },
    instructions: "Stateless.",
    ttlMs: 0,
    cacheScope: "public",
    _meta: { "io.modelcontextprotocol/serverInfo": { name: "modern", version: "2.0.0" } },
  }));
  for (const [method, handler] of Object.entries(handlers)) session.setRequestHandler(method, handler);
  await session.connect(serverSide);
  const received: JsonRpcMessage[] = [];
  const deliver = serverSide.onmessage;
  serverSide.onmessage = (message, extra) => {
    received.push(...(Array.isArray(message) ? message : [message]));
    deliver?.(message, extra);
  };
  const requests = (method: string) =>
    received.filter((m): m is JsonRpcRequest => "method" in m && "id" in m && m.method === method);
  return { clientSide, received, requests };
}

function newClient(options: ConstructorParameters<typeof McpClient>[1] = {}) {
  return new McpClient({ name: "test-client", version: "0.0.1" }, options);
}

describe("McpClient and a stateless server", () => {
  it("probes with server/discover, then sends every request with _meta and no handshake", async () => {
    const server = await modernServer({
      "tools/list": () => ({ resultType: "complete", tools: [], ttlMs: 0, cacheScope: "public" }),
    });
    const client = newClient();
    await client.connect(server.clientSide);
    expect(client.isStateless).toBe(true);
    expect(client.protocolVersion).toBe(MODERN);
    expect(client.serverInfo).toEqual({ name: "modern", version: "2.0.0" });
    expect(client.instructions).toBe("Stateless.");
    const listed = await client.listTools();
    expect(listed).not.toHaveProperty("resultType");
    expect(server.requests("initialize")).toEqual([]);
    for (const request of [...server.requests("server/discover"), ...server.requests("tools/list")]) {
      expect(request.params?._meta).toMatchObject({
        [V]: MODERN,
        [CAPS]: {},
        [INFO]: { name: "test-client", version: "0.0.1" },
      });
    }
    await expect(client.ping()).rejects.toMatchObject({ code: "METHOD_NOT_SUPPORTED" });
    expect(server.requests("ping")).toEqual([]);
    await client.setLoggingLevel({ level: "debug" });
    await client.listTools();
    expect(server.requests("logging/setLevel")).toEqual([]);
    expect(server.requests("tools/list").at(-1)?.params?._meta).toMatchObject({
      "io.modelcontextprotocol/logLevel": "debug",
    });
    await client.close();
  });

  it("falls back to initialize when the server answers the probe the old way", async () => {
    const server = new FakeServer();
    await server.start();
    const client = newClient();
    await client.connect(server.clientTransport);
    expect(client.isStateless).toBe(false);
    expect(client.protocolVersion).toBe(LATEST_VERSION);
    expect(server.sent("server/discover")).toHaveLength(1);
    expect(server.sent("initialize")).toHaveLength(1);
    await client.close();
  });

  it("falls back to initialize when the probe gets no answer in time", async () => {
    const server = new FakeServer();
    server.session.setRequestHandler("server/discover", () => new Promise<Result>(() => {}));
    await server.start();
    const client = newClient({ probeTimeoutMs: 20 });
    await client.connect(server.clientTransport);
    expect(client.protocolVersion).toBe(LATEST_VERSION);
    await client.close();
  });

  it("goes straight to initialize when a stateful revision is pinned", async () => {
    const server = new FakeServer();
    await server.start();
    const client = newClient({ protocolVersion: LATEST_VERSION });
    await client.connect(server.clientTransport);
    expect(server.sent("server/discover")).toEqual([]);
    await client.close();
  });

  it("refuses an older server when the stateless revision is pinned", async () => {
    const server = new FakeServer();
    await server.start();
    const client = newClient({ protocolVersion: MODERN });
    await expect(client.connect(server.clientTransport)).rejects.toMatchObject({ code: -32601 });
    expect(server.sent("initialize")).toEqual([]);
  });

  it("retries the probe with a version a modern server lists in -32022 instead of falling back", async () => {
    let refused = 0;
    const session = new JsonRpcSession();
    session.setRequestHandler("server/discover", () => {
      if (refused++ === 0) {
        throw new ProtocolError(-32022, "Unsupported protocol version", { supported: [MODERN], requested: "x" });
      }
      return { resultType: "complete", supportedVersions: [MODERN], capabilities: {} };
    });
    const [clientSide, serverSide] = createMemoryTransportPair();
    await session.connect(serverSide);
    const client = newClient();
    await client.connect(clientSide);
    expect(client.isStateless).toBe(true);
    expect(refused).toBe(2);
    await client.close();
  });

  it("leaves out tools whose x-mcp-header breaks the rules and says why", async () => {
    const server = await modernServer({
      "tools/list": () => ({
        resultType: "complete",
        ttlMs: 0,
        cacheScope: "private",
        tools: [
          {
            name: "ok",
            inputSchema: { type: "object", properties: { region: { type: "string", "x-mcp-header": "Region" } } },
          },
          {
            name: "bad",
            inputSchema: { type: "object", properties: { score: { type: "number", "x-mcp-header": "Score" } } },
          },
        ],
      }),
    });
    const client = newClient();
    const errors: string[] = [];
    client.onerror = (error) => errors.push(error.message);
    await client.connect(server.clientSide);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["ok"]);
    expect(errors.join("\n")).toContain('"bad"');
    await client.close();
  });
});

describe("standard headers of the stateless era", () => {
  it("names the method and the target, in base64 when the value is not plain ASCII", () => {
    expect(standardHeaders("tools/call", { name: "get_weather" })).toEqual({
      "Mcp-Method": "tools/call",
      "Mcp-Name": "get_weather",
    });
    expect(standardHeaders("resources/read", { uri: "file:///a b" })["Mcp-Name"]).toBe("file:///a b");
    expect(standardHeaders("prompts/get", { name: "Hello, 世界" })["Mcp-Name"]).toBe("=?base64?SGVsbG8sIOS4lueVjA==?=");
    expect(standardHeaders("tools/list", {})).toEqual({ "Mcp-Method": "tools/list" });
  });

  it("mirrors annotated arguments and omits absent ones", () => {
    const schema = {
      type: "object",
      properties: {
        region: { type: "string", "x-mcp-header": "Region" },
        priority: { type: "integer", "x-mcp-header": "Priority" },
        verbose: { type: "boolean", "x-mcp-header": "Verbose" },
        text: { type: "string", "x-mcp-header": "Text" },
        query: { type: "string" },
      },
    };
    const found = paramHeadersOf(schema);
    if (!("headers" in found)) throw new Error(found.problem);
    const headers = standardHeaders(
      "tools/call",
      { name: "t", arguments: { region: "us-west1", priority: 5, verbose: null, text: " padded ", query: "x" } },
      found.headers,
    );
    expect(headers).toMatchObject({
      "Mcp-Param-Region": "us-west1",
      "Mcp-Param-Priority": "5",
      "Mcp-Param-Text": "=?base64?IHBhZGRlZCA=?=",
    });
    expect(headers).not.toHaveProperty("Mcp-Param-Verbose");
    expect(Object.keys(headers)).not.toContain("Mcp-Param-Query");
  });

  it("rejects annotations that are empty, duplicated, on arrays or not reachable through properties", () => {
    const bad = [
      { type: "object", properties: { v: { type: "string", "x-mcp-header": "" } } },
      {
        type: "object",
        properties: { a: { type: "string", "x-mcp-header": "X" }, b: { type: "string", "x-mcp-header": "x" } },
      },
      { type: "object", properties: { v: { type: "array", items: { type: "string" }, "x-mcp-header": "V" } } },
      { type: "object", properties: { v: { type: "string", "x-mcp-header": "My Region" } } },
      { type: "object", properties: { v: { type: "array", items: { type: "string", "x-mcp-header": "V" } } } },
    ];
    for (const schema of bad) expect(paramHeadersOf(schema)).toHaveProperty("problem");
  });
});

describe("multi round-trip requests", () => {
  const STATE = "opaque ⟨state⟩ \u00e9 ==";

  it("answers inputRequests with the client's handlers and retries with requestState as received, under a new id", async () => {
    const server = await modernServer({
      "tools/call": (params) => {
        if (params.inputResponses === undefined) {
          return {
            resultType: "input_required",
            requestState: STATE,
            inputRequests: {
              who: {
                method: "elicitation/create",
                params: {
                  mode: "form",
                  message: "Your name?",
                  requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
                },
              },
              where: { method: "roots/list", params: {} },
            },
          };
        }
        return { resultType: "complete", content: [{ type: "text", text: JSON.stringify(params.inputResponses) }] };
      },
    });
    const client = newClient();
    client.setElicitationHandler(() => ({ action: "accept", content: { name: "Ada" } }));
    client.setRoots([{ uri: "file:///work", name: "work" }]);
    await client.connect(server.clientSide);
    const result = await client.callTool({ name: "greet", arguments: { loud: true } });
    expect(result).not.toHaveProperty("resultType");
    const [first, retry] = server.requests("tools/call");
    expect(first?.params).not.toHaveProperty("requestState");
    expect(retry?.id).not.toEqual(first?.id);
    expect(retry?.params?.requestState).toBe(STATE);
    expect(retry?.params).toMatchObject({ name: "greet", arguments: { loud: true } });
    expect(retry?.params?.inputResponses).toEqual({
      who: { action: "accept", content: { name: "Ada" } },
      where: { roots: [{ uri: "file:///work", name: "work" }] },
    });
    expect(retry?.params?._meta).toMatchObject({ [CAPS]: { elicitation: { form: {} }, roots: { listChanged: true } } });
    await client.close();
  });

  it("keeps each call's inputs and state to that call", async () => {
    const server = await modernServer({
      "tools/call": (params) => {
        const name = String(params.name);
        if (params.requestState === undefined) {
          return {
            resultType: "input_required",
            requestState: `state-of-${name}`,
            inputRequests: { q: { method: "roots/list", params: {} } },
          };
        }
        return { resultType: "complete", content: [{ type: "text", text: String(params.requestState) }] };
      },
    });
    const client = newClient();
    client.setRoots([]);
    await client.connect(server.clientSide);
    const [a, b] = await Promise.all([client.callTool({ name: "a" }), client.callTool({ name: "b" })]);
    expect(a.content).toEqual([{ type: "text", text: "state-of-a" }]);
    expect(b.content).toEqual([{ type: "text", text: "state-of-b" }]);
    const retries = server.requests("tools/call").filter((r) => r.params?.requestState !== undefined);
    for (const retry of retries) expect(retry.params?.requestState).toBe(`state-of-${String(retry.params?.name)}`);
    await client.close();
  });

  it("sends no requestState when the server gave none", async () => {
    let calls = 0;
    const server = await modernServer({
      "prompts/get": () =>
        ++calls === 1
          ? { resultType: "input_required", inputRequests: { r: { method: "roots/list", params: {} } } }
          : { resultType: "complete", messages: [] },
    });
    const client = newClient();
    client.setRoots([]);
    await client.connect(server.clientSide);
    await client.getPrompt({ name: "p" });
    const retry = server.requests("prompts/get")[1];
    expect(retry?.params).not.toHaveProperty("requestState");
    expect(retry?.params?.inputResponses).toEqual({ r: { roots: [] } });
    await client.close();
  });

  it("stops after the configured number of rounds with a typed error", async () => {
    let round = 0;
    const server = await modernServer({
      "tools/call": () => ({
        resultType: "input_required",
        requestState: `round-${++round}`,
        inputRequests: { r: { method: "roots/list", params: {} } },
      }),
    });
    const client = newClient({ maxInputRounds: 3 });
    client.setRoots([]);
    await client.connect(server.clientSide);
    const failure = await client.callTool({ name: "forever" }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SdkError);
    expect(failure).toMatchObject({ code: "INVALID_RESULT" });
    expect(server.requests("tools/call")).toHaveLength(4);
    await client.close();
  });

  it("does not ask again for a URL the user already accepted in this call", async () => {
    let calls = 0;
    const server = await modernServer({
      "tools/call": () =>
        ++calls < 4
          ? {
              resultType: "input_required",
              requestState: "s",
              inputRequests: {
                page: {
                  method: "elicitation/create",
                  params: { mode: "url", message: "Sign in", url: "https://example.com/c" },
                },
              },
            }
          : { resultType: "complete", content: [] },
    });
    const client = newClient({ maxInputRounds: 1 });
    const seen: { waiting: boolean | undefined }[] = [];
    client.setElicitationHandler(
      (_params, ctx) => {
        seen.push({ waiting: ctx.input?.waiting });
        return { action: "accept" };
      },
      { modes: ["url"] },
    );
    await client.connect(server.clientSide);
    await client.callTool({ name: "connect" });
    expect(seen).toEqual([{ waiting: false }, { waiting: true }, { waiting: true }]);
    await client.close();
  });
});
