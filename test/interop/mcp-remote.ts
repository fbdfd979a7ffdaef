/**
 * `mcp-remote` (the stdio bridge desktop clients run in front of a remote MCP server) between our
 * client and the full demo's MCP server: the bridge runs as a child over stdio, signs in at the
 * demo's MCP authorization server with dynamic client registration and PKCE, and relays the
 * hand-off to the client. Its sign-in page is opened by the test's user agent, from the
 * authorization URL the bridge prints, as a person would paste it; its own browser opener is
 * pointed at a no-op.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { UserAgent } from "../../examples/demo/full/user-agent.js";
import { McpClient } from "../../src/client/index.js";
import { createConsentPolicy, HandoffClient, type UrlInteraction } from "../../src/interaction/client/index.js";
import { StdioClientTransport } from "../../src/transports/stdio/index.js";

/** How `mcp-remote` talks to the remote server: `legacy` passes 2025-11-25 through; `auto` speaks 2026-07-28 when offered. */
export type BridgeProtocol = "legacy" | "auto";

export interface Bridged {
  client: McpClient;
  handoff: HandoffClient;
  /** Each hand-off the consent step was shown, in order. */
  shown: UrlInteraction[];
  /** Everything the bridge wrote on stderr so far. */
  stderr(): string;
  /** The page the user's browser ended on after the hand-off, once it has. */
  landed(): Promise<{ text: string; status: number } | undefined>;
  close(): Promise<void>;
}

/** A free TCP port on 127.0.0.1, for the bridge's OAuth callback listener. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

const bridgeEntry = createRequire(import.meta.url).resolve("mcp-remote/dist/proxy.js");

/**
 * Starts `mcp-remote <resource>` with its callback on 127.0.0.1 and its state in a fresh
 * directory (`MCP_REMOTE_CONFIG_DIR`, removed on close), drives its sign-in in `browser` as
 * `login`, and connects our client to it over stdio, pinned to 2025-11-25: the bridge speaks
 * that era to its local client whatever it speaks to the remote server.
 */
export async function startBridged(options: {
  resource: string;
  browser: UserAgent;
  login: string;
  protocol: BridgeProtocol;
}): Promise<Bridged> {
  const { resource, browser, login } = options;
  const configDir = mkdtempSync(join(tmpdir(), "mcp-remote-"));
  const port = await freePort();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bridgeEntry, resource, String(port), "--host", "127.0.0.1", "--protocol", options.protocol],
    // Its browser opener does nothing: the test's user agent opens the printed URL instead.
    env: { MCP_REMOTE_CONFIG_DIR: configDir, BROWSER: "true" },
    stderr: "pipe",
  });
  let stderr = "";
  let signingIn: Promise<unknown> | undefined;
  transport.stderr?.setEncoding("utf8");
  transport.stderr?.on("data", (chunk: string) => {
    stderr += chunk;
    const url = /Please authorize this client by visiting:\s*(\S+)/.exec(stderr)?.[1];
    if (url !== undefined && signingIn === undefined) {
      // Settled in close(): the browser is closed after this bridge, never under a sign-in.
      signingIn = browser.signIn(url, login).catch((error: unknown) => error);
    }
  });

  const client = new McpClient({ name: "bridged-client", version: "1.0.0" }, { protocolVersion: "2025-11-25" });
  const shown: UrlInteraction[] = [];
  let browsing: Promise<{ text: string; status: number }> | undefined;
  const consent = createConsentPolicy({
    print: () => {},
    confirm: async () => true,
    open: async (url) => {
      browsing = browser.signIn(url, login);
      browsing.catch(() => {});
    },
  });
  const handoff = new HandoffClient(client, {
    timeoutMs: 60_000,
    pollIntervalMs: 15_000,
    onInteraction: (interaction, ctx) => {
      shown.push(interaction);
      return consent(interaction, ctx);
    },
  });
  const close = async () => {
    await signingIn;
    await browsing?.catch(() => {});
    await client.close();
    rmSync(configDir, { recursive: true, force: true });
  };
  try {
    // The bridge reads its client's `initialize` once it has signed in at the remote server.
    await client.connect(transport, { timeoutMs: 90_000 });
  } catch (error) {
    await close();
    throw new Error(`mcp-remote did not connect: ${error instanceof Error ? error.message : error}\n${stderr}`);
  }
  return {
    client,
    handoff,
    shown,
    stderr: () => stderr,
    landed: async () => browsing,
    close,
  };
}
