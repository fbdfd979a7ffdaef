/** Our server for the bench: the `echo` and `ask` tools on one `McpServer` definition. */
import { McpServer, type McpServerOptions, type ZodRawShape } from "mcp-handoff/server";
import { ASK_TOOL, ECHO_TOOL, ELICIT_MESSAGE, ELICIT_SCHEMA, SERVER_INFO } from "../shared.js";

/** Plain JSON Schema, the form `registerTool` takes natively; `as const` types the handler's `text`. */
const ECHO_INPUT = {
  type: "object",
  properties: { text: { type: "string" } },
  required: ["text"],
} as const;

/**
 * `zodInput`: the `echo` tool's input as this zod shape instead (`{ text: z.string() }`), as most
 * servers declare theirs. `options`: the server's, e.g. the interaction service of a fleet instance.
 */
export function buildServer(zodInput?: ZodRawShape, options?: McpServerOptions): McpServer {
  const server = new McpServer(SERVER_INFO, options);
  const echo = ({ text }: { text: string }) => ({ content: [{ type: "text" as const, text }] });
  if (zodInput === undefined) {
    server.registerTool(ECHO_TOOL, { description: "Repeats the text.", inputSchema: ECHO_INPUT }, echo);
  } else {
    server.registerTool(ECHO_TOOL, { description: "Repeats the text.", inputSchema: zodInput }, (args) =>
      echo(args as { text: string }),
    );
  }
  server.registerTool(ASK_TOOL, { description: "Asks the user for a colour." }, async (_args, ctx) => {
    const answer = await ctx.elicit({ message: ELICIT_MESSAGE, requestedSchema: ELICIT_SCHEMA });
    return { content: [{ type: "text", text: String(answer.content?.colour) }] };
  });
  return server;
}
