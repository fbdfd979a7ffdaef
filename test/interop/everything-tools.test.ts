/**
 * Our McpClient against the official everything server, over stdio and Streamable HTTP: the
 * handshake and every tool that needs neither the network nor a human at a model, with the
 * server's sampling, elicitation and roots requests answered by our client's handlers.
 */
import { gunzipSync } from "node:zlib";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { UrlElicitationRequiredError } from "../../src/client/index.js";
import {
  ALWAYS_TOOLS,
  CANNED_REPLY,
  CAPABILITY_TOOLS,
  connectEverything,
  ENV_MARKER,
  type EverythingPeer,
  ROOTS,
  startEverything,
  type TransportKind,
  texts,
} from "./everything.js";
import type { HttpServerProcess } from "./support.js";

const PNG_SIGNATURE = "89504e470d0a1a0a";

describe.each<TransportKind>(["stdio", "http"])("our client -> everything server over %s: tools", (kind) => {
  let http: HttpServerProcess | undefined;
  let peer: EverythingPeer;

  beforeAll(async () => {
    http = await startEverything(kind);
    return async () => {
      await http?.stop();
    };
  });

  afterEach(async () => {
    await peer?.close();
  });

  async function connect(): Promise<EverythingPeer> {
    peer = await connectEverything(kind, http);
    return peer;
  }

  it("initializes on 2025-11-25 with the server's identity and instructions", async () => {
    const { client } = await connect();
    expect(client.protocolVersion).toBe("2025-11-25");
    expect(client.serverInfo).toMatchObject({ name: "mcp-servers/everything", title: "Everything Reference Server" });
    expect(client.instructions).toMatch(/\S/);
    expect(client.serverCapabilities).toMatchObject({
      tools: { listChanged: true },
      prompts: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      logging: {},
    });
    await expect(client.ping()).resolves.toEqual({});
  });

  it("lists every tool, including those that depend on the capabilities we declared", async () => {
    const { client } = await connect();
    const tools = await client.listAllTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([...ALWAYS_TOOLS, ...CAPABILITY_TOOLS].sort());
    for (const tool of tools) expect(tool.inputSchema.type).toBe("object");
    expect(tools.find((tool) => tool.name === "get-structured-content")?.outputSchema).toMatchObject({
      type: "object",
      required: expect.arrayContaining(["temperature", "conditions", "humidity"]),
    });
  });

  it("calls echo and get-sum", async () => {
    const { client } = await connect();
    expect(texts(await client.callTool({ name: "echo", arguments: { message: "hi there" } }))).toEqual([
      "Echo: hi there",
    ]);
    expect(texts(await client.callTool({ name: "get-sum", arguments: { a: 2, b: 3.5 } }))).toEqual([
      "The sum of 2 and 3.5 is 5.5.",
    ]);
  });

  it("reports a tool error when the arguments do not fit the tool's schema", async () => {
    const { client } = await connect();
    const result = await client.callTool({ name: "get-sum", arguments: { a: "two", b: 3 } });
    expect(result.isError).toBe(true);
    expect(texts(result).join("\n")).toMatch(/invalid/i);
  });

  it("gets annotated text and image content", async () => {
    const { client } = await connect();
    const result = await client.callTool({
      name: "get-annotated-message",
      arguments: { messageType: "error", includeImage: true },
    });
    expect(result.content).toEqual([
      {
        type: "text",
        text: "Error: Operation failed",
        annotations: { priority: 1, audience: ["user", "assistant"] },
      },
      {
        type: "image",
        data: expect.any(String),
        mimeType: "image/png",
        annotations: { priority: 0.5, audience: ["user"] },
      },
    ]);
  });

  it("gets the tiny image as a PNG between two texts", async () => {
    const { client } = await connect();
    const result = await client.callTool({ name: "get-tiny-image", arguments: {} });
    expect(result.content?.map((block) => block.type)).toEqual(["text", "image", "text"]);
    const image = result.content?.[1];
    expect(image).toMatchObject({ type: "image", mimeType: "image/png" });
    const data = image && "data" in image ? String(image.data) : "";
    expect(Buffer.from(data, "base64").subarray(0, 8).toString("hex")).toBe(PNG_SIGNATURE);
  });

  it("gets the server's environment, which over stdio holds only what our transport passed on", async () => {
    const { client } = await connect();
    const [text] = texts(await client.callTool({ name: "get-env", arguments: {} }));
    const env = JSON.parse(text ?? "{}") as Record<string, string>;
    expect(env.PATH).toBeTypeOf("string");
    if (kind === "stdio") {
      expect(env).toMatchObject(ENV_MARKER);
      expect(env.npm_lifecycle_event).toBeUndefined();
    }
  });

  it("gets structured content that matches the listed output schema", async () => {
    const { client } = await connect();
    await client.listTools();
    const result = await client.callTool({ name: "get-structured-content", arguments: { location: "Chicago" } });
    const weather = { temperature: 36, conditions: "Light rain / drizzle", humidity: 82 };
    expect(result.structuredContent).toEqual(weather);
    expect(JSON.parse(texts(result)[0] ?? "null")).toEqual(weather);
  });

  it("gets resource links and an embedded resource reference", async () => {
    const { client } = await connect();
    const links = await client.callTool({ name: "get-resource-links", arguments: { count: 2 } });
    expect(links.content).toEqual([
      { type: "text", text: "Here are 2 resource links to resources available in this server:" },
      expect.objectContaining({
        type: "resource_link",
        uri: "demo://resource/dynamic/blob/1",
        name: "Blob Resource 1",
      }),
      expect.objectContaining({
        type: "resource_link",
        uri: "demo://resource/dynamic/text/2",
        name: "Text Resource 2",
      }),
    ]);
    const reference = await client.callTool({
      name: "get-resource-reference",
      arguments: { resourceType: "Text", resourceId: 7 },
    });
    expect(reference.content?.[1]).toMatchObject({
      type: "resource",
      resource: {
        uri: "demo://resource/dynamic/text/7",
        mimeType: "text/plain",
        text: expect.stringMatching(/^Resource 7: /),
      },
    });
  });

  it("compresses a data: URL into a resource, returned inline or as a link to read", async () => {
    const { client } = await connect();
    const original = "mcp-handoff interop ".repeat(20);
    const data = `data:text/plain;base64,${Buffer.from(original).toString("base64")}`;
    const inline = await client.callTool({
      name: "gzip-file-as-resource",
      arguments: { name: "inline.txt.gz", data, outputType: "resource" },
    });
    const embedded = inline.content?.[0];
    expect(embedded).toMatchObject({ type: "resource", resource: { mimeType: "application/gzip" } });
    const blob = embedded?.type === "resource" && "blob" in embedded.resource ? embedded.resource.blob : "";
    expect(gunzipSync(Buffer.from(blob, "base64")).toString()).toBe(original);

    const linked = await client.callTool({
      name: "gzip-file-as-resource",
      arguments: { name: "linked.txt.gz", data, outputType: "resourceLink" },
    });
    expect(linked.content).toEqual([
      expect.objectContaining({ type: "resource_link", uri: "demo://resource/session/linked.txt.gz" }),
    ]);
    const read = await client.readResource({ uri: "demo://resource/session/linked.txt.gz" });
    const contents = read.contents[0];
    expect(contents).toMatchObject({ mimeType: "application/gzip" });
    const readBlob = contents && "blob" in contents ? contents.blob : "";
    expect(gunzipSync(Buffer.from(readBlob, "base64")).toString()).toBe(original);
  });

  it("reports progress of a long-running operation", async () => {
    const { client } = await connect();
    const updates: Array<{ progress: number; total?: number }> = [];
    const result = await client.callTool(
      { name: "trigger-long-running-operation", arguments: { duration: 0.2, steps: 4 } },
      { onprogress: ({ progress, total }) => updates.push({ progress, total }) },
    );
    expect(texts(result)).toEqual(["Long running operation completed. Duration: 0.2 seconds, Steps: 4."]);
    // The last update arrives together with the result and still reaches onprogress.
    expect(updates).toEqual([1, 2, 3, 4].map((progress) => ({ progress, total: 4 })));
  });

  it("receives the server's log messages at the level it set, until it turns them off", async () => {
    const peer = await connect();
    await peer.client.setLoggingLevel({ level: "debug" });
    const started = await peer.client.callTool({ name: "toggle-simulated-logging", arguments: {} });
    expect(texts(started)[0]).toMatch(/^Started simulated, random-leveled logging/);
    // The first entry is sent at once, the next ones every 5 s.
    const entry = await peer.waitForLog((log) => /-level message|level-message/.test(String(log.data)));
    expect(["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"]).toContain(entry.level);
    const stopped = await peer.client.callTool({ name: "toggle-simulated-logging", arguments: {} });
    expect(texts(stopped)[0]).toMatch(/^Stopped simulated logging/);
  });

  it("hears about updates of a resource it subscribed to", async () => {
    const peer = await connect();
    const uri = "demo://resource/dynamic/text/1";
    await peer.client.subscribeResource({ uri });
    await peer.waitForLog((log) => String(log.data).startsWith(`Received Subscribe Resource request for URI: ${uri}`));
    const started = await peer.client.callTool({ name: "toggle-subscriber-updates", arguments: {} });
    expect(texts(started)[0]).toMatch(/^Started simulated resource updated notifications/);
    await peer.waitForUpdate(uri);
    await peer.client.callTool({ name: "toggle-subscriber-updates", arguments: {} });
    await expect(peer.client.unsubscribeResource({ uri })).resolves.toEqual({});
  });

  it("lists the roots our client declared", async () => {
    const { client } = await connect();
    const [text] = texts(await client.callTool({ name: "get-roots-list", arguments: {} }));
    expect(text).toContain("Current MCP Roots (1 total)");
    expect(text).toContain(`1. ${ROOTS[0]?.name}\n   URI: ${ROOTS[0]?.uri}`);
  });

  it("answers the server's sampling request with our handler's canned message", async () => {
    const peer = await connect();
    const result = await peer.client.callTool({
      name: "trigger-sampling-request",
      arguments: { prompt: "Say something", maxTokens: 50 },
    });
    expect(peer.samplingRequests).toEqual([
      expect.objectContaining({
        messages: [
          { role: "user", content: { type: "text", text: "Resource trigger-sampling-request context: Say something" } },
        ],
        systemPrompt: "You are a helpful test server.",
        maxTokens: 50,
      }),
    ]);
    const [text] = texts(result);
    expect(text).toMatch(/^LLM sampling result: \n/);
    expect(JSON.parse(text?.replace(/^LLM sampling result: \n/, "") ?? "null")).toEqual({
      role: "assistant",
      content: { type: "text", text: CANNED_REPLY },
      model: "interop-canned-model",
    });
  });

  it("gets a tool error from the task-only research tool, since our client does not speak tasks", async () => {
    const { client } = await connect();
    const result = await client.callTool({ name: "simulate-research-query", arguments: { topic: "python" } });
    expect(result.isError).toBe(true);
    expect(texts(result)[0]).toContain("requires task augmentation");
  });

  it("sends the user to a URL and reports the acceptance (request path)", async () => {
    const peer = await connect();
    peer.answers = () => ({ action: "accept" });
    const url = "https://example.com/verify?step=1";
    const result = await peer.client.callTool({
      name: "trigger-url-elicitation",
      arguments: { url, elicitationId: "interop-url-1", message: "Verify your account on the example page." },
    });
    expect(peer.elicitations).toEqual([
      { mode: "url", url, elicitationId: "interop-url-1", message: "Verify your account on the example page." },
    ]);
    expect(texts(result)[0]).toBe(
      `✅ User completed the URL elicitation flow.\nElicitation ID: interop-url-1\nURL: ${url}`,
    );
  });

  it("gets -32042 with a prerequisite URL, then succeeds when retried (error path)", async () => {
    const peer = await connect();
    peer.answers = () => ({ action: "accept" });
    const params = { name: "trigger-url-elicitation", arguments: { url: "https://example.com/pay", errorPath: true } };
    const error = await peer.client.callTool(params).then(
      () => expect.unreachable("the first call must fail with -32042"),
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(UrlElicitationRequiredError);
    expect((error as UrlElicitationRequiredError).elicitations).toEqual([
      expect.objectContaining({
        mode: "url",
        url: "https://modelcontextprotocol.io",
        elicitationId: expect.any(String),
      }),
    ]);
    const retried = await peer.client.callTool(params);
    expect(texts(retried)[0]).toMatch(/^✅ User completed the URL elicitation flow\./);
  });
});
