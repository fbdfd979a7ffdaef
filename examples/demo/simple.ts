/**
 * `npm run demo -- --simple`: the smaller hand-off.
 *
 * 1. A forecast MCP server starts on 127.0.0.1; its tool needs an API key the client must never see,
 *    and asks for it with `ctx.credentials.require` (`startLocalConnect` serves the key page).
 * 2. Our client calls the tool; the server answers with a URL-mode elicitation to its own page:
 *    on 2026-07-28 (what the client negotiates by default) inside an `InputRequiredResult`, the
 *    user's answer going back on a retry of the call; on 2025-11-25 (`--revision 2025-11-25`) as
 *    `elicitation/create` during the call.
 * 3. The client shows the consent step (server, full URL, host) and, after consent, opens the page.
 * 4. The user types the key on that page, a one-time link on 127.0.0.1 (scripted here;
 *    `--interactive` leaves it to you).
 * 5. The server stores the key and the call returns (on 2025-11-25 after
 *    `notifications/elicitation/complete`).
 */
import { McpClient } from "../../src/client/index.js";
import { StreamableHttpClientTransport } from "../../src/transports/http/index.js";
import { askConsentAtTerminal, describeUrlRequest } from "./consent.js";
import { failIfAsked } from "./fail.js";
import { type ForecastServer, startForecastServer } from "./forecast-server.js";
import { fillKeyPage } from "./user-agent.js";

/**
 * `revision` pins the client's protocol revision; without it the client probes (see main.ts).
 * Resolves with whether the call returned the forecast.
 * @throws Error of the step that failed, once the client and the server are closed.
 */
export async function runSimpleDemo(
  interactive: boolean,
  say: (line: string) => void,
  revision?: string,
): Promise<boolean> {
  const server = await startForecastServer(say);
  say(`server   listening at ${server.mcpUrl.href}`);
  let client: McpClient | undefined;
  try {
    client = new McpClient(
      { name: "handoff-demo-client", version: "1.0.0" },
      revision === undefined ? {} : { protocolVersion: revision },
    );
    return await talk(client, server, interactive, say);
  } finally {
    await client?.close();
    await server.close();
  }
}

async function talk(
  client: McpClient,
  server: ForecastServer,
  interactive: boolean,
  say: (line: string) => void,
): Promise<boolean> {
  let browserDone: Promise<void> = Promise.resolve();
  client.setElicitationHandler(
    async (params, ctx) => {
      if (params.mode !== "url") return { action: "decline" };
      say(
        ctx.input
          ? "client   input required: URL elicitation in InputRequiredResult (the answer goes back on a retry)"
          : "client   elicitation/create arrived during the call (URL mode)",
      );
      for (const line of describeUrlRequest(ctx.serverInfo, params)) say(`client   ${line}`);
      const consent = interactive ? await askConsentAtTerminal() : true;
      say(
        `client   ${interactive ? "you answered" : "the (scripted) user answers"}: ${consent ? "yes, open it" : "no"}`,
      );
      if (!consent) return { action: "decline" };
      if (interactive) {
        say(`client   open this address in your browser and enter any key: ${params.url}`);
      } else {
        // The browser runs beside the client; the client only answers "accept" and never fetches the URL.
        browserDone = fillKeyPage(params.url, "demo-key-7f3a9c", say);
        // Awaited after the call; a page that fails meanwhile is reported there.
        browserDone.catch(() => {});
      }
      return { action: "accept" };
    },
    { modes: ["url"] },
  );
  client.onElicitationComplete = (id) => say(`client   notifications/elicitation/complete arrived for ${id}`);

  failIfAsked("connect");
  await client.connect(new StreamableHttpClientTransport(server.mcpUrl));
  say(
    `client   connected to ${client.serverInfo?.title ?? client.serverInfo?.name} (protocol ${client.protocolVersion})`,
  );
  say('client   calling get_forecast { city: "Lisbon" }');
  const result = await client.callTool(
    { name: "get_forecast", arguments: { city: "Lisbon" } },
    { timeoutMs: interactive ? 10 * 60_000 : 30_000 },
  );
  await browserDone;
  const text = result.content.map((block) => (block.type === "text" ? block.text : `[${block.type}]`)).join("\n");
  say(`client   the call returned${result.isError ? " an error" : ""}: ${text}`);
  if (result.isError || !server.hasKey()) return false;
  say("done     the hand-off completed: the key went to the server's page, never through the client.");
  return true;
}
