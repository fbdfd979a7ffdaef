/**
 * `npm run demo -- --full`: the whole hand-off with real parts, on 127.0.0.1.
 *
 * 1. Two OAuth servers start (`oidc-provider`): the MCP authorization server (users log in by
 *    name) and a third-party service with an `/api/items` API; then the MCP server, whose tool
 *    `list_items` needs the user's own grant at the third party.
 * 2. The client signs alice in (authorization code + PKCE) and calls `list_items` with her token.
 * 3. No grant is stored yet: the server answers with a hand-off to its connect page.
 * 4. The client shows the consent text; after a (scripted) yes it hands the URL to the browser:
 *    headless Chromium where installed, else a scripted HTTP user agent (see browsers.ts).
 * 5. The browser logs in as alice at the MCP authorization server and consents at the third party;
 *    the callback stores the token in the encrypted vault and completes the hand-off.
 * 6. The client retries the call, which now returns alice's items. The client never sees that token.
 */
import { McpClient } from "../../../src/client/index.js";
import { createConsentPolicy, HandoffClient } from "../../../src/interaction/client/index.js";
import { StreamableHttpClientTransport } from "../../../src/transports/http/index.js";
import { type BrowserChoice, openBrowsers } from "./browsers.js";
import { signInForMcp } from "./sign-in.js";
import { startFullWorld } from "./world.js";

/** What the run left behind, for checks: the call's text and the third-party token the vault holds. */
export interface FullDemoResult {
  text: string;
  isError: boolean;
  storedSecret: string | undefined;
}

export interface FullDemoOptions {
  /** Who plays the user's browser; default `auto` (headless Chromium if installed). */
  browser?: BrowserChoice;
}

export async function runFullDemo(say: (line: string) => void, options: FullDemoOptions = {}): Promise<FullDemoResult> {
  const world = await startFullWorld({ say });
  const { resource } = world;
  let browsers: Awaited<ReturnType<typeof openBrowsers>> | undefined;
  const client = new McpClient({ name: "items-demo-client", version: "1.0.0" });
  try {
    const opened = await openBrowsers(options.browser ?? "auto", world.labels, say);
    browsers = opened;
    let browsing: Promise<void> = Promise.resolve();
    const browse = async (url: string) => {
      say("browser  opening the page; logging in as alice and consenting where asked");
      const page = await opened.user.signIn(url, "alice");
      say(`browser  the last page says: ${page.text.slice(0, 120)}`);
    };

    const handoff = new HandoffClient(client, {
      serverUrl: resource,
      timeoutMs: 30_000,
      onInteraction: createConsentPolicy({
        print: (text) => {
          for (const line of text.split("\n").filter((l) => l.trim() !== "")) say(`client   | ${line}`);
        },
        confirm: async (question) => {
          say(`client   ${question} the (scripted) user answers: yes`);
          return true;
        },
        // The client only hands the URL over; the browser runs beside it and the client never fetches it.
        open: async (url) => {
          browsing = browse(url);
        },
      }),
    });
    handoff.onstatus = (interaction, status) => say(`client   hand-off ${interaction.id}: ${status}`);

    // The client signs in in a window of its own; the hand-off page later opens in the user's
    // browser, which has no session yet and so logs in at the MCP authorization server anew.
    const token = await signInForMcp(opened.signIn, { issuer: world.mcpIssuer, resource, login: "alice", say });
    await client.connect(
      new StreamableHttpClientTransport(new URL(resource), { headers: { authorization: `Bearer ${token}` } }),
    );
    say(`client   connected to ${client.serverInfo?.title ?? client.serverInfo?.name} as alice`);
    say("client   calling list_items {}");
    const result = await handoff.callTool({ name: "list_items", arguments: {} });
    await browsing;
    const text = result.content.map((block) => (block.type === "text" ? block.text : `[${block.type}]`)).join("\n");
    say(`client   the call returned${result.isError ? " an error" : ""}: ${text}`);
    return { text, isError: result.isError === true, storedSecret: await world.storedSecret("alice") };
  } finally {
    await client.close();
    await browsers?.close();
    await world.close();
  }
}
