/**
 * `ctx.interact` waits for the client's answer no longer than the interaction lives: a client
 * that went away while its user was being handed off must not hold the request, and with it the
 * session, for ever. Time here is the manager's injected clock and fake timers.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import type { JsonRpcSession, Params } from "../../../src/jsonrpc/session.js";
import { CAPS, CONNECT_MESSAGE, CONNECT_URL, connectPeer, createManager, LOCAL_USER, newServer } from "./support.js";

const TTL_MS = 60_000;
const text = (result: Params) => (result.content as { text: string }[]).map((c) => c.text).join("\n");
const never = () => new Promise<Params>(() => {});

/** Calls `connect` with no timeout of the client's own, and says whether it has answered yet. */
function callConnect(peer: { client: { request: JsonRpcSession["request"] } }) {
  const call = { result: undefined as Params | undefined };
  const done = peer.client
    .request("tools/call", { name: "connect", arguments: {} }, { timeoutMs: Number.POSITIVE_INFINITY })
    .then((result) => {
      call.result = result;
      return result;
    });
  return Object.assign(call, { done });
}

/** A server whose `connect` tool reports what `ctx.interact` gave it, or the error it threw. */
async function setUp(capabilities: Params, answer: () => Promise<Params> | Params) {
  const { manager, clock, bus } = createManager({ ttlMs: TTL_MS });
  const server = newServer(manager);
  const outcomes: unknown[] = [];
  server.registerTool("connect", {}, async (_args, ctx) => {
    const outcome = await ctx.interact({ url: CONNECT_URL, message: CONNECT_MESSAGE });
    outcomes.push(outcome);
    return { content: [{ type: "text", text: `${outcome.action}, ${outcome.interaction.status}` }] };
  });
  const method = "userInteraction" in capabilities ? "interaction/create" : "elicitation/create";
  const peer = await connectPeer(server, { capabilities, handlers: { [method]: answer } });
  // Only now: connecting waits on real timers.
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
  // What stays subscribed once the call is over: the session's watch for completion notices, which
  // only URL-mode elicitation sends; the wait for the deadline is gone.
  const listenersAfter = "userInteraction" in capabilities ? 0 : 1;
  return { manager, clock, peer, outcomes, method, listeners: () => bus.listeners(), listenersAfter };
}

/** Lets the clock and the timers run on by `ms`. */
async function pass(clock: { advance(ms: number): void }, ms: number) {
  clock.advance(ms);
  await vi.advanceTimersByTimeAsync(ms);
}

afterEach(() => {
  vi.useRealTimers();
});

describe.each([
  ["URL-mode elicitation", CAPS.urlElicitation],
  ["user interaction", CAPS.userInteraction],
] as const)("ctx.interact over %s", (_form, capabilities) => {
  it("ends at the interaction's deadline when the client never answers: the tool's call fails as expired", async () => {
    const { clock, peer, outcomes, method, listeners, listenersAfter } = await setUp(capabilities, never);
    const call = callConnect(peer);
    await pendingId(peer);
    await pass(clock, TTL_MS - 1);
    expect(call.result).toBeUndefined();
    await pass(clock, 1);
    const result = call.result ?? {};
    expect(result.isError).toBe(true);
    expect(text(result)).toBe("The interaction expired before it was completed");
    expect(outcomes).toEqual([]);
    expect(listeners()).toBe(listenersAfter);
    // The client is told to stop asking its user.
    const asked = peer.log.find(({ message }) => "method" in message && message.method === method)?.message;
    expect(peer.notifications("notifications/cancelled")).toEqual([
      expect.objectContaining({ requestId: (asked as { id: number }).id }),
    ]);
  });

  it("still resolves with the client's answer when it comes before the deadline", async () => {
    let answer: ((result: Params) => void) | undefined;
    const { clock, peer, listeners, listenersAfter } = await setUp(
      capabilities,
      () =>
        new Promise<Params>((resolve) => {
          answer = resolve;
        }),
    );
    const call = callConnect(peer);
    await pendingId(peer);
    await pass(clock, TTL_MS - 1);
    answer?.("userInteraction" in capabilities ? {} : { action: "accept" });
    expect(text(await call.done)).toBe("accept, accepted");
    await vi.advanceTimersByTimeAsync(0);
    expect(listeners()).toBe(listenersAfter);
    expect(peer.notifications("notifications/cancelled")).toEqual([]);
  });

  it("resolves with accept once the user completed the page, even before the client answered", async () => {
    const { manager, peer } = await setUp(capabilities, never);
    const call = callConnect(peer);
    await manager.complete(await pendingId(peer), { user: LOCAL_USER });
    await vi.advanceTimersByTimeAsync(0);
    expect(text(call.result ?? { content: [] })).toBe("accept, completed");
  });

  it("resolves with decline once the user declined on the page, even before the client answered", async () => {
    const { manager, peer } = await setUp(capabilities, never);
    const call = callConnect(peer);
    await manager.decline(await pendingId(peer), { user: LOCAL_USER });
    await vi.advanceTimersByTimeAsync(0);
    expect(text(call.result ?? { content: [] })).toBe("decline, declined");
  });
});

/** The id of the interaction the server asked the client about. */
async function pendingId(peer: { log: { from: string; message: unknown }[] }): Promise<string> {
  for (let i = 0; i < 50; i++) {
    const asked = peer.log.find(
      ({ from, message }) =>
        from === "server" && typeof (message as { method?: string }).method === "string" && "id" in (message as object),
    )?.message as { params: Params } | undefined;
    const params = asked?.params;
    const id = params?.elicitationId ?? params?.id;
    if (typeof id === "string") return id;
    await vi.advanceTimersByTimeAsync(0);
  }
  throw new Error("the client was never asked");
}
