import { describe, expect, it } from "vitest";
import * as z from "zod";
import { ErrorCode, ProtocolError } from "../../src/jsonrpc/errors.js";
import { LATEST_VERSION, SUPPORTED_VERSIONS } from "../../src/revisions/negotiate.js";
import { McpServer, ResourceTemplate } from "../../src/server/index.js";
import { connectClient, flush } from "./support.js";

const text = (t: string) => ({ content: [{ type: "text" as const, text: t }] });

describe("initialize", () => {
  it.each(SUPPORTED_VERSIONS)("echoes the supported version %s and tells the transport", async (version) => {
    const server = new McpServer({ name: "s", version: "1.0.0" });
    const { init, session, serverTransport } = await connectClient(server, { protocolVersion: version });
    expect(init?.protocolVersion).toBe(version);
    expect(session.protocolVersion).toBe(version);
    expect(serverTransport.versions).toEqual([version]);
  });

  it("answers an unknown version with the latest one", async () => {
    const server = new McpServer({ name: "s", version: "1.0.0" });
    const { init } = await connectClient(server, { protocolVersion: "1999-01-01" });
    expect(init?.protocolVersion).toBe(LATEST_VERSION);
  });

  it("answers with serverInfo, instructions and capabilities derived from what is registered", async () => {
    const server = new McpServer(
      { name: "demo", version: "2.0.0", title: "Demo", websiteUrl: "https://example.com" },
      { instructions: "Use the echo tool.", capabilities: { experimental: { handoff: {} } } },
    );
    server.registerTool("echo", { inputSchema: { text: z.string() } }, ({ text: t }) => text(t));
    server.registerResource("readme", "file:///readme", {}, (uri) => ({ contents: [{ uri, text: "hi" }] }));
    server.registerPrompt("p", { argsSchema: { a: z.string() }, complete: { a: () => ["x"] } }, () => ({
      messages: [],
    }));
    const { init, session } = await connectClient(server, {
      capabilities: { elicitation: { url: {} } },
    });
    expect(init).toEqual({
      protocolVersion: "2025-11-25",
      capabilities: {
        logging: {},
        completions: {},
        prompts: { listChanged: true },
        resources: { subscribe: true, listChanged: true },
        tools: { listChanged: true },
        experimental: { handoff: {} },
      },
      serverInfo: { name: "demo", version: "2.0.0", title: "Demo", websiteUrl: "https://example.com" },
      instructions: "Use the echo tool.",
    });
    expect(session.clientInfo).toEqual({ name: "test-client", version: "1.0.0" });
    expect(session.clientCapabilities).toEqual({ elicitation: { url: {} } });
  });

  it("announces only logging when nothing is registered, and answers -32601 for tools/list", async () => {
    const server = new McpServer({ name: "s", version: "1" });
    const { init, client } = await connectClient(server);
    expect(init?.capabilities).toEqual({ logging: {} });
    await expect(client.request("tools/list")).rejects.toMatchObject({ code: ErrorCode.MethodNotFound });
  });

  it("announces completions for a template variable completer", async () => {
    const server = new McpServer({ name: "s", version: "1" });
    const template = new ResourceTemplate("users://{id}", { complete: { id: () => ["1"] } });
    server.registerResource("user", template, {}, (uri) => ({ contents: [{ uri, text: "" }] }));
    const { init } = await connectClient(server);
    expect(init?.capabilities).toMatchObject({ completions: {}, resources: { subscribe: true } });
  });

  it("refuses requests before initialize with -32600 and keeps serving", async () => {
    const server = new McpServer({ name: "s", version: "1" });
    server.registerTool("t", {}, () => text("ok"));
    const { client } = await connectClient(server, { initialize: false });
    const refused = await client.request("tools/list").catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ProtocolError);
    expect(refused).toMatchObject({ code: ErrorCode.InvalidRequest });
    expect((refused as Error).message).toMatch(/before initialize/);
    await expect(client.request("ping")).resolves.toEqual({});
    const init = await client.request("initialize", {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "c", version: "1" },
    });
    expect(init.protocolVersion).toBe("2025-06-18");
    await client.notify("notifications/initialized");
    await expect(client.request("tools/list")).resolves.toMatchObject({ tools: [{ name: "t" }] });
  });

  it("refuses a second initialize", async () => {
    const server = new McpServer({ name: "s", version: "1" });
    const { client } = await connectClient(server);
    const again = client.request("initialize", {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "c", version: "1" },
    });
    await expect(again).rejects.toMatchObject({ code: ErrorCode.InvalidRequest });
  });

  it("answers -32602 to an initialize without clientInfo, and accepts a correct one after", async () => {
    const server = new McpServer({ name: "s", version: "1" });
    const { client } = await connectClient(server, { initialize: false });
    await expect(
      client.request("initialize", { protocolVersion: "2025-11-25", capabilities: {} }),
    ).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
    });
    await expect(
      client.request("initialize", {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "c", version: "1" },
      }),
    ).resolves.toMatchObject({ protocolVersion: "2025-11-25" });
  });

  it("serves several sessions at once and closes them all", async () => {
    const server = new McpServer({ name: "s", version: "1" });
    const a = await connectClient(server);
    const b = await connectClient(server);
    expect(server.sessions).toHaveLength(2);
    expect(a.session.id).not.toBe(b.session.id);
    await server.close();
    await flush();
    expect(server.sessions).toHaveLength(0);
    expect(a.client.isConnected).toBe(false);
    expect(b.client.isConnected).toBe(false);
  });
});
