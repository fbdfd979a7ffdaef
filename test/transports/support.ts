/**
 * A real `node:http` server on 127.0.0.1 running `StreamableHttpServer` with a scripted echo
 * protocol on each session, plus small helpers to speak raw HTTP and read SSE in tests.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createParser, type EventSourceMessage } from "eventsource-parser";
import { isRequest, isResponse, type JsonRpcMessage, type JsonRpcRequest } from "../../src/jsonrpc/messages.js";
import type { MessageExtra } from "../../src/jsonrpc/transport.js";
import { toNodeHandler } from "../../src/transports/http/node.js";
import { StreamableHttpServer, type StreamableHttpServerOptions } from "../../src/transports/http/server.js";
import type { StreamableHttpSessionTransport } from "../../src/transports/http/session-transport.js";

export interface EchoServer {
  url: URL;
  server: StreamableHttpServer;
  /** Every session transport the server created, in order. */
  sessions: StreamableHttpSessionTransport[];
  /** Extras of the messages the echo protocol received. */
  extras: MessageExtra[];
  close(): Promise<void>;
}

/**
 * Methods of the echo protocol: `initialize` (negotiates the requested version), `echo`
 * (returns its params), `ask` (asks the client `sampling/createMessage` on the request's
 * stream and returns the answer), `announce` (sends `notifications/announced` on no
 * particular stream, then returns {}), `hold` (answers only when `release` is called).
 */
export function connectEcho(transport: StreamableHttpSessionTransport, extras: MessageExtra[] = []): void {
  const waiting = new Map<string | number, (message: JsonRpcMessage) => void>();
  let asked = 0;
  const reply = (request: JsonRpcRequest, result: Record<string, unknown>) =>
    transport.send({ jsonrpc: "2.0", id: request.id, result }).catch(() => {});
  const handle = async (request: JsonRpcRequest) => {
    const params = request.params ?? {};
    switch (request.method) {
      case "initialize": {
        const version = String(params.protocolVersion ?? "2025-11-25");
        transport.setProtocolVersion(version);
        return reply(request, {
          protocolVersion: version,
          capabilities: {},
          serverInfo: { name: "echo", version: "1" },
        });
      }
      case "echo":
        return reply(request, { echo: params });
      case "ask": {
        const id = `srv-${++asked}`;
        const answer = new Promise<JsonRpcMessage>((resolve) => waiting.set(id, resolve));
        await transport.send(
          { jsonrpc: "2.0", id, method: "sampling/createMessage", params: { question: params.question } },
          { relatedRequestId: request.id },
        );
        const response = await answer;
        return reply(request, { answer: "result" in response ? response.result : null });
      }
      case "announce":
        for (let i = 0; i < Number(params.count ?? 1); i++) {
          await transport.send({ jsonrpc: "2.0", method: "notifications/announced", params: { n: i } });
        }
        return reply(request, {});
      case "progress":
        await transport.send(
          { jsonrpc: "2.0", method: "notifications/progress", params: { progress: 1 } },
          { relatedRequestId: request.id },
        );
        waiting.set(`release-${String(params.key)}`, () => void reply(request, { released: true }));
        return;
      case "release":
        waiting.get(`release-${String(params.key)}`)?.({ jsonrpc: "2.0", method: "released" });
        return reply(request, {});
      default:
        return transport.send({
          jsonrpc: "2.0",
          id: request.id,
          error: { code: -32601, message: `Method not found: ${request.method}` },
        });
    }
  };
  transport.onmessage = (message, extra) => {
    if (extra) extras.push(extra);
    for (const m of Array.isArray(message) ? message : [message]) {
      if (isRequest(m)) void handle(m);
      else if (isResponse(m) && m.id !== null) waiting.get(m.id)?.(m);
    }
  };
  void transport.start();
}

export async function startEchoServer(options: Partial<StreamableHttpServerOptions> = {}): Promise<EchoServer> {
  const sessions: StreamableHttpSessionTransport[] = [];
  const extras: MessageExtra[] = [];
  const server = new StreamableHttpServer({
    onsession: (transport) => {
      sessions.push(transport);
      connectEcho(transport, extras);
    },
    ...options,
  });
  const http: Server = createServer(toNodeHandler(server));
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    server,
    sessions,
    extras,
    async close() {
      await server.close();
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}

export const BOTH = "application/json, text/event-stream";

export function post(url: URL, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { accept: BOTH, "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

export function initializeRequest(id: string | number = 1, protocolVersion = "2025-11-25"): JsonRpcRequest {
  return {
    jsonrpc: "2.0",
    id,
    method: "initialize",
    params: { protocolVersion, capabilities: {}, clientInfo: { name: "test", version: "1" } },
  };
}

/** The headers and body of a stateless 2026-07-28 `tools/call` of tool `name`, without arguments. */
export function statelessToolCall(name: string) {
  const headers = {
    accept: BOTH,
    "content-type": "application/json",
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": "tools/call",
    "mcp-name": name,
  };
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: {
      name,
      arguments: {},
      _meta: {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
      },
    },
  });
  return { headers, body };
}

/** Initializes a session over raw HTTP and returns its id. */
export async function initialize(url: URL, protocolVersion = "2025-11-25"): Promise<string> {
  const response = await post(url, initializeRequest(1, protocolVersion));
  await response.text();
  const sessionId = response.headers.get("mcp-session-id");
  if (sessionId === null) throw new Error(`initialize got no session id (HTTP ${response.status})`);
  return sessionId;
}

/**
 * A session initialized on `server` through its web-standard `handle`, with no socket:
 * `send(method, headers, body?)` asks with the Accept a client sends for that method (SSE for
 * GET), and `headers` carry the session's id.
 */
export async function openWebSession(server: StreamableHttpServer) {
  const send = (method: string, headers: Record<string, string>, body?: unknown) =>
    server.handle(
      new Request("http://127.0.0.1/mcp", {
        method,
        headers: {
          accept: method === "GET" ? "text/event-stream" : BOTH,
          "content-type": "application/json",
          ...headers,
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    );
  const init = await send("POST", {}, initializeRequest(1));
  await init.text();
  const headers = { "mcp-session-id": init.headers.get("mcp-session-id") ?? "" };
  return { send, headers };
}

/** The SSE events of a response, as they arrive. Leaving the loop disconnects. */
export async function* sseEvents(response: Response): AsyncGenerator<EventSourceMessage> {
  const events: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (event) => events.push(event) });
  if (response.body === null) return;
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  try {
    for (;;) {
      while (events.length > 0) yield events.shift() as EventSourceMessage;
      const { done, value } = await reader.read();
      if (done) break;
      parser.feed(decoder.decode(value, { stream: true }));
    }
    while (events.length > 0) yield events.shift() as EventSourceMessage;
  } finally {
    await reader.cancel().catch(() => {});
  }
}

/** All SSE messages of a response that ends, parsed. */
export async function sseMessages(response: Response): Promise<JsonRpcMessage[]> {
  const messages: JsonRpcMessage[] = [];
  for await (const event of sseEvents(response)) {
    if (event.data !== "") messages.push(JSON.parse(event.data) as JsonRpcMessage);
  }
  return messages;
}

/** The next parsed SSE message of an event iterator. */
export async function nextMessage(
  events: AsyncGenerator<EventSourceMessage>,
): Promise<JsonRpcMessage & { eventId?: string }> {
  for (;;) {
    const { done, value } = await events.next();
    if (done) throw new Error("The SSE stream ended");
    if (value.data === "") continue;
    const message = JSON.parse(value.data) as JsonRpcMessage;
    return value.id === undefined ? message : { ...message, eventId: value.id };
  }
}

/**
 * Reads `body` as text as it comes, remembering what came so far; `closed` turns true once it
 * ended or failed (an errored body counts as closed, as a dropped connection does).
 */
export function collect(body: ReadableStream<Uint8Array> | null): { text: string; closed: boolean } {
  const state = { text: "", closed: false };
  const decoder = new TextDecoder();
  void (async () => {
    const reader = body?.getReader();
    try {
      for (let read = await reader?.read(); read && !read.done; read = await reader?.read()) {
        state.text += decoder.decode(read.value, { stream: true });
      }
    } catch {
      // Counted as closed below.
    }
    state.closed = true;
  })();
  return state;
}
