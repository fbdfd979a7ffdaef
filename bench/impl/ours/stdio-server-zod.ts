/**
 * Our stdio server with the `echo` tool's input declared as a zod shape, as most servers in the
 * wild declare theirs: the start-up then pays for zod, and for turning the shape into JSON Schema
 * when `tools/list` first asks.
 */
import { StdioServerTransport } from "mcp-handoff/stdio";
import * as z from "zod";
import { buildServer } from "./tools.js";

await buildServer({ text: z.string() }).connect(new StdioServerTransport());
