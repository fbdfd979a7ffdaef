import { createServer } from "node:http";
import { nodeServerOptions, StreamableHttpServer, toNodeHandler } from "mcp-handoff/http";
import { McpServer } from "mcp-handoff/server";
import { z } from "zod";

const server = new McpServer({ name: "sign-up", version: "1.0.0" });

server.registerTool(
  "sign_up",
  { description: "Signs the user up to the newsletter", inputSchema: { list: z.string() } },
  async ({ list }, ctx) => {
    // A form the client shows its user. On 2026-07-28 the call ends here with an
    // InputRequiredResult and this handler runs again, from the top, when the client retries
    // with the answer: keep side effects after the last ask.
    const answer = await ctx.elicit({
      mode: "form",
      message: `Which address should receive ${list}?`,
      requestedSchema: {
        type: "object",
        properties: { email: { type: "string", format: "email" } },
        required: ["email"],
      },
    });
    if (answer.action !== "accept") return { content: [{ type: "text", text: "Not signed up." }] };
    return { content: [{ type: "text", text: `Signed up ${answer.content?.email} to ${list}.` }] };
  },
);

// One endpoint for both protocol eras: `initialize` sessions (2025-11-25 and older) and
// stateless requests (2026-07-28), each connected to the same server definition.
const endpoint = new StreamableHttpServer({
  onsession: (transport) => server.connect(transport),
  onrequest: (transport) => server.connect(transport),
});
// nodeServerOptions(): timeouts for a client's headers and request, shorter than Node's defaults.
export const http = createServer(nodeServerOptions(), toNodeHandler(endpoint)).listen(
  Number(process.env.PORT ?? 3000),
  "127.0.0.1",
);
