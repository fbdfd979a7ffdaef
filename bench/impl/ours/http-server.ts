/**
 * Our Streamable HTTP server: one `McpServer` definition connected to each new session and to
 * each 2026-07-28 request, on one endpoint, as the README shows.
 */
import { StreamableHttpServer, toNodeHandler } from "mcp-handoff/http";
import { serveHttp } from "../http-host.js";
import { answerForm } from "../server-args.js";
import { MAX_MESSAGE_BYTES } from "../types.js";
import { buildServer } from "./tools.js";

const mcp = buildServer();
const endpoint = new StreamableHttpServer({
  onsession: (transport) => void mcp.connect(transport),
  onrequest: (transport) => void mcp.connect(transport),
  enableJsonResponse: answerForm() === "json",
  maxBodyBytes: MAX_MESSAGE_BYTES,
});
const handle = toNodeHandler(endpoint);
await serveHttp((req, res) => void handle(req, res));
