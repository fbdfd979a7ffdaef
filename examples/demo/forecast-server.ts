/**
 * The demo's MCP server: a forecast tool that needs the user's API key for a (pretend) weather
 * service. The key must never pass through the MCP client or the model, so the tool asks for it
 * with `ctx.credentials.require`, as the README's local example does: `startLocalConnect` serves
 * the key page on 127.0.0.1 (a one-time link bound to this session, claimed by the first browser
 * that opens it), and the call waits until the key is saved there.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { z } from "zod";
import { startLocalConnect } from "../../src/connect/index.js";
import { McpServer } from "../../src/server/index.js";
import { StreamableHttpServer, toNodeHandler } from "../../src/transports/http/index.js";

export interface ForecastServer {
  /** The MCP endpoint, e.g. http://127.0.0.1:41234/mcp. */
  readonly mcpUrl: URL;
  /** Whether a key is stored; the key itself never leaves the server. */
  hasKey(): boolean;
  close(): Promise<void>;
}

export async function startForecastServer(say: (line: string) => void): Promise<ForecastServer> {
  const serverInfo = { name: "forecast-demo", version: "1.0.0", title: "Forecast (demo)" };
  const local = await startLocalConnect({ serverInfo });
  let stored = false;
  let asked = false;

  const mcp = new McpServer(serverInfo, { interactions: local.interactions });
  mcp.registerTool(
    "get_forecast",
    {
      title: "Weather forecast",
      description: "Tomorrow's forecast for a city, from a weather service that needs the user's API key.",
      inputSchema: { city: z.string().describe("City name") },
    },
    async ({ city }, ctx) => {
      if (!stored && !asked) say(`server   no API key yet: the user is to be sent to the key page at ${local.origin}`);
      asked = true;
      // The stored key, or the key page: on 2025-11-25 an elicitation/create during this call, on
      // 2026-07-28 an InputRequiredResult whose retry is answered once the key is saved.
      await ctx.credentials.require("forecast", { kind: "secret", label: "Forecast API key", wait: true });
      if (!stored) say("server   stored the API key (it is shown nowhere, to the tool neither)");
      stored = true;
      return { content: [{ type: "text", text: forecastFor(city) }] };
    },
  );

  // Both eras on one endpoint: sessions for 2025-11-25 clients, one transport per POST for 2026-07-28.
  const endpoint = new StreamableHttpServer({
    onsession: (transport) => void mcp.connect(transport),
    onrequest: (transport) => mcp.connect(transport),
  });
  const handleMcp = toNodeHandler(endpoint);
  const http: Server = createServer((req, res) => {
    if (new URL(req.url ?? "/", "http://127.0.0.1").pathname === "/mcp") void handleMcp(req, res);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;

  return {
    mcpUrl: new URL("/mcp", base),
    hasKey: () => stored,
    close: async () => {
      await endpoint.close();
      await mcp.close();
      await local.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/** A made-up forecast; a real server would call the weather API with the stored key here. */
function forecastFor(city: string): string {
  const outlooks = ["sunny, 24 °C", "light rain, 17 °C", "cloudy, 19 °C", "windy, 15 °C"];
  const index = [...city].reduce((sum, ch) => sum + (ch.codePointAt(0) ?? 0), 0) % outlooks.length;
  return `Tomorrow in ${city}: ${outlooks[index]}.`;
}
