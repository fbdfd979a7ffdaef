import { McpServer } from "mcp-handoff/server";
import { StdioServerTransport } from "mcp-handoff/stdio";
import { z } from "zod";

const server = new McpServer({ name: "greeter", version: "1.0.0" });

server.registerTool(
  "greet",
  { description: "Greets someone by name", inputSchema: { name: z.string() } },
  async ({ name }) => ({ content: [{ type: "text", text: `Hello, ${name}!` }] }),
);

await server.connect(new StdioServerTransport());
