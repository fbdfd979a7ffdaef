import { StreamableHttpServer } from "mcp-handoff/http";
import { McpServer } from "mcp-handoff/server";
import { z } from "zod";

const server = new McpServer({ name: "weather", version: "1.0.0" });

server.registerTool(
  "forecast",
  { description: "Tomorrow's weather in a city", inputSchema: { city: z.string() } },
  async ({ city }) => ({ content: [{ type: "text", text: `${city}: sunny, 21 °C` }] }),
);

// No sessions, so any instance may answer any POST. A 2025-11-25 client's `initialize` is answered
// as usual, and each later POST is served on its own, at the revision its MCP-Protocol-Version
// header names; 2026-07-28 requests carry everything they need anyway.
const endpoint = new StreamableHttpServer({
  sessionIdGenerator: undefined,
  onsession: (transport) => server.connect(transport),
  onrequest: (transport) => server.connect(transport),
});

// A web-standard handler, for hosts that call `fetch(request)` and send back its Response.
export default { fetch: (request: Request) => endpoint.handle(request) };
