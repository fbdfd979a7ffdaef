/**
 * The official SDK v2 server for the bench: `echo` and `ask` on a v2 `McpServer`. The input
 * schema goes through its `fromJsonSchema`, since v2 needs a newer zod than the one installed
 * at the top level.
 */
import { fromJsonSchema, McpServer } from "@modelcontextprotocol/server";
import { ASK_TOOL, ECHO_TOOL, ELICIT_MESSAGE, ELICIT_SCHEMA, SERVER_INFO } from "../shared.js";

const ECHO_INPUT = fromJsonSchema<{ text: string }>({
  type: "object",
  properties: { text: { type: "string" } },
  required: ["text"],
});

export function buildServer(): McpServer {
  const server = new McpServer(SERVER_INFO);
  server.registerTool(ECHO_TOOL, { description: "Repeats the text.", inputSchema: ECHO_INPUT }, ({ text }) => ({
    content: [{ type: "text", text }],
  }));
  server.registerTool(ASK_TOOL, { description: "Asks the user for a colour." }, async (ctx) => {
    const answer = await ctx.mcpReq.elicitInput({
      mode: "form",
      message: ELICIT_MESSAGE,
      requestedSchema: ELICIT_SCHEMA,
    });
    return { content: [{ type: "text", text: String(answer.content?.colour) }] };
  });
  return server;
}
