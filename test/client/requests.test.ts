import { describe, expect, it } from "vitest";
import type { McpClient } from "../../src/client/index.js";
import type { Params } from "../../src/jsonrpc/session.js";
import { connected } from "./support.js";

const TOOL = { name: "add", inputSchema: { type: "object" } };
const TEXT = { type: "text", text: "3" };

/** Each spec method: how the client calls it, the wire method, the params that must arrive, and a valid result. */
const CASES: [string, (c: McpClient) => Promise<unknown>, string, Params | undefined, Params][] = [
  ["ping", (c) => c.ping(), "ping", undefined, {}],
  ["listTools", (c) => c.listTools({ cursor: "p2" }), "tools/list", { cursor: "p2" }, { tools: [TOOL] }],
  [
    "callTool",
    (c) => c.callTool({ name: "add", arguments: { a: 1, b: 2 } }),
    "tools/call",
    { name: "add", arguments: { a: 1, b: 2 } },
    { content: [TEXT] },
  ],
  [
    "listResources",
    (c) => c.listResources(),
    "resources/list",
    undefined,
    { resources: [{ uri: "file:///a", name: "a" }] },
  ],
  [
    "listResourceTemplates",
    (c) => c.listResourceTemplates(),
    "resources/templates/list",
    undefined,
    { resourceTemplates: [{ uriTemplate: "file:///{name}", name: "files" }] },
  ],
  [
    "readResource",
    (c) => c.readResource({ uri: "file:///a" }),
    "resources/read",
    { uri: "file:///a" },
    { contents: [{ uri: "file:///a", text: "hello" }] },
  ],
  [
    "subscribeResource",
    (c) => c.subscribeResource({ uri: "file:///a" }),
    "resources/subscribe",
    { uri: "file:///a" },
    {},
  ],
  [
    "unsubscribeResource",
    (c) => c.unsubscribeResource({ uri: "file:///a" }),
    "resources/unsubscribe",
    { uri: "file:///a" },
    {},
  ],
  ["listPrompts", (c) => c.listPrompts(), "prompts/list", undefined, { prompts: [{ name: "greet" }] }],
  [
    "getPrompt",
    (c) => c.getPrompt({ name: "greet", arguments: { who: "Ada" } }),
    "prompts/get",
    { name: "greet", arguments: { who: "Ada" } },
    { messages: [{ role: "user", content: { type: "text", text: "Hello Ada" } }] },
  ],
  [
    "complete",
    (c) => c.complete({ ref: { type: "ref/prompt", name: "greet" }, argument: { name: "who", value: "A" } }),
    "completion/complete",
    { ref: { type: "ref/prompt", name: "greet" }, argument: { name: "who", value: "A" } },
    { completion: { values: ["Ada", "Alan"], hasMore: false } },
  ],
  ["setLoggingLevel", (c) => c.setLoggingLevel({ level: "warning" }), "logging/setLevel", { level: "warning" }, {}],
];

describe("McpClient requests", () => {
  for (const [name, invoke, method, params, result] of CASES) {
    it(`${name} sends ${method} and resolves with its result`, async () => {
      const { client, server } = await connected();
      let seen: Params | undefined;
      server.session.setRequestHandler(method, (p) => {
        seen = p;
        return result;
      });
      await expect(invoke(client)).resolves.toEqual(result);
      expect(seen).toEqual(params ?? {});
      const sent = server.sent(method)[0];
      if (params === undefined) expect(sent).not.toHaveProperty("params");
    });
  }

  it("refuses locally a request whose capability the server did not declare", async () => {
    const { client, server } = await connected({ capabilities: { resources: {} } });
    await expect(client.callTool({ name: "add" })).rejects.toMatchObject({ code: "CAPABILITY_NOT_SUPPORTED" });
    await expect(client.listPrompts()).rejects.toMatchObject({ code: "CAPABILITY_NOT_SUPPORTED" });
    await expect(client.subscribeResource({ uri: "file:///a" })).rejects.toMatchObject({
      code: "CAPABILITY_NOT_SUPPORTED",
    });
    await expect(client.setLoggingLevel({ level: "info" })).rejects.toMatchObject({
      code: "CAPABILITY_NOT_SUPPORTED",
    });
    expect(server.sent("tools/call")).toEqual([]);
    expect(server.sent("resources/subscribe")).toEqual([]);
  });

  it("passes the server's JSON-RPC error through as a ProtocolError", async () => {
    const { client, server } = await connected();
    server.session.setRequestHandler("resources/read", () => {
      throw new Error("gone");
    });
    await expect(client.readResource({ uri: "file:///x" })).rejects.toMatchObject({ code: -32603 });
  });

  it("refuses a result that does not match the revision's schema", async () => {
    const { client, server } = await connected();
    server.session.setRequestHandler("tools/list", () => ({ tools: [{ title: "no name" }] }));
    await expect(client.listTools()).rejects.toMatchObject({ code: "INVALID_RESULT" });
  });

  it("cannot send before connecting", async () => {
    const { McpClient } = await import("../../src/client/index.js");
    const client = new McpClient({ name: "c", version: "1" });
    await expect(client.listTools()).rejects.toMatchObject({ code: "NOT_CONNECTED" });
  });
});

describe("pagination helpers", () => {
  it("follows nextCursor through every page", async () => {
    const { client, server } = await connected();
    const pages: Record<string, Params> = {
      "": { tools: [{ ...TOOL, name: "a" }], nextCursor: "c1" },
      c1: { tools: [{ ...TOOL, name: "b" }], nextCursor: "c2" },
      c2: { tools: [{ ...TOOL, name: "c" }] },
    };
    server.session.setRequestHandler("tools/list", (p) => pages[String(p.cursor ?? "")] ?? {});
    const tools = await client.listAllTools();
    expect(tools.map((t) => t.name)).toEqual(["a", "b", "c"]);
    expect(server.sent("tools/list").map((m) => m.params?.cursor)).toEqual([undefined, "c1", "c2"]);
  });

  it("stops with an error when the server repeats a cursor", async () => {
    const { client, server } = await connected();
    server.session.setRequestHandler("prompts/list", () => ({ prompts: [{ name: "p" }], nextCursor: "loop" }));
    await expect(client.listAllPrompts()).rejects.toMatchObject({ code: "INVALID_RESULT" });
    expect(server.sent("prompts/list")).toHaveLength(2);
  });

  it("collects resources and resource templates", async () => {
    const { client, server } = await connected();
    server.session.setRequestHandler("resources/list", (p) =>
      p.cursor === undefined
        ? { resources: [{ uri: "file:///1", name: "1" }], nextCursor: "n" }
        : { resources: [{ uri: "file:///2", name: "2" }] },
    );
    server.session.setRequestHandler("resources/templates/list", () => ({
      resourceTemplates: [{ uriTemplate: "file:///{x}", name: "x" }],
    }));
    expect((await client.listAllResources()).map((r) => r.uri)).toEqual(["file:///1", "file:///2"]);
    expect(await client.listAllResourceTemplates()).toHaveLength(1);
  });
});

describe("callTool output validation", () => {
  const WEATHER = {
    name: "weather",
    inputSchema: { type: "object" },
    outputSchema: {
      type: "object",
      properties: { celsius: { type: "number" } },
      required: ["celsius"],
    },
  };

  async function weatherServer(structuredContent: unknown, extra: Params = {}) {
    const { client, server } = await connected();
    server.session.setRequestHandler("tools/list", () => ({ tools: [WEATHER] }));
    server.session.setRequestHandler("tools/call", () => ({ content: [TEXT], structuredContent, ...extra }));
    return { client, server };
  }

  it("accepts structuredContent that matches the listed output schema", async () => {
    const { client } = await weatherServer({ celsius: 21 });
    await client.listTools();
    await expect(client.callTool({ name: "weather" })).resolves.toMatchObject({ structuredContent: { celsius: 21 } });
  });

  it("refuses structuredContent that does not match", async () => {
    const { client } = await weatherServer({ celsius: "warm" });
    await client.listTools();
    const failure = await client.callTool({ name: "weather" }).catch((e: unknown) => e);
    expect(failure).toMatchObject({ code: "INVALID_RESULT" });
    expect((failure as Error).message).toContain("/celsius");
  });

  it("does not check a tool it has not listed, nor an error result", async () => {
    const { client } = await weatherServer({ celsius: "warm" });
    await expect(client.callTool({ name: "weather" })).resolves.toBeDefined();
    const { client: other } = await weatherServer({ celsius: "warm" }, { isError: true });
    await other.listTools();
    await expect(other.callTool({ name: "weather" })).resolves.toMatchObject({ isError: true });
  });

  it("checks each tool against its own output schema when schemas share an $id", async () => {
    const { client, server } = await connected();
    const shaped = (name: string, type: string) => ({
      name,
      inputSchema: { type: "object" },
      outputSchema: { $id: "https://example.com/schemas/reading", type: "object", properties: { v: { type } } },
    });
    server.session.setRequestHandler("tools/list", () => ({
      tools: [shaped("celsius", "number"), shaped("label", "string")],
    }));
    server.session.setRequestHandler("tools/call", (params) => ({
      content: [TEXT],
      structuredContent: { v: params.name === "celsius" ? 21 : "warm" },
    }));
    await client.listTools();
    await expect(client.callTool({ name: "celsius" })).resolves.toMatchObject({ structuredContent: { v: 21 } });
    await expect(client.callTool({ name: "label" })).resolves.toMatchObject({ structuredContent: { v: "warm" } });
  });

  it("forgets output schemas when the tool list changes", async () => {
    const { client, server } = await weatherServer({ celsius: "warm" });
    await client.listTools();
    let changed = false;
    client.onToolListChanged = () => {
      changed = true;
    };
    await server.session.notify("notifications/tools/list_changed");
    await new Promise((r) => setImmediate(r));
    expect(changed).toBe(true);
    await expect(client.callTool({ name: "weather" })).resolves.toBeDefined();
  });
});
