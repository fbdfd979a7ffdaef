import { startLocalConnect } from "mcp-handoff/connect";
import { McpServer } from "mcp-handoff/server";
import { StdioServerTransport } from "mcp-handoff/stdio";
import { z } from "zod";

const serverInfo = { name: "weather", title: "Weather", version: "1.0.0" };
const api = new URL(process.env.WEATHER_API ?? "https://api.weather.example");
// The key page listens on 127.0.0.1, names this server, and logs its failures to stderr (stdout
// carries JSON-RPC). Each link opens once, in the first browser that follows it.
const local = await startLocalConnect({
  serverInfo,
  // The key goes as a bearer token to the weather API's host, and nowhere else.
  secrets: { weather: { hosts: [api.host], label: "Weather API key" } },
  // Development only: lets a stand-in API on this machine be plain http (https everywhere else).
  unsafeHttpLoopbackForDevelopment: api.protocol === "http:",
});
const server = new McpServer(serverInfo, { interactions: local.interactions });

server.registerTool(
  "forecast",
  { description: "Tomorrow's weather in a city", inputSchema: { city: z.string() } },
  async ({ city }, ctx) => {
    // Sent with the stored key, or a hand-off to the key page: the client retries once it is saved.
    const response = await ctx.credentials.fetch("weather", new URL(`/forecast?city=${encodeURIComponent(city)}`, api));
    return { content: [{ type: "text", text: await response.text() }], isError: !response.ok };
  },
);

await server.connect(new StdioServerTransport());
