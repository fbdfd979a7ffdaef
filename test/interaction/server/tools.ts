/**
 * The tools the hand-off tests call: `connect` asks with `ctx.interact` and waits for completion;
 * `repos` throws `InteractionRequired` until the test marks the user as linked.
 */
import type { InteractionManager } from "../../../src/interaction/server/index.js";
import type { JsonRpcSession, Params } from "../../../src/jsonrpc/session.js";
import { InteractionRequired, type McpServer } from "../../../src/server/index.js";
import { CONNECT_MESSAGE, CONNECT_URL, newServer } from "./support.js";

export interface HandoffServer {
  server: McpServer;
  /** `issuer subject` of users whose `repos` call succeeds. */
  linked: Set<string>;
}

export function handoffServer(manager: InteractionManager | undefined): HandoffServer {
  const server = newServer(manager);
  const linked = new Set<string>();
  server.registerTool("connect", { description: "Links a GitHub account" }, async (_args, ctx) => {
    const outcome = await ctx.interact({ url: CONNECT_URL, message: CONNECT_MESSAGE, purpose: { provider: "github" } });
    if (outcome.action !== "accept") return { content: [{ type: "text", text: `The user chose ${outcome.action}.` }] };
    const done = await ctx.waitForInteraction(outcome.interaction.id);
    return { content: [{ type: "text", text: `GitHub is ${done.status === "completed" ? "linked" : done.status}.` }] };
  });
  server.registerTool("repos", { description: "Lists GitHub repositories" }, async (_args, ctx) => {
    const user = ctx.authInfo ? `${ctx.authInfo.issuer} ${ctx.authInfo.subject}` : "local alice";
    if (!linked.has(user)) throw new InteractionRequired({ url: CONNECT_URL, message: CONNECT_MESSAGE });
    return { content: [{ type: "text", text: "octo/hello-world" }] };
  });
  return { server, linked };
}

export function callTool(client: JsonRpcSession, name: string): Promise<Params> {
  return client.request("tools/call", { name, arguments: {} });
}
