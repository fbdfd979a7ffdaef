/**
 * `toNodeHandler` (node:http objects) and `StreamableHttpServer.handle` (web objects) run the same
 * protocol rules over different request and response types: each request here goes through both,
 * to fresh servers alike, and must get the same status, headers and body.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { McpServer } from "../../src/server/index.js";
import { MemoryEventStore } from "../../src/transports/http/event-store.js";
import { toNodeHandler } from "../../src/transports/http/node.js";
import { StreamableHttpServer, type StreamableHttpServerOptions } from "../../src/transports/http/server.js";
import { BOTH, connectEcho, initializeRequest, statelessToolCall } from "./support.js";

interface Seen {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Headers that belong to the connection, not to the answer. */
const HOP = new Set(["date", "connection", "keep-alive", "transfer-encoding", "content-length"]);

/** The answer with its random parts (session ids, event-store tags) replaced by placeholders. */
async function seen(response: Response, firstChunkOnly: boolean): Promise<Seen> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (!HOP.has(name)) headers[name] = name === "mcp-session-id" ? "<session>" : value;
  });
  let body: string;
  if (firstChunkOnly) {
    const reader = response.body?.getReader();
    const chunk = await reader?.read();
    body = new TextDecoder().decode(chunk?.value);
    await reader?.cancel();
  } else {
    body = await response.text();
  }
  body = body.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "<uuid>");
  return { status: response.status, headers, body };
}

let cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(cleanup.map((stop) => stop()));
  cleanup = [];
});

/** Two servers made alike: one behind `toNodeHandler` on 127.0.0.1, one called through `handle`. */
async function sides(options: () => Partial<StreamableHttpServerOptions>) {
  const make = () => new StreamableHttpServer({ onsession: (transport) => connectEcho(transport), ...options() });
  const viaNode = make();
  const viaWeb = make();
  const http = createServer(toNodeHandler(viaNode));
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
  cleanup.push(async () => {
    await Promise.all([viaNode.close(), viaWeb.close()]);
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
  });
  return [
    (init: RequestInit) => fetch(url, init),
    (init: RequestInit) => viaWeb.handle(new Request(url, init), { localAddress: "127.0.0.1" }),
  ];
}

const JSON_HEADERS = { accept: BOTH, "content-type": "application/json" };
const echo = (id: number) => JSON.stringify({ jsonrpc: "2.0", id, method: "echo", params: {} });
const chunked = (...parts: string[]) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      for (const part of parts) controller.enqueue(new TextEncoder().encode(part));
      controller.close();
    },
  });

function statelessCall(name: string, headers: Record<string, string> = {}): RequestInit {
  const call = statelessToolCall(name);
  return { method: "POST", headers: { ...call.headers, ...headers }, body: call.body };
}

function statelessServer(): Partial<StreamableHttpServerOptions> {
  const mcp = new McpServer({ name: "s", version: "1" });
  mcp.registerTool("hi", { description: "Says hi", inputSchema: { type: "object" } }, () => ({
    content: [{ type: "text", text: "hi" }],
  }));
  return { onrequest: (transport) => mcp.connect(transport) };
}

interface Case {
  name: string;
  /** The request, given the session id an initialize got (when `session` is not false). */
  request: (sessionId: string) => RequestInit;
  options?: () => Partial<StreamableHttpServerOptions>;
  /** Initialize a session first, in this revision; false for none. */
  session?: string | false;
  /** An SSE stream that stays open: compare its first chunk only. */
  open?: boolean;
}

const cases: Case[] = [
  { name: "malformed JSON (-32700)", request: () => ({ method: "POST", headers: JSON_HEADERS, body: "{" }) },
  { name: "invalid UTF-8", request: () => ({ method: "POST", headers: JSON_HEADERS, body: new Uint8Array([0xff]) }) },
  {
    name: "wrong Content-Type (415)",
    request: () => ({ method: "POST", headers: { accept: BOTH, "content-type": "text/plain" }, body: "{}" }),
  },
  {
    // fetch sends "*/*" where no Accept is given, so an empty one stands for none here.
    name: "empty Accept (406)",
    request: () => ({ method: "POST", headers: { accept: "", "content-type": "application/json" }, body: "{}" }),
  },
  {
    name: "Accept: application/json alone (JSON)",
    request: (id) => ({
      method: "POST",
      headers: { accept: "application/json", "content-type": "application/json", "mcp-session-id": id },
      body: echo(2),
    }),
  },
  {
    name: "a refused batch in 2025-11-25 (400)",
    request: (id) => ({
      method: "POST",
      headers: { ...JSON_HEADERS, "mcp-session-id": id },
      body: `[${echo(2)},${echo(3)}]`,
    }),
    options: () => ({ onsession: (transport) => void new McpServer({ name: "s", version: "1" }).connect(transport) }),
  },
  {
    name: "declared body past the limit (413)",
    request: () => ({ method: "POST", headers: JSON_HEADERS, body: "x".repeat(2000) }),
    options: () => ({ maxBodyBytes: 1000 }),
  },
  {
    name: "chunked body past the limit (413)",
    request: () =>
      ({
        method: "POST",
        headers: JSON_HEADERS,
        body: chunked("x".repeat(600), "x".repeat(600)),
        duplex: "half",
      }) as RequestInit,
    options: () => ({ maxBodyBytes: 1000 }),
  },
  {
    name: "unknown session (404)",
    request: () => ({ method: "POST", headers: { ...JSON_HEADERS, "mcp-session-id": "gone" }, body: echo(2) }),
  },
  { name: "missing session id (400)", request: () => ({ method: "POST", headers: JSON_HEADERS, body: echo(2) }) },
  {
    name: "unsupported MCP-Protocol-Version (400)",
    request: (id) => ({
      method: "POST",
      headers: { ...JSON_HEADERS, "mcp-session-id": id, "mcp-protocol-version": "1999-01-01" },
      body: echo(2),
    }),
  },
  {
    name: "MCP-Protocol-Version other than the negotiated one (400)",
    request: (id) => ({
      method: "POST",
      headers: { ...JSON_HEADERS, "mcp-session-id": id, "mcp-protocol-version": "2025-03-26" },
      body: echo(2),
    }),
  },
  {
    name: "a request in a session (SSE)",
    request: (id) => ({ method: "POST", headers: { ...JSON_HEADERS, "mcp-session-id": id }, body: echo(2) }),
  },
  {
    name: "a request in a session (JSON)",
    request: (id) => ({ method: "POST", headers: { ...JSON_HEADERS, "mcp-session-id": id }, body: echo(2) }),
    options: () => ({ enableJsonResponse: true }),
  },
  {
    name: "a notification (202)",
    request: (id) => ({
      method: "POST",
      headers: { ...JSON_HEADERS, "mcp-session-id": id },
      body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
    }),
  },
  {
    name: "a batch in 2025-03-26",
    session: "2025-03-26",
    request: (id) => ({
      method: "POST",
      headers: { ...JSON_HEADERS, "mcp-session-id": id, "mcp-protocol-version": "2025-03-26" },
      body: `[${echo(2)},${echo(3)}]`,
    }),
  },
  { name: "DELETE (204)", request: (id) => ({ method: "DELETE", headers: { "mcp-session-id": id } }) },
  { name: "GET without a session id (400)", request: () => ({ headers: { accept: "text/event-stream" } }) },
  { name: "GET with an empty Accept (406)", request: (id) => ({ headers: { accept: "", "mcp-session-id": id } }) },
  {
    name: "GET with an event store (priming event)",
    request: (id) => ({ headers: { accept: "text/event-stream", "mcp-session-id": id } }),
    options: () => ({ eventStore: new MemoryEventStore() }),
    open: true,
  },
  {
    name: "GET with an unknown Last-Event-ID (410)",
    request: (id) => ({ headers: { accept: "text/event-stream", "mcp-session-id": id, "last-event-id": "nope" } }),
    options: () => ({ eventStore: new MemoryEventStore() }),
  },
  { name: "OPTIONS (405 with Allow)", request: () => ({ method: "OPTIONS" }) },
  { name: "PUT (405 with Allow)", request: () => ({ method: "PUT", body: "{}" }) },
  {
    name: "a foreign Origin (403)",
    session: false,
    request: () => ({ method: "POST", headers: { ...JSON_HEADERS, origin: "http://attacker.example" }, body: "{}" }),
  },
  { name: "stateless 2026 call", session: false, request: () => statelessCall("hi"), options: statelessServer },
  {
    name: "stateless 2026 header mismatch (-32020)",
    session: false,
    request: () => statelessCall("hi", { "mcp-name": "other" }),
    options: statelessServer,
  },
  {
    name: "stateless 2026 array body (-32600)",
    session: false,
    request: () => {
      const call = statelessCall("hi");
      return { ...call, body: `[${call.body}]` };
    },
    options: statelessServer,
  },
];

describe("Streamable HTTP server: node:http and handle() answer alike", () => {
  for (const { name, request, options = () => ({}), session = "2025-11-25", open = false } of cases) {
    it(name, async () => {
      const answers: Seen[] = [];
      for (const send of await sides(options)) {
        let sessionId = "";
        if (session !== false) {
          const init = await send({
            method: "POST",
            headers: JSON_HEADERS,
            body: JSON.stringify(initializeRequest(1, session)),
          });
          await init.text();
          sessionId = init.headers.get("mcp-session-id") ?? "";
        }
        answers.push(await seen(await send(request(sessionId)), open));
      }
      expect(answers[0]).toEqual(answers[1]);
    });
  }
});
