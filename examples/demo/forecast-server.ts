/**
 * The demo's MCP server: a forecast tool that needs the user's API key for a (pretend) weather
 * service. The key must never pass through the MCP client or the model, so the tool sends the
 * user to a page of this server (URL-mode elicitation) and waits until the key arrives there.
 */
import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { z } from "zod";
import { McpServer } from "../../src/server/index.js";
import { StreamableHttpServer, toNodeHandler } from "../../src/transports/http/index.js";
import { KeyPage } from "./key-page.js";

export interface ForecastServer {
  /** The MCP endpoint, e.g. http://127.0.0.1:41234/mcp. */
  readonly mcpUrl: URL;
  /** Whether a key is stored; the key itself never leaves the server. */
  hasKey(): boolean;
  close(): Promise<void>;
}

export async function startForecastServer(say: (line: string) => void): Promise<ForecastServer> {
  const http: Server = createServer();
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;

  // One local user in this demo; a multi-user server binds keys to the verified user identity.
  let apiKey: string | undefined;
  const page = new KeyPage(`${base}/connect`, (key) => {
    apiKey = key;
    say(`server   stored the API key (${key.length} characters; it is shown nowhere)`);
  });

  let pending: { elicitationId: string; submitted: Promise<void> } | undefined;
  const expectKey = () => {
    const elicitationId = randomUUID();
    // The page waits until the key arrives or the server closes, not for one request.
    return { elicitationId, submitted: page.expect(elicitationId, closing.signal) };
  };
  const closing = new AbortController();
  const RETRY_COMPLETES =
    "server   the key arrived; the answer to the retried call is the completion (no notification on 2026-07-28)";

  const mcp = new McpServer({ name: "forecast-demo", version: "1.0.0", title: "Forecast (demo)" });
  mcp.registerTool(
    "get_forecast",
    {
      title: "Weather forecast",
      description: "Tomorrow's forecast for a city, from a weather service that needs the user's API key.",
      inputSchema: { city: z.string().describe("City name") },
    },
    async ({ city }, ctx) => {
      if (apiKey === undefined) {
        // A 2026-07-28 client answers the elicitation on a retry, which runs this handler again:
        // the page asked for stays the same until the key arrives.
        pending ??= expectKey();
        const { elicitationId, submitted } = pending;
        say(`server   no API key yet: the user is to be sent to ${page.urlFor(elicitationId)}`);
        const answer = await ctx.elicit({
          mode: "url",
          elicitationId,
          url: page.urlFor(elicitationId),
          message: "The forecast service needs your API key. Enter it on the Forecast server's own page.",
        });
        if (answer.action !== "accept") {
          page.forget(elicitationId);
          pending = undefined;
          return {
            content: [{ type: "text", text: `No forecast: the user chose to ${answer.action}.` }],
            isError: true,
          };
        }
        say("server   the user agreed to open the page; waiting for the key to arrive there");
        await Promise.race([submitted, aborted(ctx.signal)]);
        // 2025-11-25 announces the page's completion; 2026-07-28 has no such notification (the
        // answer to this retried call is the completion), so there this sends nothing.
        const told = await ctx.session.notifyElicitationComplete(elicitationId);
        pending = undefined;
        say(told ? `server   sent notifications/elicitation/complete for ${elicitationId}` : RETRY_COMPLETES);
      } else if (pending !== undefined) {
        // 2026-07-28: the key arrived on the page before the client's retry reached this handler.
        pending = undefined;
        say(RETRY_COMPLETES);
      }
      return { content: [{ type: "text", text: forecastFor(city) }] };
    },
  );

  // Both eras on one endpoint: sessions for 2025-11-25 clients, one transport per POST for 2026-07-28.
  const endpoint = new StreamableHttpServer({
    onsession: (transport) => void mcp.connect(transport),
    onrequest: (transport) => mcp.connect(transport),
  });
  const handleMcp = toNodeHandler(endpoint);
  http.on("request", (req, res) => {
    const path = new URL(req.url ?? "/", base).pathname;
    if (path === "/mcp") void handleMcp(req, res);
    else if (path.startsWith("/connect/")) void page.handle(req, res);
    else res.writeHead(404).end();
  });

  return {
    mcpUrl: new URL("/mcp", base),
    hasKey: () => apiKey !== undefined,
    close: async () => {
      closing.abort();
      await endpoint.close();
      await mcp.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/** Rejects once `signal` aborts (the request was cancelled or its connection closed). */
function aborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener("abort", () => reject(signal.reason), { once: true });
  });
}

/** A made-up forecast; a real server would call the weather API with the stored key here. */
function forecastFor(city: string): string {
  const outlooks = ["sunny, 24 °C", "light rain, 17 °C", "cloudy, 19 °C", "windy, 15 °C"];
  const index = [...city].reduce((sum, ch) => sum + (ch.codePointAt(0) ?? 0), 0) % outlooks.length;
  return `Tomorrow in ${city}: ${outlooks[index]}.`;
}
