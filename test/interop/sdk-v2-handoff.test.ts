/**
 * A hand-off on revision 2026-07-28 with a client built on the official SDK v2
 * (`@modelcontextprotocol/client`), as agents built on it behave: its default auto-fulfilment of
 * `InputRequiredResult` and a URL handler that answers `accept` as soon as the user consents,
 * then retries at once. Our server holds that retry until the user finishes the page, so the call
 * completes with the page shown once (before, the client saw the page again and again and gave
 * up with INPUT_REQUIRED_ROUNDS_EXCEEDED). The user finishes through the interaction manager, as
 * the connect page does, once the held retry has been seen.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterEach, describe, expect, it } from "vitest";
import { InteractionManager } from "../../src/interaction/server/index.js";
import { InteractionRequired, McpServer } from "../../src/server/index.js";
import { InProcessMessageBus, MemoryInteractionStore } from "../../src/stores/index.js";
import { StreamableHttpServer, toNodeHandler } from "../../src/transports/http/index.js";

const USER = { issuer: "local", subject: "alice" };
const PAGE = "https://mcp.example.com/connect/github";
const MESSAGE = "Connect your GitHub account so the server can list your repositories.";

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Our server on 127.0.0.1 over Streamable HTTP, with `repos` (InteractionRequired) and `connect` (ctx.interact). */
async function startServer() {
  const manager = new InteractionManager({
    store: new MemoryInteractionStore(),
    bus: new InProcessMessageBus(),
    unsafeLocalUser: USER,
  });
  const created: string[] = [];
  const create = manager.create.bind(manager);
  manager.create = async (input) => {
    const interaction = await create(input);
    created.push(interaction.id);
    return interaction;
  };
  const held: string[] = [];
  let heldNow: (id: string) => void = () => {};
  /** Resolves with the interaction's id once a retry is held, waiting for it to complete. */
  const firstHold = new Promise<string>((resolve) => {
    heldNow = resolve;
  });
  const waitForCompletion = manager.waitForCompletion.bind(manager);
  manager.waitForCompletion = (id, signal) => {
    held.push(id);
    heldNow(id);
    return waitForCompletion(id, signal);
  };
  let linked = false;
  const mcp = new McpServer({ name: "handoff-interop", version: "1.0.0" }, { interactions: manager });
  mcp.registerTool("repos", { description: "Lists GitHub repositories" }, () => {
    if (!linked) throw new InteractionRequired({ url: PAGE, message: MESSAGE });
    return { content: [{ type: "text", text: "octo/hello-world" }] };
  });
  mcp.registerTool("connect", { description: "Links a GitHub account" }, async (_args, ctx) => {
    const outcome = await ctx.interact({ url: PAGE, message: MESSAGE });
    if (outcome.action !== "accept") return { content: [{ type: "text", text: `The user chose ${outcome.action}.` }] };
    const done = await ctx.waitForInteraction(outcome.interaction.id);
    return { content: [{ type: "text", text: `GitHub is ${done.status === "completed" ? "linked" : done.status}.` }] };
  });
  const endpoint = new StreamableHttpServer({
    onsession: (transport) => void mcp.connect(transport),
    onrequest: (transport) => mcp.connect(transport),
  });
  const handle = toNodeHandler(endpoint);
  const http: Server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  cleanups.push(async () => {
    await endpoint.close();
    http.closeAllConnections();
    await new Promise<void>((resolve) => http.close(() => resolve()));
  });
  const url = new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`);
  /** The user finishes on the page: the web side completes the interaction. */
  const finish = async (id: string) => {
    linked = true;
    await manager.complete(id, { user: USER });
  };
  return { url, created, held, firstHold, finish };
}

describe("SDK v2 client, default auto-fulfilment, URL handler that accepts at once", () => {
  it.each([
    ["repos", "octo/hello-world"],
    ["connect", "GitHub is linked."],
  ])("%s: the hand-off completes when the user finishes the page; the page was shown once", async (tool, text) => {
    const server = await startServer();
    const shown: unknown[] = [];
    const client = new Client(
      { name: "v2-agent", version: "1.0.0" },
      { capabilities: { elicitation: { url: {} } }, versionNegotiation: { mode: "auto" } },
    );
    client.setRequestHandler("elicitation/create", (request) => {
      shown.push(request.params);
      // What `accept` means in URL mode: the user consented and the page is being opened.
      return { action: "accept" };
    });
    await client.connect(new StreamableHTTPClientTransport(server.url));
    cleanups.push(() => client.close());
    expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");

    const call = client.callTool({ name: tool, arguments: {} });
    // The client's retry is waiting at the server: now the user finishes on the page.
    const id = await server.firstHold;
    expect(server.created).toEqual([id]);
    await server.finish(id);
    const result = await call;
    expect(result.content).toEqual([{ type: "text", text }]);
    expect(shown).toEqual([{ mode: "url", url: PAGE, message: MESSAGE }]);
  });

  it("repos: a URL handler that declines ends the call once with the tool's error; the page was shown once", async () => {
    const server = await startServer();
    const shown: unknown[] = [];
    const client = new Client(
      { name: "v2-agent", version: "1.0.0" },
      { capabilities: { elicitation: { url: {} } }, versionNegotiation: { mode: "auto" } },
    );
    client.setRequestHandler("elicitation/create", (request) => {
      shown.push(request.params);
      return { action: "decline" };
    });
    await client.connect(new StreamableHTTPClientTransport(server.url));
    cleanups.push(() => client.close());
    const result = await client.callTool({ name: "repos", arguments: {} });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain("declined");
    expect(shown).toHaveLength(1);
    expect(server.held).toEqual([]);
  });
});
