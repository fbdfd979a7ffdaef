/**
 * Change notifications as a user of McpClient sees them, in both eras: on 2026-07-28 the client
 * opens `subscriptions/listen` itself (over Streamable HTTP and over an in-memory connection), on
 * 2025-11-25 it uses `resources/subscribe`; either way the same hooks fire for the same changes.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { McpClient } from "../../src/client/index.js";
import type { JsonRpcMessage } from "../../src/jsonrpc/messages.js";
import type { Transport } from "../../src/jsonrpc/transport.js";
import { LATEST_VERSION } from "../../src/revisions/index.js";
import { McpServer } from "../../src/server/index.js";
import { StreamableHttpClientTransport, StreamableHttpServer, toNodeHandler } from "../../src/transports/http/index.js";
import { createMemoryTransportPair } from "../../src/transports/memory.js";

const URI = "file:///notes.txt";

function buildServer(): McpServer {
  const server = new McpServer({ name: "notes", version: "1.0.0" });
  server.registerResource("notes", URI, {}, (uri) => ({ contents: [{ uri: uri.toString(), text: "hi" }] }));
  server.registerTool("first", { description: "First" }, () => ({ content: [] }));
  return server;
}

/** Hooks that count what fired, and a way to wait for the next firing of each. */
function watch(client: McpClient) {
  const updates: string[] = [];
  let toolChanges = 0;
  const waiters = { update: [] as Array<() => void>, tools: [] as Array<() => void> };
  client.onResourceUpdated = (uri) => {
    updates.push(uri);
    for (const resolve of waiters.update.splice(0)) resolve();
  };
  client.onToolListChanged = () => {
    toolChanges++;
    for (const resolve of waiters.tools.splice(0)) resolve();
  };
  return {
    updates,
    toolChanges: () => toolChanges,
    nextUpdate: () => new Promise<void>((resolve) => waiters.update.push(resolve)),
    nextToolChange: () => new Promise<void>((resolve) => waiters.tools.push(resolve)),
  };
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map((server) => {
      const closed = new Promise((resolve) => server.close(resolve));
      // Idle keep-alive connections of the client's pool would hold the close for seconds.
      server.closeAllConnections();
      return closed;
    }),
  );
});

async function overHttp(server: McpServer): Promise<Transport> {
  const http = new StreamableHttpServer({
    onsession: (transport) => void server.connect(transport),
    onrequest: (transport) => server.connect(transport),
  });
  const node = createServer(toNodeHandler(http));
  servers.push(node);
  await new Promise<void>((resolve) => node.listen(0, "127.0.0.1", resolve));
  const { port } = node.address() as AddressInfo;
  return new StreamableHttpClientTransport(new URL(`http://127.0.0.1:${port}/mcp`));
}

async function overMemory(server: McpServer, sent: JsonRpcMessage[]): Promise<Transport> {
  const [clientEnd, serverEnd] = createMemoryTransportPair();
  const send = clientEnd.send.bind(clientEnd);
  clientEnd.send = (message, options) => {
    sent.push(structuredClone(message));
    return send(message, options);
  };
  await server.connect(serverEnd);
  return clientEnd;
}

async function exercise(transport: Transport, server: McpServer, options: { protocolVersion?: string } = {}) {
  const client = new McpClient({ name: "reader", version: "1.0.0" }, options);
  const errors: Error[] = [];
  client.onerror = (error) => errors.push(error);
  const seen = watch(client);
  await client.connect(transport);

  await client.subscribeResource({ uri: URI });
  const updated = seen.nextUpdate();
  await server.notifyResourceUpdated(URI);
  await updated;
  expect(seen.updates).toEqual([URI]);

  const toolsChanged = seen.nextToolChange();
  server.registerTool("second", { description: "Second" }, () => ({ content: [] }));
  await toolsChanged;
  expect(seen.toolChanges()).toBe(1);
  // The update was delivered once, not once per open stream.
  expect(seen.updates).toEqual([URI]);

  await client.unsubscribeResource({ uri: URI });
  await server.notifyResourceUpdated(URI);
  // A tool change after the update arrives after it would have: the update never comes.
  const changedAgain = seen.nextToolChange();
  server.registerTool("third", { description: "Third" }, () => ({ content: [] }));
  await changedAgain;
  expect(seen.updates).toEqual([URI]);
  expect(seen.toolChanges()).toBe(2);

  await client.close();
  expect(errors).toEqual([]);
  return client;
}

describe("McpClient change notifications", () => {
  it("on 2026-07-28 over Streamable HTTP: one listen stream, re-opened on (un)subscribe", async () => {
    const server = buildServer();
    const client = await exercise(await overHttp(server), server);
    expect(client.isStateless).toBe(true);
  });

  it("on 2026-07-28 over an in-memory connection: a listen request, cancelled when replaced or closed", async () => {
    const server = buildServer();
    const sent: JsonRpcMessage[] = [];
    const client = await exercise(await overMemory(server, sent), server);
    expect(client.isStateless).toBe(true);
    const methods = sent.filter((m) => "method" in m).map((m) => (m as { method: string }).method);
    expect(methods).not.toContain("resources/subscribe");
    const listens = sent.filter((m) => "method" in m && m.method === "subscriptions/listen");
    expect(listens.map((m) => (m as unknown as { params: { notifications: unknown } }).params.notifications)).toEqual([
      { toolsListChanged: true },
      { toolsListChanged: true, resourceSubscriptions: [URI] },
      { toolsListChanged: true },
    ]);
    // Each replaced listen, and the last one on close, is cancelled by its id.
    const cancelled = sent
      .filter((m) => "method" in m && m.method === "notifications/cancelled")
      .map((m) => (m as unknown as { params: { requestId: unknown } }).params.requestId);
    expect(cancelled).toEqual(listens.map((m) => (m as { id: unknown }).id));
  });

  it("on 2025-11-25 keeps resources/subscribe and the session's own notifications", async () => {
    const server = buildServer();
    const sent: JsonRpcMessage[] = [];
    const client = await exercise(await overMemory(server, sent), server, { protocolVersion: LATEST_VERSION });
    expect(client.isStateless).toBe(false);
    const methods = sent.filter((m) => "method" in m).map((m) => (m as { method: string }).method);
    expect(methods).toContain("resources/subscribe");
    expect(methods).toContain("resources/unsubscribe");
    expect(methods).not.toContain("subscriptions/listen");
  });
});

/** A 2026-07-28 client on an in-memory connection whose traffic the test can see and steer. */
async function steered(server: McpServer) {
  const [clientEnd, serverEnd] = createMemoryTransportPair();
  const sent: JsonRpcMessage[] = [];
  const listenSent: Array<() => void> = [];
  const send = clientEnd.send.bind(clientEnd);
  clientEnd.send = (message, options) => {
    sent.push(structuredClone(message));
    if ("method" in message && message.method === "subscriptions/listen") {
      for (const resolve of listenSent.splice(0)) resolve();
    }
    return send(message, options);
  };
  // While `holdAcks` is set, the server's acknowledgements of listens never reach the client.
  const steer = { holdAcks: false };
  const serverSend = serverEnd.send.bind(serverEnd);
  serverEnd.send = (message, options) => {
    if (steer.holdAcks && "method" in message && message.method === "notifications/subscriptions/acknowledged") {
      return Promise.resolve();
    }
    return serverSend(message, options);
  };
  await server.connect(serverEnd);
  const client = new McpClient({ name: "reader", version: "1.0.0" }, { listenRetryDelayMs: 5 });
  const errors: Error[] = [];
  client.onerror = (error) => errors.push(error);
  const seen = watch(client);
  await client.connect(clientEnd);
  const listens = () =>
    sent.filter((m) => "method" in m && m.method === "subscriptions/listen") as unknown as Array<{
      id: number;
      params: { notifications: Record<string, unknown> };
    }>;
  /** Delivers `message` to the client as if the server had sent it. */
  const deliver = (message: JsonRpcMessage) => clientEnd.onmessage?.(message);
  const nextListen = () => new Promise<void>((resolve) => listenSent.push(resolve));
  return { client, errors, seen, listens, deliver, nextListen, steer };
}

describe("McpClient subscriptions/listen on 2026-07-28 when things go wrong", () => {
  it("re-opens a listen lost to a dropped connection, and hears updates once on the new one", async () => {
    const server = buildServer();
    const { client, errors, seen, listens, deliver, nextListen } = await steered(server);
    await client.subscribeResource({ uri: URI });
    const lost = listens().at(-1);
    if (lost === undefined) throw new Error("no listen was sent");

    // What the Streamable HTTP client transport delivers when the listen's stream drops.
    const reopened = nextListen();
    deliver({ jsonrpc: "2.0", id: lost.id, error: { code: -32000, message: "The connection closed" } });
    await reopened;
    expect(errors.map((e) => e.message)).toEqual(["The connection closed"]);
    const again = listens().at(-1);
    expect(again?.id).not.toBe(lost.id);
    expect(again?.params.notifications).toEqual({ toolsListChanged: true, resourceSubscriptions: [URI] });

    // The server still has the old listen open too: its copy of the update is dropped by id.
    await client.listTools();
    const updated = seen.nextUpdate();
    await server.notifyResourceUpdated(URI);
    await updated;
    const toolsChanged = seen.nextToolChange();
    server.registerTool("second", { description: "Second" }, () => ({ content: [] }));
    await toolsChanged;
    expect(seen.updates).toEqual([URI]);
    await client.close();
  });

  it("leaves a listen the server ended with a result closed", async () => {
    const server = buildServer();
    const { client, errors, listens, deliver } = await steered(server);
    await client.subscribeResource({ uri: URI });
    const ended = listens().at(-1);
    if (ended === undefined) throw new Error("no listen was sent");
    const count = listens().length;
    deliver({
      jsonrpc: "2.0",
      id: ended.id,
      result: { resultType: "complete", _meta: { "io.modelcontextprotocol/subscriptionId": ended.id } },
    });
    await client.listTools();
    // Far longer than the 5 ms retry delay: a re-open would have been sent by now.
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(listens()).toHaveLength(count);
    expect(errors).toEqual([]);
    await client.close();
  });

  it("bounds subscribeResource by timeoutMs and signal, and takes the URI out of the filter", async () => {
    const server = buildServer();
    const { client, listens, steer } = await steered(server);
    steer.holdAcks = true;
    await expect(client.subscribeResource({ uri: URI }, { timeoutMs: 20 })).rejects.toMatchObject({
      code: "REQUEST_TIMEOUT",
    });
    const controller = new AbortController();
    const aborted = client.subscribeResource({ uri: URI }, { signal: controller.signal });
    controller.abort();
    await expect(aborted).rejects.toMatchObject({ code: "REQUEST_CANCELLED" });

    steer.holdAcks = false;
    // The next listen is acknowledged and carries no URI of the abandoned subscriptions.
    await client.listenForChanges();
    expect(listens().at(-1)?.params.notifications).toEqual({ toolsListChanged: true });
    await client.close();
  });
});
