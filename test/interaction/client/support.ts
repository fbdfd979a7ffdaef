/**
 * A real `McpServer` and an `McpClient` wrapped in a `HandoffClient`, joined by an in-memory pair.
 * The server's tools ask for hand-offs both ways: during the request (URL-mode elicitation) and
 * as a -32042 error until the test marks the hand-off done.
 */
import { McpClient } from "../../../src/client/index.js";
import {
  HandoffClient,
  type HandoffClientOptions,
  type InteractionAnswer,
  type InteractionContext,
  type UrlInteraction,
} from "../../../src/interaction/client/index.js";
import { UrlElicitationRequiredError } from "../../../src/jsonrpc/errors.js";
import type { InteractionStatus } from "../../../src/model/interaction.js";
import { McpServer, type ServerSession } from "../../../src/server/index.js";
import { createMemoryTransportPair } from "../../../src/transports/memory.js";

export const SERVER_INFO = { name: "github-bridge", version: "1.0.0", title: "GitHub Bridge" };
export const CONNECT_URL = "https://mcp.example.com/connect/e-1";

type Handler = (interaction: UrlInteraction, ctx: InteractionContext) => Promise<InteractionAnswer>;

export interface Rig {
  handoff: HandoffClient;
  client: McpClient;
  server: McpServer;
  session: ServerSession;
  /** What the handler was shown, in order. */
  shown: UrlInteraction[];
  /** Every status change, as `id:status`. */
  statuses: string[];
  /** How often each tool ran. */
  calls: Record<string, number>;
  /** Hand-offs the server regards as done; tools needing one of these succeed. */
  done: Set<string>;
  /** What a tool that asked during its request got back. */
  answers: string[];
}

export interface RigOptions extends Partial<Omit<HandoffClientOptions, "onInteraction">> {
  /** The URL -32042 lists for `files`; default CONNECT_URL. */
  requiredUrl?: string | ((round: number) => string);
  /** Whether `ask` completes its elicitation right after an accept; default true. */
  completeAfterAccept?: boolean;
}

/**
 * Tools: `files` fails with -32042 (elicitation `e-1`) until `done` has `e-1`; `ask` asks for a
 * URL-mode elicitation during the request and, when accepted, completes it before answering.
 * Resource `docs://private` and prompt `private` fail the same way as `files`.
 */
export async function rig(handler: Handler, options: RigOptions = {}): Promise<Rig> {
  const calls: Record<string, number> = {};
  const done = new Set<string>();
  const answers: string[] = [];
  const server = new McpServer(SERVER_INFO);
  const needs = (name: string) => {
    calls[name] = (calls[name] ?? 0) + 1;
    if (done.has("e-1")) return;
    const url = typeof options.requiredUrl === "function" ? options.requiredUrl(calls[name]) : options.requiredUrl;
    throw new UrlElicitationRequiredError([
      { mode: "url", elicitationId: "e-1", url: url ?? CONNECT_URL, message: "Connect your GitHub account." },
    ]);
  };
  server.registerTool("files", {}, () => {
    needs("files");
    return { content: [{ type: "text", text: "3 files" }] };
  });
  server.registerTool("ask", {}, async (_args, ctx) => {
    calls.ask = (calls.ask ?? 0) + 1;
    const result = await ctx.elicit({
      mode: "url",
      url: options.requiredUrl?.toString() ?? CONNECT_URL,
      message: "Sign in.",
    });
    answers.push(result.action);
    if (result.action === "accept" && options.completeAfterAccept !== false) {
      await ctx.session.notifyElicitationComplete(result.elicitationId);
    }
    return { content: [{ type: "text", text: result.action }] };
  });
  server.registerResource("private", "docs://private", {}, (uri) => {
    needs("resource");
    return { contents: [{ uri, text: "secret plans" }] };
  });
  server.registerPrompt("private", {}, () => {
    needs("prompt");
    return { messages: [{ role: "user", content: { type: "text", text: "hello" } }] };
  });

  // These tools speak the stateful wire forms (elicitation/create, -32042 and its completion
  // notification), so the client proposes 2025-11-25 rather than probing for 2026-07-28.
  const client = new McpClient({ name: "test-client", version: "1.0.0" }, { protocolVersion: "2025-11-25" });
  const shown: UrlInteraction[] = [];
  const statuses: string[] = [];
  const handoff = new HandoffClient(client, {
    ...options,
    onInteraction: (interaction, ctx) => {
      shown.push(interaction);
      return handler(interaction, ctx);
    },
  });
  handoff.onstatus = (interaction: UrlInteraction, status: InteractionStatus) => {
    statuses.push(`${interaction.id}:${status}`);
  };
  const [clientEnd, serverEnd] = createMemoryTransportPair();
  const session = await server.connect(serverEnd);
  await client.connect(clientEnd);
  return { handoff, client, server, session, shown, statuses, calls, done, answers };
}

/** Lets every queued message and promise callback run. */
export async function flush(rounds = 20): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}
