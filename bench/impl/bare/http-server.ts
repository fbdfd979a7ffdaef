/**
 * The bare baseline on HTTP: a `node:http` handler that parses each POST body as one JSON-RPC
 * message and answers with JSON, and keeps sessions in a map (created by `initialize`, ended
 * by DELETE). No SSE, no header checks beyond the session id.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { serveHttp } from "../http-host.js";
import { ECHO_TOOL, PROTOCOL_VERSION, SERVER_INFO } from "../shared.js";

interface Session {
  protocolVersion: string;
  openedAt: number;
}

const sessions = new Map<string, Session>();

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));
}

async function post(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const message = JSON.parse(await readBody(req)) as {
    id?: unknown;
    method?: string;
    params?: Record<string, unknown>;
  };
  const { id, method, params = {} } = message;
  if (method === "initialize") {
    const sessionId = randomUUID();
    sessions.set(sessionId, { protocolVersion: PROTOCOL_VERSION, openedAt: Date.now() });
    const result = { protocolVersion: PROTOCOL_VERSION, capabilities: { tools: {} }, serverInfo: SERVER_INFO };
    json(res, 200, { jsonrpc: "2.0", id, result }, { "mcp-session-id": sessionId });
    return;
  }
  const sessionId = req.headers["mcp-session-id"];
  if (typeof sessionId !== "string" || !sessions.has(sessionId)) {
    json(res, 404, { jsonrpc: "2.0", id: null, error: { code: -32001, message: "Session not found" } });
    return;
  }
  if (id === undefined) {
    res.writeHead(202).end();
    return;
  }
  const args = (params.arguments ?? {}) as Record<string, unknown>;
  if (method === "tools/call" && params.name === ECHO_TOOL) {
    json(res, 200, { jsonrpc: "2.0", id, result: { content: [{ type: "text", text: args.text }] } });
  } else {
    json(res, 200, { jsonrpc: "2.0", id, error: { code: -32601, message: "Method not found" } });
  }
}

await serveHttp((req, res) => {
  if (req.method === "POST") {
    post(req, res).catch(() =>
      json(res, 400, { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } }),
    );
  } else if (req.method === "DELETE") {
    const sessionId = req.headers["mcp-session-id"];
    const found = typeof sessionId === "string" && sessions.delete(sessionId);
    res.writeHead(found ? 204 : 404).end();
  } else {
    res.writeHead(405, { allow: "POST, DELETE" }).end();
  }
});
