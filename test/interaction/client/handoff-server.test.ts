/**
 * `HandoffClient` against this package's own `McpServer` with an `InteractionManager`, in both
 * eras: `repos` throws `InteractionRequired` until the user linked their account, `connect` hands
 * off with `ctx.interact` and waits for the page. On 2026-07-28 the server holds the retry that
 * follows consent, so the client needs no pacing to finish a hand-off.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { McpClient } from "../../../src/client/index.js";
import {
  HandoffClient,
  HandoffError,
  type InteractionAnswer,
  type PacerClock,
} from "../../../src/interaction/client/index.js";
import { InteractionManager } from "../../../src/interaction/server/index.js";
import type { JsonRpcMessage } from "../../../src/jsonrpc/messages.js";
import { InteractionRequired, McpServer } from "../../../src/server/index.js";
import { InProcessMessageBus, MemoryInteractionStore } from "../../../src/stores/index.js";
import { createMemoryTransportPair } from "../../../src/transports/memory.js";
import { untilTurns as until } from "../../support/turns.js";

const USER = { issuer: "local", subject: "alice" };
const PAGE = "https://mcp.example.com/connect/github";
const MESSAGE = "Connect your GitHub account so the server can list your repositories.";

/** Timers that never fire: a client that needed its poll interval would wait for ever. */
const frozen: PacerClock = { now: () => 0, setTimeout: () => 0, clearTimeout: () => {} };

async function rig(version: "2025-11-25" | "2026-07-28", answer: InteractionAnswer) {
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
  const held: string[] = [];
  const wait = manager.waitForCompletion.bind(manager);
  manager.waitForCompletion = (id, signal) => {
    held.push(id);
    return wait(id, signal);
  };
  const server = new McpServer({ name: "github-bridge", version: "1.0.0" }, { interactions: manager });
  const seen: string[] = [];
  let linked = false;
  server.registerTool("repos", { description: "Lists GitHub repositories" }, () => {
    if (!linked) throw new InteractionRequired({ url: PAGE, message: MESSAGE });
    return { content: [{ type: "text", text: "octo/hello-world" }] };
  });
  server.registerTool("connect", { description: "Links a GitHub account" }, async (_args, ctx) => {
    const outcome = await ctx.interact({ url: PAGE, message: MESSAGE });
    seen.push(outcome.action);
    if (outcome.action !== "accept") return { content: [{ type: "text", text: `The user chose ${outcome.action}.` }] };
    const done = await ctx.waitForInteraction(outcome.interaction.id);
    return { content: [{ type: "text", text: `GitHub is ${done.status === "completed" ? "linked" : done.status}.` }] };
  });
  const [clientEnd, serverEnd] = createMemoryTransportPair();
  await server.connect(serverEnd);
  const sent: JsonRpcMessage[] = [];
  const send = clientEnd.send.bind(clientEnd);
  clientEnd.send = (message, options) => {
    sent.push(structuredClone(message));
    return send(message, options);
  };
  const client = new McpClient({ name: "agent", version: "1.0.0" }, { protocolVersion: version });
  let asked = 0;
  const statuses: string[] = [];
  const handoff = new HandoffClient(client, {
    clock: frozen,
    onInteraction: async () => {
      asked++;
      return answer;
    },
  });
  handoff.onstatus = (_interaction, status) => statuses.push(status);
  await client.connect(clientEnd);
  const calls = () => sent.filter((m) => "method" in m && m.method === "tools/call").length;
  const finish = async (id: string) => {
    linked = true;
    await manager.complete(id, { user: USER });
  };
  return {
    handoff,
    client,
    manager,
    created,
    held,
    seen,
    statuses,
    finish,
    calls,
    asked: () => asked,
  };
}

describe("HandoffClient and McpServer on 2026-07-28: the retry after consent is held", () => {
  // The server loads jose with the first requestState it seals: file reads, which the turn-counting
  // waits below would otherwise race. Loaded once here, the flow is what they count.
  beforeAll(async () => {
    await import("jose");
  });

  it.each([
    ["repos", "octo/hello-world"],
    ["connect", "GitHub is linked."],
  ])("%s: one consent, one retry right after it, and the result once the user finished", async (tool, text) => {
    const r = await rig("2026-07-28", "accept");
    expect(r.client.isStateless).toBe(true);
    const call = r.handoff.callTool({ name: tool });
    const id = await until(() => r.created[0]);
    await until(() => (r.held.includes(id) ? true : undefined));
    await r.finish(id);
    const result = await call;
    expect(result.content).toEqual([{ type: "text", text }]);
    expect(r.asked()).toBe(1);
    expect(r.calls()).toBe(2);
    await r.client.close();
  });
});

describe("a declined hand-off is asked once and ends the call once, in both eras", () => {
  for (const version of ["2025-11-25", "2026-07-28"] as const) {
    for (const answer of ["decline", "cancel"] as const) {
      it(`${version}, ${answer}: InteractionRequired ends with HandoffError (REQUEST_CANCELLED)`, async () => {
        const r = await rig(version, answer);
        const error = await r.handoff.callTool({ name: "repos" }).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(HandoffError);
        expect(error).toMatchObject({
          code: "REQUEST_CANCELLED",
          reason: answer === "decline" ? "declined" : "cancelled",
        });
        expect(r.asked()).toBe(1);
        expect(r.statuses).toContain(answer === "decline" ? "declined" : "cancelled");
        expect(r.calls()).toBeLessThanOrEqual(2);
        expect(r.created).toHaveLength(1);
        await r.client.close();
      });

      it(`${version}, ${answer}: ctx.interact sees the answer and the tool's result is returned`, async () => {
        const r = await rig(version, answer);
        const result = await r.handoff.callTool({ name: "connect" });
        expect(result.content).toEqual([{ type: "text", text: `The user chose ${answer}.` }]);
        expect(r.seen).toEqual([answer]);
        expect(r.asked()).toBe(1);
        const stored = await r.manager.get(r.created[0] ?? "");
        expect(stored?.status).toBe(answer === "decline" ? "declined" : "cancelled");
        await r.client.close();
      });
    }
  }
});
