/** The official SDK v1 server for the bench: `echo` and `ask` on a v1 `McpServer`. */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
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
  server.registerTool(ASK_TOOL, { description: "Asks the user for a colour." }, async () => {
    const answer = await server.server.elicitInput({
      mode: "form",
      message: ELICIT_MESSAGE,
      requestedSchema: ELICIT_SCHEMA,
    });
    return { content: [{ type: "text", text: String(answer.content?.colour) }] };
  });
  return server;
}
