/**
 * What our server and client put on the wire in revision 2026-07-28 is valid for its official
 * schema (spec/schema/2026-07-28.json, compiled here rather than through the codec's
 * embedded copy). A real `McpClient` negotiates 2026-07-28 with a real `McpServer` over an
 * in-memory pair and goes through discovery, tools with progress and logs, resources, templates,
 * a missing resource, prompts, completion, and the multi round-trip requests for sampling, roots
 * and both elicitation modes. Every message either side sent is checked against the definition of
 * its method or result (`InputRequiredResult` for an interim answer), and every result of the
 * server must say its `resultType`.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { McpClient, ProtocolError } from "../../src/client/index.js";
import { McpServer, ResourceTemplate } from "../../src/server/index.js";
import { createMemoryTransportPair } from "../../src/transports/memory.js";
import { recordSends, type Sent, type Side } from "./wire-schema.js";

const OFFICIAL = JSON.parse(readFileSync(join(import.meta.dirname, "../../spec/schema/2026-07-28.json"), "utf8")) as {
  $defs: Record<string, { properties?: { method?: { const?: unknown } } }>;
};
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormatsModule.default(ajv);
ajv.addSchema(OFFICIAL, "urn:official:2026-07-28");

/** The definition whose `method` is this constant: `tools/call` is `CallToolRequest`, and so on. */
function definitionOfMethod(method: string): string | undefined {
  return Object.entries(OFFICIAL.$defs).find(([, schema]) => schema.properties?.method?.const === method)?.[0];
}

/** The result definition of each method; an interim answer is an `InputRequiredResult` instead. */
const RESULTS: Readonly<Record<string, string>> = {
  "server/discover": "DiscoverResult",
  "tools/list": "ListToolsResult",
  "tools/call": "CallToolResult",
  "resources/list": "ListResourcesResult",
  "resources/templates/list": "ListResourceTemplatesResult",
  "resources/read": "ReadResourceResult",
  "prompts/list": "ListPromptsResult",
  "prompts/get": "GetPromptResult",
  "completion/complete": "CompleteResult",
};

/** Every way the recorded messages fail the official schema, one line each; empty when all validate. */
function schemaFailures(log: readonly Sent[]): string[] {
  const failures: string[] = [];
  const asked: Record<Side, Map<unknown, string>> = { client: new Map(), server: new Map() };
  const check = (label: string, definition: string | undefined, value: unknown) => {
    if (definition === undefined) {
      failures.push(`${label}: no definition in 2026-07-28`);
      return;
    }
    const validate = ajv.getSchema(`urn:official:2026-07-28#/$defs/${definition}`);
    if (validate === undefined) throw new Error(`no definition ${definition}`);
    if (validate(value)) return;
    for (const error of validate.errors ?? []) {
      failures.push(`${label}: ${definition} ${error.instancePath || "/"} ${error.message ?? ""}`.trimEnd());
    }
  };
  log.forEach(({ side, message }, index) => {
    if ("method" in message) {
      const isRequest = "id" in message;
      if (isRequest) asked[side].set(message.id, message.method);
      const label = `${side} ${message.method} #${index}`;
      check(label, isRequest ? "JSONRPCRequest" : "JSONRPCNotification", message);
      check(label, definitionOfMethod(message.method), message);
      return;
    }
    const method = asked[side === "client" ? "server" : "client"].get(message.id);
    const label = `${side} answer to ${method ?? `id ${JSON.stringify(message.id)}`} #${index}`;
    if ("error" in message) {
      check(label, "JSONRPCErrorResponse", message);
      return;
    }
    check(label, "JSONRPCResultResponse", message);
    const result = message.result as Record<string, unknown>;
    if (side === "server" && result.resultType === undefined) failures.push(`${label}: no resultType`);
    const definition = result.resultType === "input_required" ? "InputRequiredResult" : RESULTS[method ?? ""];
    check(label, definition, result);
  });
  return failures;
}

function buildServer(): McpServer {
  const server = new McpServer(
    { name: "validating-server", version: "1.0.0", title: "Validating Server" },
    { instructions: "Use weather for forecasts." },
  );
  server.registerTool(
    "weather",
    {
      title: "Weather",
      inputSchema: { city: z.string() },
      outputSchema: { temperature: z.number(), conditions: z.string() },
    },
    async ({ city }, ctx) => {
      await ctx.progress(1, 2, "Looking up");
      await ctx.log("info", { city }, "weather");
      await ctx.progress(2, 2);
      return {
        content: [{ type: "text", text: `Sunny in ${city}` }],
        structuredContent: { temperature: 21.5, conditions: "sunny" },
      };
    },
  );
  server.registerTool("ask", { inputSchema: { mode: z.enum(["form", "url"]) } }, async ({ mode }, ctx) => {
    if (mode === "url") {
      const answer = await ctx.elicit({ mode: "url", url: "https://example.com/connect", message: "Sign in." });
      return { content: [{ type: "text", text: answer.action }] };
    }
    const answer = await ctx.elicit({
      message: "Your details?",
      requestedSchema: {
        type: "object",
        properties: { name: { type: "string", minLength: 1 }, age: { type: "integer", minimum: 0 } },
        required: ["name"],
      },
    });
    return { content: [{ type: "text", text: JSON.stringify(answer.content ?? {}) }] };
  });
  server.registerTool("think", { description: "Asks the client's model and roots" }, async (_args, ctx) => {
    const roots = await ctx.listRoots();
    const reply = await ctx.sample({
      messages: [{ role: "user", content: { type: "text", text: "Say hi" } }],
      maxTokens: 20,
    });
    const first = Array.isArray(reply.content) ? reply.content[0] : reply.content;
    return { content: [{ type: "text", text: `${roots.roots.length} ${first?.type === "text" ? first.text : ""}` }] };
  });
  server.registerResource("readme", "docs://readme", { mimeType: "text/markdown" }, (uri) => ({
    contents: [{ uri, mimeType: "text/markdown", text: "# Hello" }],
  }));
  const users = new ResourceTemplate("users://{id}/profile", {
    list: () => [{ uri: "users://ada/profile", name: "ada" }],
    complete: { id: (value) => ["ada", "alan"].filter((id) => id.startsWith(value)) },
  });
  server.registerResource("user", users, { mimeType: "application/json" }, (uri, vars) => ({
    contents: [{ uri, mimeType: "application/json", text: JSON.stringify({ id: vars.id }) }],
  }));
  server.registerPrompt(
    "review",
    {
      argsSchema: { language: z.string(), code: z.string() },
      complete: { language: (value) => ["python", "typescript"].filter((l) => l.startsWith(value)) },
    },
    ({ language, code }) => ({
      messages: [{ role: "user", content: { type: "text", text: `Review this ${language}: ${code}` } }],
    }),
  );
  return server;
}

async function converse(): Promise<Sent[]> {
  const log: Sent[] = [];
  const [clientEnd, serverEnd] = createMemoryTransportPair();
  recordSends(clientEnd, "client", log);
  recordSends(serverEnd, "server", log);
  const server = buildServer();
  await server.connect(serverEnd);

  const client = new McpClient({ name: "validating-client", version: "1.0.0" });
  client.setSamplingHandler(() => ({ role: "assistant", content: { type: "text", text: "hi" }, model: "test-model" }));
  client.setRootsHandler(() => ({ roots: [{ uri: "file:///work", name: "work" }] }));
  client.setElicitationHandler(
    (params) =>
      params.mode === "url" ? { action: "accept" } : { action: "accept", content: { name: "Ada", age: 36 } },
    { modes: ["form", "url"] },
  );
  const logs: unknown[] = [];
  client.onLoggingMessage = (params) => logs.push(params);
  await client.connect(clientEnd);
  expect(client.protocolVersion).toBe("2026-07-28");

  await client.setLoggingLevel({ level: "debug" });
  await client.listTools();
  const weather = await client.callTool({ name: "weather", arguments: { city: "Paris" } }, { onprogress: () => {} });
  expect(weather.content?.[0]).toEqual({ type: "text", text: "Sunny in Paris" });
  expect(logs).toHaveLength(1);

  await client.listResources();
  await client.listResourceTemplates();
  await client.readResource({ uri: "docs://readme" });
  await client.readResource({ uri: "users://ada/profile" });
  await expect(client.readResource({ uri: "docs://missing" })).rejects.toBeInstanceOf(ProtocolError);

  await client.listPrompts();
  await client.getPrompt({ name: "review", arguments: { language: "typescript", code: "let x = 1" } });
  const languages = await client.complete({
    ref: { type: "ref/prompt", name: "review" },
    argument: { name: "language", value: "ty" },
  });
  expect(languages.completion.values).toEqual(["typescript"]);

  expect((await client.callTool({ name: "think", arguments: {} })).content).toEqual([{ type: "text", text: "1 hi" }]);
  const form = await client.callTool({ name: "ask", arguments: { mode: "form" } });
  expect(form.content).toEqual([{ type: "text", text: '{"name":"Ada","age":36}' }]);
  const url = await client.callTool({ name: "ask", arguments: { mode: "url" } });
  expect(url.content).toEqual([{ type: "text", text: "accept" }]);

  await client.close();
  await server.close();
  return log;
}

describe("every message on the wire validates against the official 2026-07-28 schema", () => {
  it("2026-07-28", async () => {
    const log = await converse();
    const methods = new Set(log.flatMap(({ message }) => ("method" in message ? [message.method] : [])));
    for (const method of ["server/discover", "notifications/progress", "notifications/message"]) {
      expect(methods).toContain(method);
    }
    const interim = log.filter(
      ({ message }) =>
        "result" in message && (message.result as { resultType?: unknown }).resultType === "input_required",
    );
    expect(interim.length).toBeGreaterThanOrEqual(3);
    expect(log.some(({ message }) => "error" in message)).toBe(true);
    expect(schemaFailures(log)).toEqual([]);
  });

  it("the check itself names a result without resultType or cache hints", () => {
    const log: Sent[] = [
      {
        side: "client",
        message: {
          jsonrpc: "2.0",
          id: 1,
          method: "tools/list",
          params: {
            _meta: {
              "io.modelcontextprotocol/protocolVersion": "2026-07-28",
              "io.modelcontextprotocol/clientCapabilities": {},
            },
          },
        },
      },
      { side: "server", message: { jsonrpc: "2.0", id: 1, result: { tools: [] } } },
    ];
    expect(schemaFailures(log)).toEqual([
      "server answer to tools/list #1: JSONRPCResultResponse /result must have required property 'resultType'",
      "server answer to tools/list #1: no resultType",
      "server answer to tools/list #1: ListToolsResult / must have required property 'cacheScope'",
      "server answer to tools/list #1: ListToolsResult / must have required property 'resultType'",
      "server answer to tools/list #1: ListToolsResult / must have required property 'ttlMs'",
    ]);
  });
});
