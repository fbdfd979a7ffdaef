/**
 * Revision 2026-07-28 on `McpServer`: one connection serves stateless requests without any
 * handshake, beside connections that `initialize`; the behaviours a 2026 client notices.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { describe, expect, it } from "vitest";
import type { JsonRpcMessage } from "../../src/jsonrpc/messages.js";
import { JsonRpcSession, type Params } from "../../src/jsonrpc/session.js";
import { META } from "../../src/revisions/index.js";
import { McpServer } from "../../src/server/index.js";
import { createMemoryTransportPair } from "../../src/transports/memory.js";
import { connectClient, flush, until } from "./support.js";

const NO_ARGUMENTS = { type: "object", properties: {} };

const official = new Ajv2020({ strict: false, allErrors: true });
addFormatsModule.default(official);
official.addSchema(
  JSON.parse(readFileSync(join(import.meta.dirname, "../../spec/schema/2026-07-28.json"), "utf8")),
  "urn:official:2026-07-28",
);

/** How `value` fails `definition` of the official 2026-07-28 schema file; empty when it is valid. */
function officialFailures(definition: string, value: unknown): string[] {
  const validate = official.getSchema(`urn:official:2026-07-28#/$defs/${definition}`);
  if (validate === undefined) return [`no definition ${definition}`];
  return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message ?? ""}`);
}

function meta(capabilities: Params = {}, extra: Params = {}): Params {
  return {
    [META.protocolVersion]: "2026-07-28",
    [META.clientCapabilities]: capabilities,
    [META.clientInfo]: { name: "t", version: "1" },
    ...extra,
  };
}

function newServer(now = () => 1_000) {
  const server = new McpServer(
    { name: "s", version: "1" },
    { instructions: "Be nice.", requestStateSecret: new Uint8Array(32).fill(3), now },
  );
  server.registerTool("greet", { description: "Greets", inputSchema: NO_ARGUMENTS }, async (_args, ctx) => {
    await ctx.log("info", "greeting");
    const name = await ctx.elicit(
      {
        message: "Your name?",
        requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
      },
      { inputKey: "name" },
    );
    return { content: [{ type: "text", text: `Hello, ${String(name.content?.name)}` }] };
  });
  server.registerTool(
    "visit",
    { description: "Sends the user to a page", inputSchema: NO_ARGUMENTS },
    async (_a, ctx) => {
      const answer = await ctx.elicit({
        mode: "url",
        url: "https://example.com/page",
        message: "Please visit the page.",
      });
      return { content: [{ type: "text", text: answer.action }] };
    },
  );
  server.registerTool("ask_model", { description: "Samples", inputSchema: NO_ARGUMENTS }, async (_args, ctx) => {
    await ctx.sample({ messages: [], maxTokens: 5 });
    return { content: [] };
  });
  return server;
}

async function statelessClient(server: McpServer) {
  const [clientEnd, serverEnd] = createMemoryTransportPair();
  const received: JsonRpcMessage[] = [];
  await server.connect(serverEnd);
  const client = new JsonRpcSession();
  await client.connect(clientEnd);
  const onmessage = clientEnd.onmessage;
  clientEnd.onmessage = (message, extra) => {
    received.push(...(Array.isArray(message) ? message : [message]));
    onmessage?.(message, extra);
  };
  return { client, received };
}

describe("McpServer, revision 2026-07-28", () => {
  it("answers server/discover without initialize, with its versions, capabilities, identity and instructions", async () => {
    const { client } = await statelessClient(newServer());
    const result = await client.request("server/discover", { _meta: meta() });
    expect(result.supportedVersions).toEqual(expect.arrayContaining(["2026-07-28", "2025-11-25"]));
    expect(result.capabilities).toMatchObject({ tools: { listChanged: true } });
    expect(result.instructions).toBe("Be nice.");
    expect(result.resultType).toBe("complete");
    expect((result._meta as Params)[META.serverInfo]).toEqual({ name: "s", version: "1" });
    // Cacheable (spec 2026-07-28: server/utilities/caching); the identity lives only in `_meta`.
    expect(result).toMatchObject({ ttlMs: 0, cacheScope: "private" });
    expect(result).not.toHaveProperty("serverInfo");
    expect(officialFailures("DiscoverResult", result)).toEqual([]);
  });

  it("serves a 2025 client that initializes and a 2026 client on the same server", async () => {
    const server = newServer();
    const old = await connectClient(server);
    const modern = await statelessClient(server);
    const listed = await modern.client.request("tools/list", { _meta: meta() });
    expect(listed).toMatchObject({ resultType: "complete", ttlMs: 0, cacheScope: "private" });
    const oldList = await old.client.request("tools/list", {});
    expect(oldList.resultType).toBeUndefined();
    await expect(modern.client.request("ping", { _meta: meta() })).rejects.toMatchObject({ code: -32601 });
  });

  it("asks through an InputRequiredResult and completes on the retry", async () => {
    const { client } = await statelessClient(newServer());
    const first = await client.request("tools/call", {
      name: "greet",
      arguments: {},
      _meta: meta({ elicitation: {} }),
    });
    expect(first.resultType).toBe("input_required");
    expect(first.inputRequests).toEqual({
      name: { method: "elicitation/create", params: expect.objectContaining({ message: "Your name?" }) },
    });
    const done = await client.request("tools/call", {
      name: "greet",
      arguments: {},
      inputResponses: { name: { action: "accept", content: { name: "Ada" } } },
      requestState: first.requestState,
      _meta: meta({ elicitation: {} }),
    });
    expect(done.content).toEqual([{ type: "text", text: "Hello, Ada" }]);
  });

  it("hands the handler no content with a declined or cancelled answer in inputResponses", async () => {
    const server = newServer();
    const seen: unknown[] = [];
    server.registerTool("who", { description: "Asks a name", inputSchema: NO_ARGUMENTS }, async (_args, ctx) => {
      const answer = await ctx.elicit(
        {
          message: "Your name?",
          requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
        },
        { inputKey: "name" },
      );
      seen.push(answer);
      return {
        content: [
          { type: "text", text: answer.action === "accept" ? `Hello, ${answer.content?.name}` : "Hello, stranger" },
        ],
      };
    });
    const { client } = await statelessClient(server);
    const call = { name: "who", arguments: {}, _meta: meta({ elicitation: {} }) };
    const first = await client.request("tools/call", call);
    for (const action of ["decline", "cancel", "accept"]) {
      const done = await client.request("tools/call", {
        ...call,
        inputResponses: { name: { action, content: { name: "Mallory" } } },
        requestState: first.requestState,
      });
      expect(done.content).toEqual([
        { type: "text", text: action === "accept" ? "Hello, Mallory" : "Hello, stranger" },
      ]);
    }
    expect(seen).toEqual([
      { action: "decline" },
      { action: "cancel" },
      { action: "accept", content: { name: "Mallory" } },
    ]);
  });

  it("asks a URL-mode elicitation without elicitationId, which this revision lacks", async () => {
    const { client } = await statelessClient(newServer());
    const first = await client.request("tools/call", {
      name: "visit",
      arguments: {},
      _meta: meta({ elicitation: { url: {} } }),
    });
    expect(first.inputRequests).toEqual({
      "elicitation-1": {
        method: "elicitation/create",
        params: { mode: "url", url: "https://example.com/page", message: "Please visit the page." },
      },
    });
  });

  it("refuses a tampered, expired or foreign requestState with -32602", async () => {
    let now = 1_000;
    const { client } = await statelessClient(newServer(() => now));
    const call = (params: Params) =>
      client.request("tools/call", { name: "greet", arguments: {}, _meta: meta({ elicitation: {} }), ...params });
    const first = await call({});
    const state = String(first.requestState);
    const tampered = `${state.slice(0, 5)}${state[5] === "x" ? "y" : "x"}${state.slice(6)}`;
    await expect(call({ requestState: tampered })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("altered"),
    });
    await expect(
      client.request("tools/call", { name: "greet", arguments: { other: 1 }, requestState: state, _meta: meta() }),
    ).rejects.toMatchObject({ code: -32602, message: expect.stringContaining("another request") });
    now += 600_000;
    await expect(call({ requestState: state })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("expired"),
    });
  });

  it("answers -32021 naming the capability a handler needs and the request did not declare", async () => {
    const { client } = await statelessClient(newServer());
    await expect(
      client.request("tools/call", { name: "ask_model", arguments: {}, _meta: meta() }),
    ).rejects.toMatchObject({ code: -32021, data: { requiredCapabilities: { sampling: {} } } });
  });

  it("sends log messages only at or above the request's own logLevel", async () => {
    const { client, received } = await statelessClient(newServer());
    const logs = () => received.filter((m) => "method" in m && m.method === "notifications/message");
    await client.request("tools/call", { name: "greet", arguments: {}, _meta: meta({ elicitation: {} }) });
    await flush();
    expect(logs()).toEqual([]);
    await client.request("tools/call", {
      name: "greet",
      arguments: {},
      _meta: meta({ elicitation: {} }, { [META.logLevel]: "info" }),
    });
    await until(() => (logs().length === 1 ? true : undefined));
  });

  it("acknowledges subscriptions/listen first, then tags the list changes it opted in to", async () => {
    const server = newServer();
    const { client, received } = await statelessClient(server);
    const controller = new AbortController();
    const listen = client
      .request(
        "subscriptions/listen",
        { notifications: { toolsListChanged: true, promptsListChanged: true }, _meta: meta() },
        { signal: controller.signal },
      )
      .catch(() => undefined);
    const notes = () => received.filter((m): m is JsonRpcMessage & { method: string; params: Params } => "method" in m);
    await until(() => (notes().length > 0 ? true : undefined));
    expect(notes()[0]?.method).toBe("notifications/subscriptions/acknowledged");
    // The server has no prompts, so it agrees to tools only.
    expect(notes()[0]?.params.notifications).toEqual({ toolsListChanged: true });
    server.registerTool("late", { description: "Added later", inputSchema: NO_ARGUMENTS }, () => ({ content: [] }));
    const change = await until(() => notes().find((m) => m.method === "notifications/tools/list_changed"));
    expect((change.params._meta as Params)[META.subscriptionId]).toBe(0);
    controller.abort();
    await listen;
  });

  it("tags resources/updated for the URIs a listen subscribed to, and only those", async () => {
    const server = newServer();
    server.registerResource("readme", "docs://readme", { mimeType: "text/plain" }, (uri) => ({
      contents: [{ uri, text: "hi" }],
    }));
    const { client, received } = await statelessClient(server);
    const controller = new AbortController();
    const listen = client
      .request(
        "subscriptions/listen",
        { notifications: { resourceSubscriptions: ["docs://readme"] }, _meta: meta() },
        { signal: controller.signal },
      )
      .catch(() => undefined);
    const updates = () =>
      received.filter(
        (m): m is JsonRpcMessage & { params: Params } =>
          "method" in m && m.method === "notifications/resources/updated",
      );
    await until(() => (received.length > 0 ? true : undefined));
    await server.notifyResourceUpdated("docs://other");
    await server.notifyResourceUpdated("docs://readme");
    const update = await until(() => updates()[0]);
    expect(update.params).toEqual({ uri: "docs://readme", _meta: { [META.subscriptionId]: 0 } });
    await flush();
    expect(updates()).toHaveLength(1);
    controller.abort();
    await listen;
  });
});
