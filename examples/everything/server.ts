/**
 * Runs the everything server.
 *
 *   node --import tsx examples/everything/server.ts --stdio
 *   node --import tsx examples/everything/server.ts --http 3000    # http://127.0.0.1:3000/mcp
 *
 * Without `--http`, stdio is served. Over HTTP the server listens on 127.0.0.1 only (`HOST`
 * may name another loopback address) and answers every path but `/mcp` with 404.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { McpServer } from "../../src/server/index.js";
import { MemoryEventStore, StreamableHttpServer, toNodeHandler } from "../../src/transports/http/index.js";
import { closeOnSignals, StdioServerTransport } from "../../src/transports/stdio/index.js";
import { createEverythingServer } from "./definition.js";

const MCP_PATH = "/mcp";
/** ms a client waits before reconnecting to a stream whose connection the server closed. */
const RETRY_INTERVAL_MS = 500;

async function serveHttp(server: McpServer, port: number, host: string): Promise<void> {
  const endpoint = new StreamableHttpServer({
    onsession: (transport) => server.connect(transport),
    // Revision 2026-07-28: each stateless POST is served on its own, without a session.
    onrequest: (transport) => server.connect(transport),
    // Resumable streams: a tool may close its connection mid-call (test_reconnection).
    eventStore: new MemoryEventStore(),
    retryIntervalMs: RETRY_INTERVAL_MS,
    bindHost: host,
    onerror: (error) => process.stderr.write(`HTTP error: ${error.message}\n`),
  });
  const handle = toNodeHandler(endpoint);
  const http = createServer((req, res) => {
    if (new URL(req.url ?? "/", "http://localhost").pathname === MCP_PATH) void handle(req, res);
    else res.writeHead(404, { "content-type": "text/plain" }).end("Not found\n");
  });
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(port, host, resolve);
  });
  const { port: bound } = http.address() as AddressInfo;
  // Port 0 picks a free port; this line tells the parent which one.
  process.stderr.write(`everything server: http://${host}:${bound}${MCP_PATH}\n`);
  closeOnSignals({
    close: async () => {
      await endpoint.close();
      await server.close();
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  });
}

async function serveStdio(server: McpServer): Promise<void> {
  const transport = new StdioServerTransport();
  await server.connect(transport);
  closeOnSignals(server);
}

function portArgument(args: readonly string[]): number | undefined {
  const index = args.indexOf("--http");
  if (index === -1) return undefined;
  const port = Number(args[index + 1] ?? process.env.PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new Error(`--http needs a port number, got ${JSON.stringify(args[index + 1])}`);
  }
  return port;
}

const server = createEverythingServer();
const port = portArgument(process.argv.slice(2));
if (port === undefined) await serveStdio(server);
else await serveHttp(server, port, process.env.HOST ?? "127.0.0.1");
