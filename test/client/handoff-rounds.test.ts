/**
 * A hand-off inside an `InputRequiredResult` (stateless era): the URL-mode elicitation reaches
 * `HandoffClient`'s one handler as a `UrlInteraction`; the user is asked once per call and URL;
 * retries wait for the user's "done" or a poll interval; repeats of the same page neither ask
 * again nor count toward the client's round cap.
 */
import { describe, expect, it } from "vitest";
import { McpClient } from "../../src/client/index.js";
import { HandoffClient, type PacerClock, RoundPacer, type UrlInteraction } from "../../src/interaction/client/index.js";
import { JsonRpcSession, type Params, type Result } from "../../src/jsonrpc/session.js";
import { createMemoryTransportPair } from "../../src/transports/memory.js";

const PAGE = "https://connect.example.com/start?id=42";

/** A stateless server whose tools/call asks for the page until `done()` returns true. */
async function pageServer(done: () => boolean) {
  const [clientSide, serverSide] = createMemoryTransportPair();
  const session = new JsonRpcSession();
  const calls: Params[] = [];
  session.setRequestHandler("server/discover", () => ({
    resultType: "complete",
    supportedVersions: ["2026-07-28"],
    capabilities: { tools: {} },
    _meta: { "io.modelcontextprotocol/serverInfo": { name: "pages", version: "1.0.0" } },
  }));
  session.setRequestHandler("tools/call", (params, request): Result => {
    calls.push({ ...params, id: request.id });
    if (done()) return { resultType: "complete", content: [{ type: "text", text: "connected" }] };
    return {
      resultType: "input_required",
      requestState: `state-${calls.length}`,
      inputRequests: { page: { method: "elicitation/create", params: { mode: "url", message: "Connect", url: PAGE } } },
    };
  });
  await session.connect(serverSide);
  return { clientSide, calls };
}

/** Timers that fire only when the test says so. */
function manualClock(): PacerClock & { fire(): void; pending(): number } {
  const timers = new Map<number, () => void>();
  let next = 0;
  return {
    now: () => 0,
    setTimeout(run) {
      timers.set(++next, run);
      return next;
    },
    clearTimeout(handle) {
      timers.delete(handle as number);
    },
    fire() {
      const runs = [...timers.values()];
      timers.clear();
      for (const run of runs) run();
    },
    pending: () => timers.size,
  };
}

describe("HandoffClient with InputRequiredResult", () => {
  it("asks the user once, retries on their 'done' and on each poll, and does not count waiting rounds", async () => {
    let serverDone = false;
    const server = await pageServer(() => serverDone);
    const clock = manualClock();
    const client = new McpClient({ name: "c", version: "1" }, { maxInputRounds: 1 });
    const asked: UrlInteraction[] = [];
    const handoff = new HandoffClient(client, {
      onInteraction: async (interaction) => {
        asked.push(interaction);
        return "accept";
      },
      clock,
      pollIntervalMs: 60_000,
    });
    await client.connect(server.clientSide);
    const call = handoff.callTool({ name: "connect" });
    await until(() => clock.pending() === 1);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ url: PAGE, host: "connect.example.com", server: { name: "pages" } });
    // The user says they are done: the retry goes at once; the server still has no completion.
    expect(handoff.userDone(asked[0]?.id ?? "")).toBe(true);
    await until(() => server.calls.length === 2 && clock.pending() === 1);
    // A poll interval passes; this time the server has it.
    serverDone = true;
    clock.fire();
    const result = await call;
    expect(result.content).toEqual([{ type: "text", text: "connected" }]);
    expect(asked).toHaveLength(1);
    expect(server.calls).toHaveLength(3);
    const ids = server.calls.map((c) => c.id);
    expect(new Set(ids).size).toBe(3);
    expect(server.calls[1]?.requestState).toBe("state-1");
    expect(server.calls[2]?.requestState).toBe("state-2");
    expect(server.calls[2]?.inputResponses).toEqual({ page: { action: "accept" } });
    await client.close();
  });

  it("sends the user's decline on the retry; a server that keeps asking hits the round cap", async () => {
    const server = await pageServer(() => false);
    const client = new McpClient({ name: "c", version: "1" }, { maxInputRounds: 2 });
    const handoff = new HandoffClient(client, { onInteraction: async () => "decline" });
    await client.connect(server.clientSide);
    await expect(handoff.callTool({ name: "connect" })).rejects.toMatchObject({ code: "INVALID_RESULT" });
    expect(server.calls.slice(1).every((c) => (c.inputResponses as Record<string, unknown>).page !== undefined)).toBe(
      true,
    );
    expect((server.calls[1]?.inputResponses as Record<string, { action: string }>).page?.action).toBe("decline");
    await client.close();
  });
});

describe("RoundPacer", () => {
  it("waits for the poll interval or the user's done, and expires at the deadline", async () => {
    let now = 0;
    const timers: Array<() => void> = [];
    const clock: PacerClock = {
      now: () => now,
      setTimeout: (run) => timers.push(run),
      clearTimeout: () => {},
    };
    const pacer = new RoundPacer(10_000, 2_000, clock);
    pacer.started("a");
    let settled = false;
    const first = pacer.pace("a").then((outcome) => {
      settled = true;
      return outcome;
    });
    await Promise.resolve();
    expect(settled).toBe(false);
    timers.shift()?.();
    expect(await first).toBe("retry");
    const second = pacer.pace("a");
    pacer.nudge("a");
    expect(await second).toBe("retry");
    now = 10_000;
    expect(await pacer.pace("a")).toBe("expired");
  });
});

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((resolve) => setImmediate(resolve));
  expect(check()).toBe(true);
}
