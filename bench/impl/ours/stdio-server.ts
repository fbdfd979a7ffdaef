/** Our stdio server: one `McpServer` on `StdioServerTransport`. */
import { StdioServerTransport } from "mcp-handoff/stdio";
import { buildServer } from "./tools.js";

await buildServer().connect(new StdioServerTransport());
