/**
 * `npm run demo -- --full`: the whole hand-off with real parts, on 127.0.0.1.
 *
 * 1. Two OAuth servers start (`oidc-provider`): the MCP authorization server (users log in by
 *    name) and a third-party service with an `/api/items` API; then the MCP server, whose tool
 *    `list_items` needs the user's own grant at the third party.
 * 2. The client signs alice in (authorization code + PKCE) and calls `list_items` with her token.
 * 3. No grant is stored yet: the server answers with a hand-off to its connect page.
 * 4. The client shows the consent text; after a (scripted) yes it hands the URL to the browser.
 * 5. The browser logs in as alice at the MCP authorization server and consents at the third party;
 *    the callback stores the token in the encrypted vault and completes the hand-off.
 * 6. The client retries the call, which now returns alice's items. The client never sees that token.
 */
import { McpClient } from "../../../src/client/index.js";
import { createConsentPolicy, HandoffClient } from "../../../src/interaction/client/index.js";
import { StreamableHttpClientTransport } from "../../../src/transports/http/index.js";
import { close, listen, startThirdParty } from "./authorization-servers.js";
import { Browser } from "./browser.js";
import { startItemsServer } from "./items-server.js";
import { startMcpAuthorizationServer } from "./mcp-authorization-server.js";
import { NarratedBrowser } from "./narrated-browser.js";
import { signInForMcp } from "./sign-in.js";

const THIRD_PARTY_CLIENT = { clientId: "repo-connector", clientSecret: "repo-connector-secret-for-tests" };

/** What the run left behind, for checks: the call's text and the third-party token the vault holds. */
export interface FullDemoResult {
  text: string;
  isError: boolean;
  storedSecret: string | undefined;
}

export async function runFullDemo(say: (line: string) => void): Promise<FullDemoResult> {
  const web = await listen("127.0.0.1");
  const resource = `${web.origin}/mcp`;
  const mcpAs = await startMcpAuthorizationServer(web.origin, resource);
  say(`setup    MCP authorization server (oidc-provider) at ${mcpAs.issuer}`);
  const thirdParty = await startThirdParty(web.origin);
  say(`setup    third-party service (oidc-provider + /api/items) at ${thirdParty.issuer}`);
  const items = startItemsServer({
    web,
    mcpIssuer: mcpAs.issuer,
    thirdParty: { issuer: thirdParty.issuer, ...THIRD_PARTY_CLIENT },
    say,
  });
  say(`setup    MCP server at ${resource} (bearer tokens only), connect pages at ${web.origin}/connect/`);

  const labels = new Map([
    [new URL(mcpAs.issuer).host, "MCP authorization server"],
    [new URL(thirdParty.issuer).host, "third party"],
    [new URL(web.origin).host, "MCP server"],
  ]);
  const userBrowser = new NarratedBrowser(labels, say);
  let browsing: Promise<void> = Promise.resolve();
  const browse = async (url: string) => {
    say("browser  opening the page; logging in as alice and consenting where asked");
    const page = await userBrowser.goSigningIn(url, "alice");
    const body = /<body>([\s\S]*)<\/body>/.exec(page.text)?.[1] ?? page.text;
    const text = body
      .replace(/<h1>.*?<\/h1>/, "")
      .replace(/<[^>]+>/g, " ")
      .replace(/\s+/g, " ")
      .trim();
    say(`browser  the last page says: ${text.slice(0, 120)}`);
  };

  const client = new McpClient({ name: "items-demo-client", version: "1.0.0" });
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

  try {
    // The client signs in in a window of its own; the hand-off page later opens in the user's
    // browser, which has no session yet and so logs in at the MCP authorization server anew.
    const token = await signInForMcp(new Browser(), { issuer: mcpAs.issuer, resource, login: "alice", say });
    await client.connect(
      new StreamableHttpClientTransport(new URL(resource), { headers: { authorization: `Bearer ${token}` } }),
    );
    say(`client   connected to ${client.serverInfo?.title ?? client.serverInfo?.name} as alice`);
    say("client   calling list_items {}");
    const result = await handoff.callTool({ name: "list_items", arguments: {} });
    await browsing;
    const text = result.content.map((block) => (block.type === "text" ? block.text : `[${block.type}]`)).join("\n");
    say(`client   the call returned${result.isError ? " an error" : ""}: ${text}`);
    return { text, isError: result.isError === true, storedSecret: await items.storedSecret("alice") };
  } finally {
    await client.close();
    await items.close();
    await Promise.all([mcpAs.close(), thirdParty.close(), close(web.server)]);
  }
}
