/**
 * HandoffClient against an McpServer whose tools hand off with `ctx.interact` and
 * `InteractionRequired`. The server picks the wire form: URL-mode elicitation where the revision
 * has it, the user-interaction proposal (interaction/create, -32003, interaction/track) on older
 * revisions. The client's handler sees the same UrlInteraction either way.
 */
import { describe, expect, it } from "vitest";
import { McpClient } from "../../../src/client/index.js";
import { HandoffClient, type UrlInteraction } from "../../../src/interaction/client/index.js";
import { InteractionManager } from "../../../src/interaction/server/index.js";
import type { JsonRpcMessage } from "../../../src/jsonrpc/messages.js";
import type { Transport } from "../../../src/jsonrpc/transport.js";
import { InteractionRequired, McpServer } from "../../../src/server/index.js";
import { InProcessMessageBus, MemoryInteractionStore } from "../../../src/stores/index.js";
import { createMemoryTransportPair } from "../../../src/transports/memory.js";

const USER = { issuer: "local", subject: "alice" };
const CONNECT_URL = "https://mcp.example.com/connect/github";

/** Keeps the method of every message the client sends. */
function recording(inner: Transport, sent: string[]): Transport {
  const send = inner.send.bind(inner);
  inner.send = (message: JsonRpcMessage, options) => {
    if ("method" in message) sent.push(message.method);
    return send(message, options);
  };
  return inner;
}

async function setup(protocolVersion: string, answer: "accept" | "decline" = "accept") {
  const manager = new InteractionManager({
    store: new MemoryInteractionStore(),
    bus: new InProcessMessageBus(),
    unsafeLocalUser: USER,
  });
  const server = new McpServer({ name: "handoff-server", version: "1.0.0" }, { interactions: manager });
  let linked = false;
  server.registerTool("connect", {}, async (_args, ctx) => {
    const outcome = await ctx.interact({ url: CONNECT_URL, message: "Connect your GitHub account." });
    if (outcome.action !== "accept") return { content: [{ type: "text", text: outcome.action }] };
    const done = await ctx.waitForInteraction(outcome.interaction.id);
    return { content: [{ type: "text", text: done.status }] };
  });
  server.registerTool("repos", {}, () => {
    if (!linked) throw new InteractionRequired({ url: CONNECT_URL, message: "Connect your GitHub account." });
    return { content: [{ type: "text", text: "octo/hello-world" }] };
  });

  const shown: UrlInteraction[] = [];
  const client = new McpClient({ name: "test-client", version: "1.0.0" }, { protocolVersion });
  const handoff = new HandoffClient(client, {
    onInteraction: async (interaction) => {
      shown.push(interaction);
      if (answer !== "accept") return answer;
      // The user finishes in the browser: the connect page completes the interaction.
      setTimeout(() => {
        linked = true;
        void manager.complete(interaction.id, { user: USER });
      }, 0);
      return "accept";
    },
  });
  const sent: string[] = [];
  const [clientEnd, serverEnd] = createMemoryTransportPair();
  await server.connect(serverEnd);
  await client.connect(recording(clientEnd, sent));
  return { handoff, shown, sent };
}

describe.each([
  ["2025-06-18", "interaction", "interaction/track"],
  ["2025-11-25", "elicitation", undefined],
] as const)("on %s the server hands off as %s", (version, kind, tracking) => {
  it("a -32003 or -32042 answer: consent, completion, and the retried call succeeds", async () => {
    const { handoff, shown, sent } = await setup(version);
    const result = await handoff.callTool({ name: "repos" });
    expect(result.content).toEqual([{ type: "text", text: "octo/hello-world" }]);
    expect(shown).toMatchObject([
      { kind, source: "error", url: CONNECT_URL, message: "Connect your GitHub account.", warnings: [] },
    ]);
    expect(sent.filter((method) => method === "tools/call")).toHaveLength(2);
    if (tracking) expect(sent).toContain(tracking);
  });

  it("a hand-off during the request: consent goes back, the tool sees the completion", async () => {
    const { handoff, shown } = await setup(version);
    const result = await handoff.callTool({ name: "connect" });
    expect(result.content).toEqual([{ type: "text", text: "completed" }]);
    expect(shown).toMatchObject([{ kind, source: "request", host: "mcp.example.com" }]);
  });

  it("a declined hand-off during the request reaches the tool as decline", async () => {
    const { handoff } = await setup(version, "decline");
    const result = await handoff.callTool({ name: "connect" });
    expect(result.content).toEqual([{ type: "text", text: "decline" }]);
  });
});
