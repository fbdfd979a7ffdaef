/**
 * A credential a handler obtained through `ctx.credentials.require` never leaves the server in
 * that request's error texts, logger entries or log notifications, even when the handler (or a
 * library it calls) quotes it: each such value becomes "[redacted]".
 */
import { describe, expect, it } from "vitest";
import { McpClient, ProtocolError } from "../../src/client/index.js";
import type { LoggingMessageParams } from "../../src/client/types.js";
import { CredentialBroker, withCredentials } from "../../src/connect/index.js";
import { InteractionManager } from "../../src/interaction/server/index.js";
import { McpServer, type ServerLogger } from "../../src/server/index.js";
import {
  INSECURE_PLAINTEXT_VAULT_FOR_TESTS,
  InProcessMessageBus,
  MemoryCredentialVault,
  MemoryInteractionStore,
} from "../../src/stores/index.js";
import { createMemoryTransportPair } from "../../src/transports/memory.js";

const USER = { issuer: "https://login.example", subject: "ada" };
const API_KEY = "fc-live-8Qe3vN1xLr7tYp0w";
const ACCESS_TOKEN = "gho_access_2f9Ck1mZq7Rb";
const REFRESH_TOKEN = "ghr_refresh_Vb6s0TqX4n";

type LogEntry = Parameters<ServerLogger>[0];

async function start(options: { pinned?: string } = {}) {
  const vault = new MemoryCredentialVault({ encryption: INSECURE_PLAINTEXT_VAULT_FOR_TESTS });
  await vault.put(USER, { provider: "forecast", secret: API_KEY, updatedAt: 0 });
  await vault.put(USER, {
    provider: "github",
    secret: ACCESS_TOKEN,
    refreshToken: REFRESH_TOKEN,
    expiresAt: Date.now() + 3_600_000,
    updatedAt: 0,
  });
  await vault.put(USER, { provider: "short", secret: "abc123", updatedAt: 0 });
  const manager = new InteractionManager({
    store: new MemoryInteractionStore(),
    bus: new InProcessMessageBus(),
    unsafeLocalUser: USER,
  });
  const broker = new CredentialBroker({
    service: manager,
    vault,
    baseUrl: "https://mcp.example",
    providers: { github: { issuer: "https://github.example", clientId: "c", clientSecret: "client-secret-x" } },
  });
  const logged: LogEntry[] = [];
  const server = new McpServer(
    { name: "forecasts", version: "1.0.0" },
    { interactions: withCredentials(manager, broker), logger: (entry) => logged.push(entry) },
  );
  server.registerTool("forecast", {}, async (_args, ctx) => {
    const credential = await ctx.credentials.require("forecast");
    throw new Error(`upstream refused key ${credential.secret}`);
  });
  server.registerTool("repos", {}, async (_args, ctx) => {
    const { secret, refreshToken } = await ctx.credentials.require("github");
    await ctx.log("warning", { note: `token ${secret} was rejected`, refresh: [refreshToken] });
    await ctx.notify("notifications/message", { level: "error", data: `raw ${secret}` });
    throw new ProtocolError(-32000, `github said no to ${secret}`, { refreshToken });
  });
  server.registerTool("progress", {}, async (_args, ctx) => {
    const credential = await ctx.credentials.require("forecast");
    await ctx.progress(1, 2, `calling with ${credential.secret}`);
    return { content: [{ type: "text", text: "done" }] };
  });
  server.registerTool("returns-error", {}, async (_args, ctx) => {
    const credential = await ctx.credentials.require("forecast");
    return { content: [{ type: "text", text: `bad key ${credential.secret}` }], isError: true };
  });
  server.registerTool("short", {}, async (_args, ctx) => {
    const credential = await ctx.credentials.require("short");
    throw new Error(`code abc123 refused for ${credential.provider}`);
  });
  server.registerTool("plain", {}, () => {
    throw new Error(`upstream refused key ${API_KEY}`);
  });
  server.registerPrompt("briefing", {}, async (_args, ctx) => {
    const credential = await ctx.credentials.require("forecast");
    throw new TypeError(`cannot parse answer for key=${credential.secret}`);
  });
  const [clientSide, serverSide] = createMemoryTransportPair();
  await server.connect(serverSide);
  const client = new McpClient({ name: "c", version: "1" }, options.pinned ? { protocolVersion: options.pinned } : {});
  const messages: LoggingMessageParams[] = [];
  client.onLoggingMessage = (params) => messages.push(params);
  await client.connect(clientSide);
  return { server, client, logged, messages };
}

const text = (result: { content: unknown[] }) => JSON.stringify(result.content);

for (const pinned of [undefined, "2025-11-25"]) {
  describe(`credentials in error texts (${pinned ?? "negotiated revision"})`, () => {
    it("a tool's thrown error reaches the client with the API key replaced", async () => {
      const { server, client } = await start({ pinned });
      const result = await client.callTool({ name: "forecast" });
      expect(result.isError).toBe(true);
      expect(result.content).toEqual([{ type: "text", text: "upstream refused key [redacted]" }]);
      await client.close();
      await server.close();
    });

    it("an error result the tool returns itself is redacted too", async () => {
      const { server, client } = await start({ pinned });
      const result = await client.callTool({ name: "returns-error" });
      expect(result.content).toEqual([{ type: "text", text: "bad key [redacted]" }]);
      await client.close();
      await server.close();
    });

    it("a ProtocolError and a log notification carry neither the access token nor the refresh token", async () => {
      const { server, client, messages } = await start({ pinned });
      await client.setLoggingLevel({ level: "debug" });
      const failure = await client.callTool({ name: "repos" }).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(ProtocolError);
      expect(failure).toMatchObject({
        code: -32000,
        message: "github said no to [redacted]",
        data: { refreshToken: "[redacted]" },
      });
      expect(messages).toEqual([
        expect.objectContaining({
          level: "warning",
          data: { note: "token [redacted] was rejected", refresh: ["[redacted]"] },
        }),
        expect.objectContaining({ level: "error", data: "raw [redacted]" }),
      ]);
      await client.close();
      await server.close();
    });

    it("a progress message is redacted", async () => {
      const { server, client } = await start({ pinned });
      const messages: (string | undefined)[] = [];
      await client.callTool({ name: "progress" }, { onprogress: (update) => messages.push(update.message) });
      expect(messages).toEqual(["calling with [redacted]"]);
      await client.close();
      await server.close();
    });

    it("what the server's logger gets about a failed request is redacted", async () => {
      const { server, client, logged } = await start({ pinned });
      await expect(client.getPrompt({ name: "briefing" })).rejects.toMatchObject({ code: -32603 });
      expect(logged).toHaveLength(1);
      const error = logged[0]?.error as Error;
      expect(error).toBeInstanceOf(TypeError);
      expect(error.message).toBe("cannot parse answer for key=[redacted]");
      expect(String(error.stack)).not.toContain(API_KEY);
      await client.close();
      await server.close();
    });

    it("leaves short values and values no credential of the request holds alone", async () => {
      const { server, client } = await start({ pinned });
      expect(text(await client.callTool({ name: "short" }))).toContain("code abc123 refused for short");
      // Redaction knows only what this request was handed; the tool quoting a constant is its own affair.
      expect(text(await client.callTool({ name: "plain" }))).toContain(API_KEY);
      await client.close();
      await server.close();
    });
  });
}
