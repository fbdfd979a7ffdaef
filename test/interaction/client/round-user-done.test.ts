/**
 * The handler's own `ctx.userDone()` (what a terminal's "Done in the browser?" calls) ends the
 * paced wait of a hand-off carried in an `InputRequiredResult`, against a server that answers a
 * retry at once with the same page: the retry goes at once, not at the next poll interval.
 */
import { expect, it } from "vitest";
import { McpClient } from "../../../src/client/index.js";
import { HandoffClient, type InteractionContext, type PacerClock } from "../../../src/interaction/client/index.js";
import { JsonRpcSession, type Result } from "../../../src/jsonrpc/session.js";
import { createMemoryTransportPair } from "../../../src/transports/memory.js";

const PAGE = "https://connect.example.com/start?id=7";

/** Timers that never fire: only the user's "done" can end a wait. */
const frozen: PacerClock = { now: () => 0, setTimeout: () => 0, clearTimeout: () => {} };

it("ctx.userDone() from the handler retries a paced InputRequiredResult hand-off at once", async () => {
  const [clientSide, serverSide] = createMemoryTransportPair();
  const server = new JsonRpcSession();
  let calls = 0;
  let linked = false;
  let user: InteractionContext | undefined;
  server.setRequestHandler("server/discover", () => ({
    resultType: "complete",
    supportedVersions: ["2026-07-28"],
    capabilities: { tools: {} },
    _meta: { "io.modelcontextprotocol/serverInfo": { name: "pages", version: "1.0.0" } },
  }));
  server.setRequestHandler("tools/call", (): Result => {
    calls++;
    if (calls === 2) {
      // The retry right after consent finds the page still open; the user then finishes and says so.
      setImmediate(() => {
        linked = true;
        user?.userDone();
      });
    }
    if (linked) return { resultType: "complete", content: [{ type: "text", text: "connected" }] };
    return {
      resultType: "input_required",
      requestState: `state-${calls}`,
      inputRequests: { page: { method: "elicitation/create", params: { mode: "url", message: "Connect", url: PAGE } } },
    };
  });
  await server.connect(serverSide);

  const client = new McpClient({ name: "c", version: "1" });
  const handoff = new HandoffClient(client, {
    clock: frozen,
    onInteraction: async (_interaction, ctx) => {
      user = ctx;
      return "accept";
    },
  });
  await client.connect(clientSide);
  const result = await handoff.callTool({ name: "connect" });
  expect(result.content).toEqual([{ type: "text", text: "connected" }]);
  expect(calls).toBe(3);
  await client.close();
});
