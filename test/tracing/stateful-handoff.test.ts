/**
 * Revision 2025-11-25 across two instances: the `tools/call` answered -32042 on A, the completion
 * on B, and A telling its client (`notifications/elicitation/complete`) are one trace, as is the
 * client's retry when it sends the same trace context.
 */
import { describe, expect, it } from "vitest";
import { InteractionManager } from "../../src/interaction/server/index.js";
import { InteractionRequired, McpServer } from "../../src/server/index.js";
import { InProcessMessageBus, MemoryInteractionStore } from "../../src/stores/index.js";
import { STEP } from "../../src/tracing/index.js";
import { CAPS, CONNECT_MESSAGE, connectPeer } from "../interaction/server/support.js";
import { untilTurns } from "../support/turns.js";
import { recorder } from "./support.js";

const spans = recorder();
const alice = { issuer: "https://as.example", subject: "alice" };

describe("a 2025-11-25 hand-off across two instances", () => {
  it("reads as one trace: the request on A, the completion on B, the notice from A", async () => {
    const store = new MemoryInteractionStore();
    const bus = new InProcessMessageBus();
    let linked = false;
    const make = (name: string) => {
      const tracing = { tracer: spans.tracerNamed(name) };
      const manager = new InteractionManager({ store, bus, sweepIntervalMs: 0, tracing });
      const server = new McpServer({ name: "fleet", version: "1.0.0" }, { interactions: manager, tracing });
      server.registerTool("repos", { description: "Lists repositories" }, () => {
        if (!linked) {
          throw new InteractionRequired({
            url: "https://mcp.example.com/connect/{interactionId}",
            message: CONNECT_MESSAGE,
          });
        }
        return { content: [{ type: "text", text: "octo/hello-world" }] };
      });
      return { manager, server };
    };
    const a = make("A");
    const b = make("B");
    const peer = await connectPeer(a.server, {
      capabilities: CAPS.urlElicitation,
      authInfo: { token: "token-of-alice", ...alice },
    });
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    const traceparent = `00-${traceId}-00f067aa0ba902b7-01`;
    const refused = await peer.client
      .request("tools/call", { name: "repos", arguments: {}, _meta: { traceparent } })
      .then(
        () => undefined,
        (error: { code: number; data: { elicitations: { elicitationId: string }[] } }) => error,
      );
    expect(refused?.code).toBe(-32042);
    const id = refused?.data.elicitations[0]?.elicitationId ?? "";
    await b.manager.complete(id, {
      user: alice,
      commit: async () => {
        linked = true;
      },
    });
    await untilTurns(() => peer.notifications("notifications/elicitation/complete")[0]);
    await untilTurns(() => spans.named(STEP.delivered)[0]);
    await peer.client.request("tools/call", { name: "repos", arguments: {}, _meta: { traceparent } });

    const scope = (name: string) => spans.named(name).map((span) => span.instrumentationScope.name);
    expect(scope(STEP.created)).toEqual(["A"]);
    expect(scope(STEP.completed)).toEqual(["B"]);
    expect(scope(STEP.delivered)).toEqual(["A"]);
    expect(scope("tools/call repos")).toEqual(["A", "A"]);
    const handoff = [STEP.created, STEP.completed, STEP.delivered, "tools/call repos"].flatMap((name) =>
      spans.named(name),
    );
    expect(new Set(handoff.map((span) => span.spanContext().traceId))).toEqual(new Set([traceId]));
    await Promise.all([a.server.close(), b.server.close()]);
  });
});
