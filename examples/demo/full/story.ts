/**
 * `npm run demo -- --full`: the whole hand-off with real parts, on 127.0.0.1.
 *
 * 1. Two OAuth servers start (`oidc-provider`): the MCP authorization server (users log in by
 *    name) and a third-party service with an `/api/items` API; then the MCP server, whose tool
 *    `list_items` needs the user's own grant at the third party.
 * 2. The client signs alice in (authorization code + PKCE) and calls `list_items` with her token.
 * 3. No grant is stored yet: the server answers with a hand-off to its connect page. The client
 *    probes with `server/discover` and speaks 2026-07-28, so the hand-off is a URL-mode
 *    elicitation inside an `InputRequiredResult`; pinned to 2025-11-25 (`--revision`) it is error
 *    -32042 and the completion notification.
 * 4. The client shows the consent text; after a (scripted) yes it hands the URL to the browser:
 *    headless Chromium where installed, else a scripted HTTP user agent (see browsers.ts).
 * 5. The browser logs in as alice at the MCP authorization server, confirms on the connect page
 *    that it is her account being linked, and consents at the third party;
 *    the callback stores the token in the encrypted vault and completes the hand-off.
 * 6. The client retries the call (on 2026-07-28 once the user is done, echoing `requestState`),
 *    which now returns alice's items. The client never sees that token.
 * 7. The client lists alice's connections (`connections_list`) and disconnects the third party
 *    (`connections_disconnect`): the server revokes the grant at the third party's revocation
 *    endpoint (RFC 7009), which says so, and deletes its copy. The same list and button are on
 *    the page `/connect/connections`.
 */
import { McpClient } from "../../../src/client/index.js";
import { createConsentPolicy, HandoffClient, type UrlInteraction } from "../../../src/interaction/client/index.js";
import type { UserRef } from "../../../src/model/identity.js";
import type { AuditLog } from "../../../src/stores/index.js";
import { StreamableHttpClientTransport } from "../../../src/transports/http/index.js";
import { failIfAsked } from "../fail.js";
import type { Revocation } from "./authorization-servers.js";
import { type BrowserChoice, type Browsers, openBrowsers } from "./browsers.js";
import { signInForMcp } from "./sign-in.js";
import { type FullWorld, startFullWorld } from "./world.js";

/**
 * What the run left behind, for checks: the call's text, the third-party token the vault held
 * before the disconnect, and what the third party revoked.
 */
export interface FullDemoResult {
  text: string;
  isError: boolean;
  storedSecret: string | undefined;
  /** Alice as the MCP server knows her: the MCP authorization server's issuer and her subject. */
  alice: UserRef;
  /** Every secret of the run (`FullWorld.secretsUsed`), for checks that none leaked. */
  secretsUsed: string[];
  /** The tokens the third party's revocation endpoint destroyed, in order. */
  revocations: readonly Revocation[];
}

export interface FullDemoOptions {
  /** Who plays the user's browser; default `auto` (headless Chromium if installed). */
  browser?: BrowserChoice;
  /**
   * The revision the client proposes, pinned (e.g. `2025-11-25` for the stateful era); default
   * none: the client probes with `server/discover` and speaks 2026-07-28 with this server.
   */
  revision?: string;
  /** The MCP server's audit log (`docs/audit.md`); default one in memory, dropped with the run. */
  audit?: AuditLog;
}

/** How the hand-off reached the client, for the narration: the wire form, not just the URL. */
function wireForm(client: McpClient, interaction: UrlInteraction): string {
  if (interaction.kind === "elicitation") {
    if (client.isStateless) return "input required: URL elicitation in InputRequiredResult (retried with requestState)";
    return interaction.source === "request"
      ? "URL elicitation: elicitation/create during the call"
      : "URL elicitation required: error -32042, retried after notifications/elicitation/complete";
  }
  return interaction.source === "request"
    ? "user interaction: interaction/create during the call"
    : "user interaction required: error -32003, retried once tracked as done";
}

/**
 * The hand-off's id as the server issued it. 2026-07-28 carries no `elicitationId`, so the
 * client keys such a hand-off by its URL; this server puts its interaction id last in the
 * connect page's path (`/connect/<id>`), which is also the `elicitationId` on 2025-11-25.
 */
export function interactionIdOf(interaction: UrlInteraction): string {
  const last = new URL(interaction.url).pathname.split("/").pop();
  return last === undefined || last === "" ? interaction.id : decodeURIComponent(last);
}

/** At most `max` characters of `text`, cut at a word and marked so when cut. */
export function clip(text: string, max = 160): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(" "), 1))}…`;
}

export async function runFullDemo(say: (line: string) => void, options: FullDemoOptions = {}): Promise<FullDemoResult> {
  const world = await startFullWorld({ say, ...(options.audit === undefined ? {} : { audit: options.audit }) });
  let browsers: Browsers | undefined;
  let client: McpClient | undefined;
  // Whatever step fails, everything started so far is closed before the error goes on.
  try {
    client = new McpClient(
      { name: "items-demo-client", version: "1.0.0" },
      options.revision === undefined ? {} : { protocolVersion: options.revision },
    );
    browsers = await openBrowsers(options.browser ?? "auto", world.labels, say);
    return await tell(client, world, browsers, say);
  } finally {
    await client?.close();
    await browsers?.close();
    await world.close();
  }
}

/** The story's end: alice's connections, then the third party disconnected (and revoked there). */
async function disconnectItems(client: McpClient, say: (line: string) => void): Promise<void> {
  const textOf = (result: { content: { type: string; text?: string }[] }) =>
    result.content.map((block) => (block.type === "text" ? (block.text ?? "") : `[${block.type}]`)).join("\n");
  say("client   calling connections_list {}");
  const listed = await client.callTool({ name: "connections_list", arguments: {} });
  for (const line of textOf(listed).split("\n")) say(`client   | ${line}`);
  say('client   calling connections_disconnect { provider: "items" }');
  const done = await client.callTool({ name: "connections_disconnect", arguments: { provider: "items" } });
  say(`client   the server says: ${textOf(done)}`);
}

async function tell(
  client: McpClient,
  world: FullWorld,
  opened: Browsers,
  say: (line: string) => void,
): Promise<FullDemoResult> {
  const { resource } = world;
  let browsing: Promise<void> = Promise.resolve();
  let shown: UrlInteraction | undefined;
  const browse = async (url: string) => {
    say("browser  opening the page; logging in as alice, confirming the account and consenting where asked");
    const page = await opened.user.signIn(url, "alice");
    say(`browser  the last page says: ${clip(page.text)}`);
    // On 2026-07-28 this server holds the retry until the page is done; against one that does
    // not, the user's "done" is what makes the client retry now instead of at its next poll.
    if (client.isStateless && shown !== undefined) handoff.userDone(shown.id);
  };

  const consent = createConsentPolicy({
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
      // Awaited after the call; a browser step that fails meanwhile is reported there.
      browsing.catch(() => {});
    },
  });
  const handoff = new HandoffClient(client, {
    serverUrl: resource,
    timeoutMs: 30_000,
    // The server holds the retry on 2026-07-28; the user's "done" and the poll serve one that does not.
    pollIntervalMs: 15_000,
    onInteraction: (interaction, ctx) => {
      shown = interaction;
      say(`client   ${wireForm(client, interaction)}`);
      return consent(interaction, ctx);
    },
  });
  handoff.onstatus = (interaction, status) => {
    say(`client   hand-off ${interactionIdOf(interaction)}: ${status}`);
    if (client.isStateless && status === "accepted") {
      say(
        "client   retrying list_items at once with the server's requestState; the server holds it until the page is done",
      );
    }
  };

  // The client signs in in a window of its own; the hand-off page later opens in the user's
  // browser, which has no session yet and so logs in at the MCP authorization server anew.
  failIfAsked("sign-in");
  const token = await signInForMcp(opened.signIn, { issuer: world.mcpIssuer, resource, login: "alice", say });
  await client.connect(
    new StreamableHttpClientTransport(new URL(resource), { headers: { authorization: `Bearer ${token}` } }),
  );
  const era = client.isStateless ? "server/discover, no session" : "initialize, one session";
  say(`client   connected to ${client.serverInfo?.title ?? client.serverInfo?.name} as alice`);
  say(`client   negotiated revision ${client.protocolVersion} (${era})`);
  say("client   calling list_items {}");
  const result = await handoff.callTool({ name: "list_items", arguments: {} });
  await browsing;
  const text = result.content.map((block) => (block.type === "text" ? block.text : `[${block.type}]`)).join("\n");
  say(`client   the call returned${result.isError ? " an error" : ""}: ${text}`);
  // Read before the disconnect deletes it: the checks look for it in everything printed.
  const storedSecret = await world.storedSecret("alice");
  const secretsUsed = await world.secretsUsed(["alice"]);
  await disconnectItems(client, say);
  return {
    text,
    isError: result.isError === true,
    storedSecret,
    alice: { issuer: world.mcpIssuer, subject: "alice" },
    secretsUsed,
    revocations: [...world.revocations],
  };
}
