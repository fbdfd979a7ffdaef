/** Our Streamable HTTP server: one `McpServer` definition connected to each new session. */
import { StreamableHttpServer, toNodeHandler } from "mcp-handoff/http";
import { serveHttp } from "../http-host.js";
import { buildServer } from "./tools.js";

const mcp = buildServer();
const endpoint = new StreamableHttpServer({ onsession: (transport) => void mcp.connect(transport) });
const handle = toNodeHandler(endpoint);
await serveHttp((req, res) => void handle(req, res));
