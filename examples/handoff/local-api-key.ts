import { startLocalConnect } from "mcp-handoff/connect";
import { McpServer } from "mcp-handoff/server";
import { StdioServerTransport } from "mcp-handoff/stdio";
import { z } from "zod";

const serverInfo = { name: "weather", title: "Weather", version: "1.0.0" };
// The key page listens on 127.0.0.1, names this server, and logs its failures to stderr (stdout
// carries JSON-RPC). Each link opens once, in the first browser that follows it.
const local = await startLocalConnect({ serverInfo });
const server = new McpServer(serverInfo, { interactions: local.interactions });

server.registerTool(
  "forecast",
  { description: "Tomorrow's weather in a city", inputSchema: { city: z.string() } },
  async ({ city }, ctx) => {
    // The stored key, or a hand-off to the key page: the client retries once the key is saved.
    const key = await ctx.credentials.require("weather", { kind: "secret", label: "Weather API key" });
    const api = process.env.WEATHER_API ?? "https://api.weather.example";
    const response = await fetch(`${api}/forecast?city=${encodeURIComponent(city)}`, {
      headers: { authorization: `Bearer ${key.secret}` },
    });
    return { content: [{ type: "text", text: await response.text() }], isError: !response.ok };
  },
);

await server.connect(new StdioServerTransport());
