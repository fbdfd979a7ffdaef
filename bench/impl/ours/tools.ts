/** Our server for the bench: the `echo` and `ask` tools on one `McpServer` definition. */
import { McpServer } from "mcp-handoff/server";
import { z } from "zod";
import { ASK_TOOL, ECHO_TOOL, ELICIT_MESSAGE, ELICIT_SCHEMA, SERVER_INFO } from "../shared.js";

export function buildServer(): McpServer {
  const server = new McpServer(SERVER_INFO);
  server.registerTool(
    ECHO_TOOL,
    { description: "Repeats the text.", inputSchema: { text: z.string() } },
    ({ text }) => ({
      content: [{ type: "text", text }],
    }),
  );
  server.registerTool(ASK_TOOL, { description: "Asks the user for a colour." }, async (_args, ctx) => {
    const answer = await ctx.elicit({ message: ELICIT_MESSAGE, requestedSchema: ELICIT_SCHEMA });
    return { content: [{ type: "text", text: String(answer.content?.colour) }] };
  });
  return server;
}
