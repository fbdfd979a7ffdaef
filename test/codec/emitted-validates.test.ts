/**
 * What our server and client put on the wire is valid for the revision they negotiated. For each
 * stateful revision, a real `McpClient` pinned to it talks to a real `McpServer` over an in-memory
 * pair: the handshake, tools (title, icons, output schema, structured content, progress, logs),
 * resources and templates, subscriptions, prompts, completion, logging, sampling, roots, list
 * changes, cancellation, an error answer and, where the revision has it, elicitation. Every
 * message either side sent is then checked against that revision's official JSON Schema.
 */
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { McpClient, ProtocolError } from "../../src/client/index.js";
import type { StatefulVersion } from "../../src/revisions/index.js";
import { McpServer, ResourceTemplate } from "../../src/server/index.js";
import { createMemoryTransportPair } from "../../src/transports/memory.js";
import { recordSends, type Sent, schemaFailures } from "./wire-schema.js";

interface Revision {
  version: StatefulVersion;
  /** Elicitation modes the revision defines; the conversation elicits only in these. */
  modes: readonly ("form" | "url")[];
}

const REVISIONS: readonly Revision[] = [
  { version: "2024-11-05", modes: [] },
  { version: "2025-03-26", modes: [] },
  { version: "2025-06-18", modes: ["form"] },
  { version: "2025-11-25", modes: ["form", "url"] },
];

const ICONS = [{ src: "https://example.com/icon.png", mimeType: "image/png", sizes: ["48x48"] }];
const PIXEL = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";

function until<T>(register: (resolve: (value: T) => void) => void): Promise<T> {
  return new Promise(register);
}

/** A server that uses everything the neutral model can say, newest fields included. */
function buildServer(): { server: McpServer; slowStarted: Promise<AbortSignal> } {
  const server = new McpServer(
    { name: "validating-server", version: "1.0.0", title: "Validating Server", icons: ICONS },
    { instructions: "Use weather for forecasts." },
  );
  server.registerTool(
    "weather",
    {
      title: "Weather",
      description: "Current weather of a city",
      icons: ICONS,
      inputSchema: { city: z.string().describe("City name") },
      outputSchema: { temperature: z.number(), conditions: z.string() },
      annotations: { title: "Weather", readOnlyHint: true, openWorldHint: true },
    },
    async ({ city }, ctx) => {
      await ctx.progress(1, 2, "Looking up");
      await ctx.log("info", { city }, "weather");
      await ctx.progress(2, 2);
      return {
        content: [
          { type: "text", text: `Sunny in ${city}` },
          { type: "image", data: PIXEL, mimeType: "image/png" },
          { type: "resource_link", uri: "docs://readme", name: "readme", mimeType: "text/markdown" },
        ],
        structuredContent: { temperature: 21.5, conditions: "sunny" },
      };
    },
  );
  server.registerTool("ask", { inputSchema: { mode: z.enum(["form", "url"]) } }, async ({ mode }, ctx) => {
    if (mode === "url") {
      const answer = await ctx.elicit({ mode: "url", url: "https://example.com/connect", message: "Sign in." });
      await ctx.session.notifyElicitationComplete(answer.elicitationId);
      return { content: [{ type: "text", text: answer.action }] };
    }
    const answer = await ctx.elicit({
      message: "Your details?",
      requestedSchema: {
        type: "object",
        properties: {
          name: { type: "string", title: "Name", minLength: 1 },
          age: { type: "integer", minimum: 0 },
          subscribe: { type: "boolean", default: false },
          color: { type: "string", enum: ["red", "green"] },
        },
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
      systemPrompt: "Be brief.",
    });
    const first = Array.isArray(reply.content) ? reply.content[0] : reply.content;
    const text = first?.type === "text" ? first.text : "";
    return { content: [{ type: "text", text: `${roots.roots.length} ${text}` }] };
  });
  let enter: (signal: AbortSignal) => void = () => {};
  const slowStarted = new Promise<AbortSignal>((resolve) => {
    enter = resolve;
  });
  server.registerTool("slow", {}, async (_args, ctx) => {
    enter(ctx.signal);
    await new Promise((resolve) => ctx.signal.addEventListener("abort", resolve, { once: true }));
    return { content: [] };
  });

  const meta = { title: "Read me", description: "Start here", mimeType: "text/markdown", icons: ICONS };
  server.registerResource(
    "readme",
    "docs://readme",
    { ...meta, annotations: { audience: ["user"], priority: 0.5 } },
    (uri) => ({
      contents: [{ uri, mimeType: "text/markdown", text: "# Hello" }],
    }),
  );
  server.registerResource("logo", "images://logo", { mimeType: "image/png" }, (uri) => ({
    contents: [{ uri, mimeType: "image/png", blob: PIXEL }],
  }));
  const users = new ResourceTemplate("users://{id}/profile", {
    list: () => [{ uri: "users://ada/profile", name: "ada" }],
    complete: { id: (value) => ["ada", "alan"].filter((id) => id.startsWith(value)) },
  });
  server.registerResource("user", users, { title: "User profile", mimeType: "application/json" }, (uri, vars) => ({
    contents: [{ uri, mimeType: "application/json", text: JSON.stringify({ id: vars.id }) }],
  }));
  server.registerPrompt(
    "review",
    {
      title: "Code review",
      description: "Reviews code",
      icons: ICONS,
      argsSchema: { language: z.string().describe("Language"), code: z.string() },
      complete: { language: (value) => ["python", "typescript"].filter((l) => l.startsWith(value)) },
    },
    ({ language, code }) => ({
      description: `Review of ${language}`,
      messages: [
        { role: "user", content: { type: "text", text: `Review this ${language}: ${code}` } },
        {
          role: "assistant",
          content: { type: "resource", resource: { uri: "docs://readme", mimeType: "text/markdown", text: "# Hello" } },
        },
      ],
    }),
  );
  return { server, slowStarted };
}

async function converse({ version, modes }: Revision): Promise<Sent[]> {
  const log: Sent[] = [];
  const [clientEnd, serverEnd] = createMemoryTransportPair();
  recordSends(clientEnd, "client", log);
  recordSends(serverEnd, "server", log);
  const { server, slowStarted } = buildServer();
  await server.connect(serverEnd);

  const client = new McpClient({ name: "validating-client", version: "1.0.0" }, { protocolVersion: version });
  client.setSamplingHandler(() => ({ role: "assistant", content: { type: "text", text: "hi" }, model: "test-model" }));
  client.setRootsHandler(() => ({ roots: [{ uri: "file:///work", name: "work" }] }));
  if (modes.length > 0) {
    client.setElicitationHandler(
      (params) =>
        params.mode === "url"
          ? { action: "accept" }
          : { action: "accept", content: { name: "Ada", age: 36, color: "green" } },
      { modes },
    );
  }
  const logs: unknown[] = [];
  client.onLoggingMessage = (params) => logs.push(params);
  await client.connect(clientEnd);
  expect(client.protocolVersion).toBe(version);

  await client.ping();
  await client.setLoggingLevel({ level: "debug" });
  const tools = await client.listTools();
  expect(tools.tools.map((tool) => tool.name)).toEqual(["weather", "ask", "think", "slow"]);
  const weather = await client.callTool({ name: "weather", arguments: { city: "Paris" } }, { onprogress: () => {} });
  expect(weather.content?.[0]).toEqual({ type: "text", text: "Sunny in Paris" });
  expect(logs).toHaveLength(1);

  await client.listResources();
  await client.listResourceTemplates();
  await client.readResource({ uri: "docs://readme" });
  await client.readResource({ uri: "images://logo" });
  await client.readResource({ uri: "users://ada/profile" });
  const updated = until<string>((resolve) => {
    client.onResourceUpdated = resolve;
  });
  await client.subscribeResource({ uri: "docs://readme" });
  await server.notifyResourceUpdated("docs://readme");
  expect(await updated).toBe("docs://readme");
  await client.unsubscribeResource({ uri: "docs://readme" });
  await expect(client.readResource({ uri: "docs://missing" })).rejects.toBeInstanceOf(ProtocolError);

  await client.listPrompts();
  await client.getPrompt({ name: "review", arguments: { language: "typescript", code: "let x = 1" } });
  const languages = await client.complete({
    ref: { type: "ref/prompt", name: "review" },
    argument: { name: "language", value: "ty" },
  });
  expect(languages.completion.values).toEqual(["typescript"]);
  await client.complete({
    ref: { type: "ref/resource", uri: "users://{id}/profile" },
    argument: { name: "id", value: "a" },
    context: { arguments: {} },
  });

  const thought = await client.callTool({ name: "think", arguments: {} });
  expect(thought.content).toEqual([{ type: "text", text: "1 hi" }]);
  await client.setRoots([{ uri: "file:///other", name: "other" }]);

  if (modes.includes("form")) {
    const form = await client.callTool({ name: "ask", arguments: { mode: "form" } });
    expect(form.content).toEqual([{ type: "text", text: '{"name":"Ada","age":36,"color":"green","subscribe":false}' }]);
  }
  if (modes.includes("url")) {
    const completed = until<string>((resolve) => {
      client.onElicitationComplete = resolve;
    });
    await client.callTool({ name: "ask", arguments: { mode: "url" } });
    await completed;
  }

  const listChanged = until<void>((resolve) => {
    client.onToolListChanged = resolve;
  });
  server.registerTool("late", { description: "Added after connecting" }, () => ({ content: [] }));
  await listChanged;

  const cancel = new AbortController();
  const slow = client.callTool({ name: "slow", arguments: {} }, { signal: cancel.signal });
  const signal = await slowStarted;
  cancel.abort();
  await expect(slow).rejects.toThrow();
  // The server learns of the cancellation too: the tool's signal aborts.
  if (!signal.aborted) await new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));

  await client.close();
  await server.close();
  return log;
}

describe("every message on the wire validates against the negotiated revision's official schema", () => {
  for (const revision of REVISIONS) {
    it(revision.version, async () => {
      const log = await converse(revision);
      const methods = new Set(log.flatMap(({ message }) => ("method" in message ? [message.method] : [])));
      for (const method of ["notifications/progress", "notifications/message", "notifications/cancelled"]) {
        expect(methods).toContain(method);
      }
      if (revision.modes.length > 0) expect(methods).toContain("elicitation/create");
      expect(log.some(({ message }) => "error" in message)).toBe(true);
      expect(schemaFailures(revision.version, log)).toEqual([]);
    });
  }
});

describe("the schema check itself", () => {
  it("names the path of a message that does not validate", () => {
    const log: Sent[] = [
      { side: "client", message: { jsonrpc: "2.0", id: 1, method: "tools/list" } },
      { side: "server", message: { jsonrpc: "2.0", id: 1, result: { tools: [{ name: "no-input-schema" }] } } },
      { side: "server", message: { jsonrpc: "2.0", method: "notifications/unheard-of" } },
    ];
    expect(schemaFailures("2025-11-25", log)).toEqual([
      "server answer to tools/list #1: ListToolsResult /tools/0 must have required property 'inputSchema'",
      "server notifications/unheard-of #2: no definition in 2025-11-25",
    ]);
  });
});
