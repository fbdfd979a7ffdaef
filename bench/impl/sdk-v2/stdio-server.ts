/** The official SDK v2 stdio server, wired by hand as for a 2025-era connection. */
import { StdioServerTransport } from "@modelcontextprotocol/server/stdio";
import { buildServer } from "./tools.js";

await buildServer().connect(new StdioServerTransport());
