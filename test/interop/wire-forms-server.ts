/**
 * One hand-off server for `wire-forms.test.ts`: our McpServer over Streamable HTTP on 127.0.0.1,
 * serving both eras on one endpoint, with two tools that need the user to link GitHub first:
 * `repos` throws `InteractionRequired` (what `ctx.credentials.require` does by default) and
 * `repos_wait` calls `ctx.interact` and waits (what `require(…, { wait: true })` does); with
 * `inbox`, the hand-off ladder's last rung is on (`handoffs.inbox`). Every
 * JSON-RPC message in and out of the server is recorded, and `wireForm` names the hand-off's
 * steps as a client met them.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { InteractionManager } from "../../src/interaction/server/index.js";
import type { Transport } from "../../src/jsonrpc/transport.js";
import { InteractionRequired, McpServer } from "../../src/server/index.js";
import { InProcessMessageBus, MemoryInteractionStore } from "../../src/stores/index.js";
import { StreamableHttpServer, toNodeHandler } from "../../src/transports/http/index.js";

export const USER = { issuer: "local", subject: "alice" };
export const PAGE = "https://mcp.example.com/connect/github";
export const MESSAGE = "Link your GitHub account so the server can list your repositories.";
export const LINKED = "octo/hello-world";
/** The fixed inbox page of the ladder's last rung, when a server turns it on. */
export const INBOX = "https://mcp.example.com/connect/inbox";

type Wire = { dir: "in" | "out"; message: Record<string, unknown> };

/** Records what `transport` carries, in order, before the server sees it or after it sent it. */
function recorded(transport: Transport, wire: Wire[]): Transport {
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    wire.push({ dir: "out", message: message as unknown as Record<string, unknown> });
    return send(message, options);
  };
  const start = transport.start.bind(transport);
  transport.start = () => {
    const deliver = transport.onmessage;
    transport.onmessage = (message, extra) => {
      for (const one of Array.isArray(message) ? message : [message]) {
        wire.push({ dir: "in", message: one as unknown as Record<string, unknown> });
      }
      deliver?.(message, extra);
    };
    return start();
  };
  return transport;
}

export async function startHandoffServer(options: { inbox?: boolean } = {}) {
  const manager = new InteractionManager({
    store: new MemoryInteractionStore(),
    bus: new InProcessMessageBus(),
    unsafeLocalUser: USER,
  });
  const created: string[] = [];
  const create = manager.create.bind(manager);
  manager.create = async (input) => {
    const interaction = await create(input);
    created.push(interaction.id);
    return interaction;
  };
  let linked = false;
  const mcp = new McpServer(
    { name: "wire-forms", version: "1.0.0" },
    { interactions: manager, ...(options.inbox ? { handoffs: { inbox: { url: INBOX } } } : {}) },
  );
  mcp.registerTool("repos", { description: "Lists your GitHub repositories" }, () => {
    if (!linked) throw new InteractionRequired({ url: PAGE, message: MESSAGE });
    return { content: [{ type: "text", text: LINKED }] };
  });
  mcp.registerTool("repos_wait", { description: "Lists your GitHub repositories" }, async (_args, ctx) => {
    if (!linked) {
      const outcome = await ctx.interact({ url: PAGE, message: MESSAGE });
      if (outcome.action !== "accept") return { content: [{ type: "text", text: outcome.action }], isError: true };
      await ctx.waitForInteraction(outcome.interaction.id);
    }
    return { content: [{ type: "text", text: LINKED }] };
  });
  const wire: Wire[] = [];
  const endpoint = new StreamableHttpServer({
    onsession: (transport) => void mcp.connect(recorded(transport, wire)),
    onrequest: (transport) => mcp.connect(recorded(transport, wire)),
  });
  const handle = toNodeHandler(endpoint);
  const http: Server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const url = new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`);
  return {
    url,
    wire,
    /** The user finishes the page: the web side completes the newest pending interaction. */
    async finish(): Promise<void> {
      linked = true;
      const id = created.at(-1);
      if (id !== undefined) await manager.complete(id, { user: USER }).catch(() => {});
    },
    async close(): Promise<void> {
      await endpoint.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

const PROTOCOL_VERSION_META = "io.modelcontextprotocol/protocolVersion";
const CLIENT_CAPABILITIES_META = "io.modelcontextprotocol/clientCapabilities";

/** The revision the client spoke: the `initialize` answer's, else the first request's `_meta`. */
export function revisionOf(wire: readonly Wire[]): string {
  for (const { dir, message } of wire) {
    const result = message.result as Record<string, unknown> | undefined;
    if (dir === "out" && typeof result?.protocolVersion === "string" && result.serverInfo)
      return result.protocolVersion;
    const meta = (message.params as { _meta?: Record<string, unknown> } | undefined)?._meta;
    if (dir === "in" && typeof meta?.[PROTOCOL_VERSION_META] === "string") return meta[PROTOCOL_VERSION_META] as string;
  }
  return "none";
}

/**
 * The `elicitation` capability the client declared for its `tools/call`: in `initialize`, or in the
 * request's `_meta` on 2026-07-28; `none` when it declared none; and `userInteraction` when it
 * declared the proposal's capability too.
 */
export function elicitationOf(wire: readonly Wire[]): string {
  for (const { dir, message } of wire) {
    if (dir !== "in") continue;
    const params = message.params as { capabilities?: unknown; _meta?: Record<string, unknown> } | undefined;
    const declared =
      message.method === "initialize"
        ? params?.capabilities
        : message.method === "tools/call"
          ? params?._meta?.[CLIENT_CAPABILITIES_META]
          : undefined;
    if (declared === undefined) continue;
    const { elicitation, userInteraction } = declared as {
      elicitation?: Record<string, unknown>;
      userInteraction?: unknown;
    };
    const modes = elicitation === undefined ? [] : Object.keys(elicitation).sort();
    const named =
      elicitation === undefined ? "none" : modes.length === 0 ? "form (`elicitation: {}`)" : modes.join(", ");
    return userInteraction === undefined ? named : `${named}; \`userInteraction\``;
  }
  return "none";
}

const isUrlElicitation = (request: unknown) => {
  const r = request as { method?: string; params?: { mode?: string; url?: string } };
  return r.method === "elicitation/create" && r.params?.mode === "url" && r.params.url === PAGE;
};

/**
 * The hand-off's steps, from the first `tools/call` on, as a client met them; repeated steps
 * (a held retry answered with a fresh round) are named once.
 */
export function wireForm(wire: readonly Wire[]): string {
  const steps: string[] = [];
  const calls = new Set<unknown>();
  const add = (step: string) => {
    if (steps.at(-1) !== step) steps.push(step);
  };
  for (const { dir, message } of wire) {
    const params = message.params as Record<string, unknown> | undefined;
    if (dir === "in" && message.method === "tools/call") {
      if (calls.size > 0) add(params?.requestState === undefined ? "retry" : "retry with `requestState`");
      calls.add(message.id);
      continue;
    }
    if (dir !== "out" || calls.size === 0) continue;
    if (message.method === "elicitation/create" && isUrlElicitation(message)) add("`elicitation/create` (mode url)");
    else if (message.method === "interaction/create") add("`interaction/create`");
    else if (message.method === "notifications/elicitation/complete") add("`notifications/elicitation/complete`");
    if (!calls.has(message.id)) continue;
    const error = message.error as { code?: number } | undefined;
    const result = message.result as Record<string, unknown> | undefined;
    if (error) add(`error ${error.code}`);
    else if (result?.resultType === "input_required") {
      const requests = Object.values((result.inputRequests ?? {}) as Record<string, unknown>);
      add(requests.some(isUrlElicitation) ? "`InputRequiredResult` (URL-mode elicitation)" : "`InputRequiredResult`");
    } else if (result?.isError === true) {
      const text = JSON.stringify(result);
      add(
        text.includes(PAGE)
          ? "tool error with the URL"
          : text.includes(INBOX)
            ? "tool error naming the inbox"
            : "tool error without the URL",
      );
    } else if (result) add("result");
  }
  return steps.join(" → ");
}
