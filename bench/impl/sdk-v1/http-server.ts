/**
 * The official SDK v1 Streamable HTTP server, wired as its documentation shows for sessions: a
 * transport and a server per session, found by the `Mcp-Session-Id` header.
 */
import { randomUUID } from "node:crypto";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { serveHttp } from "../http-host.js";
import { answerForm } from "../server-args.js";
import { MAX_MESSAGE_BYTES } from "../types.js";
import { buildServer } from "./tools.js";

const enableJsonResponse = answerForm() === "json";

const transports = new Map<string, StreamableHTTPServerTransport>();

await serveHttp(async (req, res) => {
  const sessionId = req.headers["mcp-session-id"];
  if (typeof sessionId === "string") {
    const transport = transports.get(sessionId);
    if (transport === undefined) res.writeHead(404).end();
    else await transport.handleRequest(req, res);
    return;
  }
  const transport = new StreamableHTTPServerTransport({
    enableJsonResponse,
    maxRequestBodySize: MAX_MESSAGE_BYTES,
    sessionIdGenerator: () => randomUUID(),
    onsessioninitialized: (id) => void transports.set(id, transport),
  });
  transport.onclose = () => {
    if (transport.sessionId !== undefined) transports.delete(transport.sessionId);
  };
  await buildServer().connect(transport);
  await transport.handleRequest(req, res);
});
