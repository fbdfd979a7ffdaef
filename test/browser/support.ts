/**
 * One end-to-end run in headless Chromium: the full demo's servers (MCP authorization server,
 * third-party service, MCP server with connect pages), a user's browser window, the client signed
 * in through its own window, and a `HandoffClient` that consents and hands the URL to the user's
 * window. Every MCP message the client sends and receives is kept, to name the wire form used.
 */

// The world's authorization servers run oidc-provider in development mode on purpose; its notices are noise here.
import "../../examples/demo/quiet-dev-servers.js";

import { type Chromium, type ChromiumWindow, chromiumPath, hasChromium } from "../../examples/demo/full/chromium.js";
import { signInForMcp } from "../../examples/demo/full/sign-in.js";
import type { Landing } from "../../examples/demo/full/user-agent.js";
import { type FullWorld, startFullWorld } from "../../examples/demo/full/world.js";
import { McpClient } from "../../src/client/index.js";
import { createConsentPolicy, HandoffClient, type UrlInteraction } from "../../src/interaction/client/index.js";
import type { JsonRpcMessage } from "../../src/jsonrpc/messages.js";
import { StreamableHttpClientTransport } from "../../src/transports/http/index.js";
import { browserTestsSkipped, missingChromium } from "./chromium-rule.js";

const chromiumLookup = () => ({ found: hasChromium(), path: chromiumPath() });

/**
 * Why the browser tests are skipped (one line, also printed once), or `undefined` when they run:
 * they skip without Chromium unless `CI` is set, and wherever `HANDOFF_SKIP_BROWSER=1`.
 */
export const SKIP_BROWSER: string | undefined = browserTestsSkipped(process.env, chromiumLookup());
if (SKIP_BROWSER !== undefined) console.warn(SKIP_BROWSER);

/** @throws Error naming what to install when there is no Chromium to run (under CI). */
export function requireChromium(): void {
  missingChromium(chromiumLookup());
}

/**
 * The stateful era's two wire forms, by the protocol version the client pins: URL elicitation
 * needs 2025-11-25; on 2025-06-18 the server falls back to the user-interaction proposal.
 */
export const WIRE = {
  "url-elicitation": { protocolVersion: "2025-11-25", kind: "elicitation" },
  "user-interaction": { protocolVersion: "2025-06-18", kind: "interaction" },
} as const;
/** Every wire form a run can use: the two above, or `input-required` (the client probes and speaks 2026-07-28). */
export type Wire = keyof typeof WIRE | "input-required";

export interface Wired {
  from: "client" | "server";
  message: JsonRpcMessage;
}

export interface Run {
  world: FullWorld;
  handoff: HandoffClient;
  /** The user's browser window (its own cookies), where the hand-off page opens. */
  window: ChromiumWindow;
  /** What the consent step showed, in order. */
  shown: UrlInteraction[];
  /** Status changes as `status`, in order. */
  statuses: string[];
  /** The servers' narration (which tool runs, what the vault stored). */
  lines: string[];
  /** MCP messages after `initialize` (after `server/discover` on 2026-07-28). */
  wire: Wired[];
  /** The page the user's browser landed on, once it has. */
  landed(): Promise<Landing>;
  close(): Promise<void>;
}

/**
 * Starts the world (the tool waits in the request when `waitInRequest`), signs `user` in for the
 * client in a window of its own, and connects pinning `WIRE[wire].protocolVersion` (probing for
 * `input-required`). The consent
 * answers `consent`; on yes the URL opens in `window` where `browserUser` logs in (default `user`).
 */
export async function startRun(
  chromium: Chromium,
  options: {
    wire: Wire;
    waitInRequest: boolean;
    user?: string;
    browserUser?: string;
    consent?: boolean;
    /** The client's wait between retries of an `InputRequiredResult` hand-off (default its own). */
    pollIntervalMs?: number;
    /** Called instead of opening the page at once; `browse()` opens it in the user's window. */
    open?: (url: string, browse: () => Promise<Landing>) => void;
  },
): Promise<Run> {
  const user = options.user ?? "alice";
  const lines: string[] = [];
  const say = (line: string) => lines.push(line);
  const world = await startFullWorld({ say, waitInRequest: options.waitInRequest });
  const window = await chromium.newWindow();
  const signInWindow = await chromium.newWindow();
  const client = new McpClient(
    { name: "browser-e2e-client", version: "1.0.0" },
    options.wire === "input-required" ? {} : { protocolVersion: WIRE[options.wire].protocolVersion },
  );
  const shown: UrlInteraction[] = [];
  const statuses: string[] = [];
  let landing: Promise<Landing> | undefined;
  const handoff = new HandoffClient(client, {
    serverUrl: world.resource,
    timeoutMs: 60_000,
    ...(options.pollIntervalMs === undefined ? {} : { pollIntervalMs: options.pollIntervalMs }),
    onInteraction: createConsentPolicy({
      print: () => {},
      confirm: async (_question, { interaction }) => {
        shown.push(interaction);
        return options.consent !== false;
      },
      open: async (url) => {
        const browse = () => {
          landing = window.signIn(url, options.browserUser ?? user);
          return landing;
        };
        if (options.open) options.open(url, browse);
        else void browse();
      },
    }),
  });
  handoff.onstatus = (_interaction, status) => statuses.push(status);

  const wire: Wired[] = [];
  try {
    const token = await signInForMcp(signInWindow, {
      issuer: world.mcpIssuer,
      resource: world.resource,
      login: user,
      say,
    });
    const transport = new StreamableHttpClientTransport(new URL(world.resource), {
      headers: { authorization: `Bearer ${token}` },
    });
    const send = transport.send.bind(transport);
    transport.send = (message, sendOptions) => {
      wire.push({ from: "client", message: structuredClone(message) });
      return send(message, sendOptions);
    };
    await client.connect(transport);
    const receive = transport.onmessage;
    transport.onmessage = (message, extra) => {
      for (const one of Array.isArray(message) ? message : [message]) wire.push({ from: "server", message: one });
      receive?.(message, extra);
    };
  } catch (error) {
    await Promise.allSettled([client.close(), window.close(), signInWindow.close(), world.close()]);
    throw error;
  }
  return {
    world,
    handoff,
    window,
    shown,
    statuses,
    lines,
    wire,
    landed: () => landing ?? Promise.reject(new Error("The page was never opened")),
    close: async () => {
      await client.close();
      await Promise.allSettled([window.close(), signInWindow.close()]);
      await world.close();
    },
  };
}

/** The methods of the requests and notifications `from` sent, in order. */
export function methods(run: Run, from: "client" | "server"): string[] {
  return run.wire.flatMap((w) => (w.from === from && "method" in w.message ? [w.message.method] : []));
}

/** The error codes of the server's error responses, in order. */
export function errorCodes(run: Run): number[] {
  return run.wire.flatMap((w) => (w.from === "server" && "error" in w.message ? [w.message.error.code] : []));
}
