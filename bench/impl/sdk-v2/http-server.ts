/**
 * The official SDK v2 Streamable HTTP server with sessions, wired as for 2025-era clients: a
 * web-standard transport and a server per session, found by the `Mcp-Session-Id` header.
 */
import { randomUUID } from "node:crypto";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server";
import { serveHttp } from "../http-host.js";
import { answerForm } from "../server-args.js";
import { MAX_MESSAGE_BYTES } from "../types.js";
import { toWebRequest, writeWebResponse } from "./node-adapter.js";
import { buildServer } from "./tools.js";

const enableJsonResponse = answerForm() === "json";

const transports = new Map<string, WebStandardStreamableHTTPServerTransport>();

await serveHttp(async (req, res) => {
  const request = await toWebRequest(req, res);
  const sessionId = req.headers["mcp-session-id"];
  if (typeof sessionId === "string") {
    const transport = transports.get(sessionId);
    if (transport === undefined) res.writeHead(404).end();
    else await writeWebResponse(await transport.handleRequest(request), res);
    return;
  }
  const transport = new WebStandardStreamableHTTPServerTransport({
    enableJsonResponse,
    maxRequestBodySize: MAX_MESSAGE_BYTES,
    sessionIdGenerator: () => randomUUID(),
    onsessioninitialized: (id) => void transports.set(id, transport),
  });
  transport.onclose = () => {
    if (transport.sessionId !== undefined) transports.delete(transport.sessionId);
  };
  await buildServer().connect(transport);
  await writeWebResponse(await transport.handleRequest(request), res);
});
