/**
 * The bare baseline on HTTP: a `node:http` handler that parses each POST body as one JSON-RPC
 * message and answers it, JSON by default (`--answers sse`: one SSE event, then the end). It
 * keeps sessions in a map (created by `initialize`, ended by DELETE), holds each session's GET
 * stream open, and answers a 2026-07-28 POST (no session, the version in `_meta`) on its own. No
 * validation, no header checks beyond the session id.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { serveHttp } from "../http-host.js";
import { answerForm } from "../server-args.js";
import { ECHO_TOOL, META_PROTOCOL_VERSION, PROTOCOL_VERSION, SERVER_INFO, STATELESS_VERSION } from "../shared.js";

interface Session {
  protocolVersion: string;
  /** The open GET stream, if the client opened one. */
  stream: ServerResponse | undefined;
}

type Params = Record<string, unknown>;

const sessions = new Map<string, Session>();
const sse = answerForm() === "sse";

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));
}

/** A response to a request, as JSON or as one SSE event. */
function answer(res: ServerResponse, message: unknown, headers: Record<string, string> = {}): void {
  if (!sse) {
    json(res, 200, message, headers);
    return;
  }
  res.writeHead(200, { "content-type": "text/event-stream", ...headers });
  res.end(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
}

function result(id: unknown, method: string | undefined, params: Params): unknown {
  const args = (params.arguments ?? {}) as Params;
  if (method === "tools/call" && params.name === ECHO_TOOL) {
    return { jsonrpc: "2.0", id, result: { content: [{ type: "text", text: args.text }] } };
  }
  if (method === "server/discover") {
    const discovered = { supportedVersions: [STATELESS_VERSION], capabilities: { tools: {} }, serverInfo: SERVER_INFO };
    return { jsonrpc: "2.0", id, result: discovered };
  }
  if (method === "tools/list") {
    const tools = [{ name: ECHO_TOOL, inputSchema: { type: "object", properties: { text: { type: "string" } } } }];
    return { jsonrpc: "2.0", id, result: { tools } };
  }
  return { jsonrpc: "2.0", id, error: { code: -32601, message: "Method not found" } };
}

async function post(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const {
    id,
    method,
    params = {},
  } = JSON.parse(await readBody(req)) as { id?: unknown; method?: string; params?: Params };
  if (method === "initialize") {
    const sessionId = randomUUID();
    sessions.set(sessionId, { protocolVersion: PROTOCOL_VERSION, stream: undefined });
    const initialized = { protocolVersion: PROTOCOL_VERSION, capabilities: { tools: {} }, serverInfo: SERVER_INFO };
    answer(res, { jsonrpc: "2.0", id, result: initialized }, { "mcp-session-id": sessionId });
    return;
  }
  const sessionId = req.headers["mcp-session-id"];
  const stateless = (params._meta as Params | undefined)?.[META_PROTOCOL_VERSION] === STATELESS_VERSION;
  if (!stateless && (typeof sessionId !== "string" || !sessions.has(sessionId))) {
    json(res, 404, { jsonrpc: "2.0", id: null, error: { code: -32001, message: "Session not found" } });
    return;
  }
  if (id === undefined) {
    res.writeHead(202).end();
    return;
  }
  answer(res, result(id, method, params));
}

function get(req: IncomingMessage, res: ServerResponse): void {
  const sessionId = req.headers["mcp-session-id"];
  const session = typeof sessionId === "string" ? sessions.get(sessionId) : undefined;
  if (session === undefined) {
    res.writeHead(405, { allow: "POST, DELETE" }).end();
    return;
  }
  res.writeHead(200, { "content-type": "text/event-stream" });
  res.flushHeaders();
  session.stream = res;
  res.once("close", () => {
    if (session.stream === res) session.stream = undefined;
  });
}

await serveHttp((req, res) => {
  if (req.method === "POST") {
    post(req, res).catch(() =>
      json(res, 400, { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } }),
    );
  } else if (req.method === "GET") {
    get(req, res);
  } else if (req.method === "DELETE") {
    const sessionId = req.headers["mcp-session-id"];
    const session = typeof sessionId === "string" ? sessions.get(sessionId) : undefined;
    if (session !== undefined) {
      session.stream?.end();
      sessions.delete(sessionId as string);
    }
    res.writeHead(session !== undefined ? 204 : 404).end();
  } else {
    res.writeHead(405, { allow: "GET, POST, DELETE" }).end();
  }
});
