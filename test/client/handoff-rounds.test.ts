/**
 * A hand-off inside an `InputRequiredResult` (stateless era): the URL-mode elicitation reaches
 * `HandoffClient`'s one handler as a `UrlInteraction`; the user is asked once per call and URL;
 * retries wait for the user's "done" or a poll interval; repeats of the same page neither ask
 * again nor count toward the client's round cap.
 */
import { describe, expect, it } from "vitest";
import { McpClient } from "../../src/client/index.js";
import {
  HandoffClient,
  HandoffError,
  type PacerClock,
  RoundPacer,
  type UrlInteraction,
} from "../../src/interaction/client/index.js";
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
  it("asks the user once, retries at once, then on their 'done' and on each poll, and does not count waiting rounds", async () => {
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
    // After consent the retry goes at once; this server answers it with the page again, so the
    // next retry waits.
    await until(() => server.calls.length === 2 && clock.pending() === 1);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ url: PAGE, host: "connect.example.com", server: { name: "pages" } });
    // The user says they are done: the retry goes at once; the server still has no completion.
    expect(handoff.userDone(asked[0]?.id ?? "")).toBe(true);
    await until(() => server.calls.length === 3 && clock.pending() === 1);
    // A poll interval passes; this time the server has it.
    serverDone = true;
    clock.fire();
    const result = await call;
    expect(result.content).toEqual([{ type: "text", text: "connected" }]);
    expect(asked).toHaveLength(1);
    expect(server.calls).toHaveLength(4);
    const ids = server.calls.map((c) => c.id);
    expect(new Set(ids).size).toBe(4);
    expect(server.calls.slice(1).map((c) => c.requestState)).toEqual(["state-1", "state-2", "state-3"]);
    expect(server.calls[3]?.inputResponses).toEqual({ page: { action: "accept" } });
    await client.close();
  });

  it("sends the user's decline on the retry once; a server that asks for the page again ends the call, the user asked once", async () => {
    const server = await pageServer(() => false);
    const client = new McpClient({ name: "c", version: "1" }, { maxInputRounds: 8 });
    let asked = 0;
    const handoff = new HandoffClient(client, {
      onInteraction: async () => {
        asked++;
        return "decline";
      },
    });
    await client.connect(server.clientSide);
    const error = await handoff.callTool({ name: "connect" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HandoffError);
    expect(error).toMatchObject({ code: "REQUEST_CANCELLED", reason: "declined" });
    expect(asked).toBe(1);
    expect(server.calls).toHaveLength(2);
    expect((server.calls[1]?.inputResponses as Record<string, { action: string }>).page?.action).toBe("decline");
    await client.close();
  });

  it("McpClient alone: a page the user declined is not put to the handler again; the call ends with REQUEST_CANCELLED", async () => {
    const server = await pageServer(() => false);
    const client = new McpClient({ name: "c", version: "1" });
    let asked = 0;
    client.setElicitationHandler(
      () => {
        asked++;
        return { action: "cancel" };
      },
      { modes: ["url"] },
    );
    await client.connect(server.clientSide);
    await expect(client.callTool({ name: "connect" })).rejects.toMatchObject({
      code: "REQUEST_CANCELLED",
      message: expect.stringContaining("connect.example.com"),
    });
    expect(asked).toBe(1);
    expect(server.calls).toHaveLength(2);
    await client.close();
  });
});

describe("RoundPacer", () => {
  /** A clock whose time the test moves, and whose timers it fires. */
  function steppedClock() {
    const clock = { time: 0, timers: [] as Array<{ run: () => void; ms: number }> };
    const pacerClock: PacerClock = {
      now: () => clock.time,
      setTimeout: (run, ms) => clock.timers.push({ run, ms }),
      clearTimeout: () => {},
    };
    return { clock, pacerClock };
  }

  it("retries at once after consent (a server may hold the retry), then waits the poll interval or the user's done, and expires at the deadline", async () => {
    const { clock, pacerClock } = steppedClock();
    const pacer = new RoundPacer(10_000, 2_000, pacerClock);
    pacer.started("a");
    expect(await pacer.pace("a")).toBe("retry");
    expect(clock.timers).toEqual([]);
    // The server answered the retry at once with the same page: the next one waits.
    let settled = false;
    const second = pacer.pace("a").then((outcome) => {
      settled = true;
      return outcome;
    });
    await Promise.resolve();
    expect(settled).toBe(false);
    expect(clock.timers.map((t) => t.ms)).toEqual([2_000]);
    clock.time = 2_000;
    clock.timers.shift()?.run();
    expect(await second).toBe("retry");
    const third = pacer.pace("a");
    pacer.nudge("a");
    expect(await third).toBe("retry");
    clock.time = 10_000;
    expect(await pacer.pace("a")).toBe("expired");
  });

  it("retries at once when the server held the last retry longer than the poll interval", async () => {
    const { clock, pacerClock } = steppedClock();
    const pacer = new RoundPacer(60_000, 2_000, pacerClock);
    pacer.started("a");
    expect(await pacer.pace("a")).toBe("retry");
    // The server held that retry 25 s before answering with the page again.
    clock.time = 25_000;
    expect(await pacer.pace("a")).toBe("retry");
    // Held 500 ms only: the next retry waits the rest of the interval.
    clock.time = 25_500;
    void pacer.pace("a");
    await Promise.resolve();
    expect(clock.timers.map((t) => t.ms)).toEqual([1_500]);
  });
});

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((resolve) => setImmediate(resolve));
  expect(check()).toBe(true);
}
