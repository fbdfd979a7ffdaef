/**
 * Revision 2026-07-28: a retry that answers `accept` for a hand-off whose page the user has not
 * finished yet is held until the interaction completes (spec 2026-07-28: client/elicitation § URL
 * Mode Flow, "it may need to block until the request is fulfilled"), up to `handoffHoldMs`; only
 * then does a fresh `InputRequiredResult` go out. A client that leaves stops the hold.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import type { InteractionManager } from "../../src/interaction/server/index.js";
import type { JsonRpcMessage } from "../../src/jsonrpc/messages.js";
import { JsonRpcSession, type Params } from "../../src/jsonrpc/session.js";
import type { MessageExtra, SendOptions, Transport } from "../../src/jsonrpc/transport.js";
import type { AuthInfo } from "../../src/model/identity.js";
import { isInputRequired, META } from "../../src/revisions/index.js";
import { InteractionRequired, McpServer } from "../../src/server/index.js";
import { createMemoryTransportPair } from "../../src/transports/memory.js";
import { recordCreated } from "../interaction/server/record-created.js";
import { CONNECT_MESSAGE, CONNECT_URL, createManager, LOCAL_USER } from "../interaction/server/support.js";
import { turn, untilTurns as until } from "../support/turns.js";

afterEach(() => {
  vi.useRealTimers();
});

/** `repos` throws InteractionRequired until linked; `connect` hands off with ctx.interact and waits. */
function holdingServer(manager: InteractionManager, options: { handoffHoldMs?: number } = {}) {
  const server = new McpServer(
    { name: "holder", version: "1.0.0" },
    { interactions: manager, requestStateSecret: new Uint8Array(32).fill(7), ...options },
  );
  const runs = { repos: 0, connect: 0 };
  let linked = false;
  server.registerTool("repos", { description: "Lists repositories" }, async () => {
    runs.repos++;
    if (!linked) throw new InteractionRequired({ url: CONNECT_URL, message: CONNECT_MESSAGE });
    return { content: [{ type: "text", text: "octo/hello-world" }] };
  });
  server.registerTool("connect", { description: "Links an account" }, async (_args, ctx) => {
    runs.connect++;
    const outcome = await ctx.interact({ url: CONNECT_URL, message: CONNECT_MESSAGE });
    if (outcome.action !== "accept") return { content: [{ type: "text", text: `The user chose ${outcome.action}.` }] };
    const done = await ctx.waitForInteraction(outcome.interaction.id);
    return { content: [{ type: "text", text: `Linked (${done.status}).` }] };
  });
  const link = () => {
    linked = true;
  };
  return { server, runs, link };
}

/** A bare stateless client (every request carries its `_meta`), keeping what the server sends. */
async function statelessClient(server: McpServer) {
  const [clientEnd, serverEnd] = createMemoryTransportPair();
  const received: JsonRpcMessage[] = [];
  await server.connect(serverEnd);
  const onmessage = () => clientEnd.onmessage;
  const client = new JsonRpcSession();
  await client.connect(clientEnd);
  const deliver = onmessage();
  clientEnd.onmessage = (message, extra) => {
    received.push(...(Array.isArray(message) ? message : [message]));
    deliver?.(message, extra);
  };
  const meta = {
    [META.protocolVersion]: "2026-07-28",
    [META.clientCapabilities]: { elicitation: { url: {} } },
    [META.clientInfo]: { name: "t", version: "1" },
  };
  const call = (name: string, retry: Params = {}, signal?: AbortSignal) =>
    client.request("tools/call", { name, arguments: {}, ...retry, _meta: meta }, signal ? { signal } : {});
  return { client, call, received };
}

/** The retry of an `InputRequiredResult`: `answer` under each key, the state echoed as received. */
function retryOf(result: Params, answer: Params = { action: "accept" }): Params {
  const keys = Object.keys((result.inputRequests as Params | undefined) ?? {});
  return { inputResponses: Object.fromEntries(keys.map((key) => [key, answer])), requestState: result.requestState };
}

/** Notes each wait for completion the server starts: that is the hold beginning. */
function watchHolds(manager: InteractionManager): string[] {
  const holds: string[] = [];
  const wait = manager.waitForCompletion.bind(manager);
  manager.waitForCompletion = (id, signal) => {
    holds.push(id);
    return wait(id, signal);
  };
  return holds;
}

describe("holding a retry that accepted a hand-off still open", () => {
  it.each(["repos", "connect"] as const)(
    "%s: the held retry goes on once the user completes the page, and its result is the answer",
    async (tool) => {
      const { manager, bus } = createManager();
      const created = recordCreated(manager);
      const holds = watchHolds(manager);
      const { server, runs, link } = holdingServer(manager);
      const { call } = await statelessClient(server);

      const first = await call(tool);
      expect(isInputRequired(first)).toBe(true);
      const held = call(tool, retryOf(first));
      const id = await until(() => created[0]);
      await until(() => (holds.includes(id) ? true : undefined));
      const runsWhileHeld = runs[tool];
      // The user finishes on the page while the retry is held.
      link();
      await manager.complete(id, { user: LOCAL_USER });
      const result = await held;
      expect(isInputRequired(result)).toBe(false);
      expect(result.content).toEqual([
        { type: "text", text: tool === "repos" ? "octo/hello-world" : "Linked (completed)." },
      ]);
      expect(runs[tool]).toBeGreaterThanOrEqual(runsWhileHeld);
      expect(bus.listeners()).toBe(0);
    },
  );

  it.each(["repos", "connect"] as const)(
    "%s: once handoffHoldMs passes without completion, a fresh InputRequiredResult asks for the same page",
    async (tool) => {
      vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
      const { manager, bus } = createManager();
      const holds = watchHolds(manager);
      const { server } = holdingServer(manager, { handoffHoldMs: 5_000 });
      const { call } = await statelessClient(server);

      const first = await call(tool);
      let answered: Params | undefined;
      void call(tool, retryOf(first)).then((result) => {
        answered = result;
      });
      await until(() => (holds.length > 0 ? true : undefined));
      await vi.advanceTimersByTimeAsync(4_999);
      expect(answered).toBeUndefined();
      await vi.advanceTimersByTimeAsync(1);
      await until(() => answered);
      expect(isInputRequired(answered)).toBe(true);
      const page = Object.values(answered?.inputRequests as Record<string, { params: Params }>)[0];
      expect(page?.params).toMatchObject({ mode: "url", url: CONNECT_URL, message: CONNECT_MESSAGE });
      expect(bus.listeners()).toBe(0);
    },
  );

  it("does not hold a retry without an answer, nor with handoffHoldMs 0", async () => {
    for (const [options, retry] of [
      [{}, (first: Params) => ({ requestState: first.requestState })],
      [{ handoffHoldMs: 0 }, (first: Params) => retryOf(first)],
    ] as const) {
      const { manager } = createManager();
      const holds = watchHolds(manager);
      const { server } = holdingServer(manager, options);
      const { call } = await statelessClient(server);
      const first = await call("repos");
      const again = await call("repos", retry(first));
      expect(isInputRequired(again)).toBe(true);
      expect(holds).toEqual([]);
    }
  });

  it("stops holding when the client cancels: no answer, no further run, no subscription left", async () => {
    const { manager, bus } = createManager();
    const holds = watchHolds(manager);
    const { server, runs } = holdingServer(manager);
    const { call, received } = await statelessClient(server);

    const first = await call("repos");
    const leaving = new AbortController();
    const held = call("repos", retryOf(first), leaving.signal).catch((error: unknown) => error);
    await until(() => (holds.length > 0 ? true : undefined));
    expect(bus.listeners()).toBeGreaterThan(0);
    const before = received.length;
    leaving.abort();
    expect(await held).toMatchObject({ code: "REQUEST_CANCELLED" });
    await until(() => (bus.listeners() === 0 ? true : undefined));
    await turn();
    expect(received.slice(before)).toEqual([]);
    expect(runs.repos).toBe(1);
  });
});

describe("a retry that declines or cancels a hand-off's page", () => {
  it.each(["decline", "cancel"] as const)(
    "%s for the page InteractionRequired asked for: a tool error says so, the interaction keeps the answer, the tool does not run again",
    async (action) => {
      const { manager } = createManager();
      const created = recordCreated(manager);
      const { server, runs } = holdingServer(manager);
      const { call } = await statelessClient(server);
      const first = await call("repos");
      const answer = await call("repos", retryOf(first, { action }));
      expect(isInputRequired(answer)).toBe(false);
      expect(answer.isError).toBe(true);
      const text = JSON.stringify(answer.content);
      expect(text).toContain(action === "decline" ? "declined" : "cancelled");
      expect(text).not.toContain(CONNECT_URL);
      expect(runs.repos).toBe(1);
      expect(created).toHaveLength(1);
      expect((await manager.get(created[0] ?? ""))?.status).toBe(action === "decline" ? "declined" : "cancelled");
    },
  );

  it("ctx.interact gets the answer, and the interaction keeps it", async () => {
    const { manager } = createManager();
    const created = recordCreated(manager);
    const { server } = holdingServer(manager);
    const { call } = await statelessClient(server);
    const first = await call("connect");
    const answer = await call("connect", retryOf(first, { action: "decline" }));
    expect(answer.content).toEqual([{ type: "text", text: "The user chose decline." }]);
    expect((await manager.get(created[0] ?? ""))?.status).toBe("declined");
  });
});

/** The server's end of a pair, with `authInfo` on every message it receives. */
class AuthenticatedTransport implements Transport {
  onmessage?: (message: JsonRpcMessage | JsonRpcMessage[], extra?: MessageExtra) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  constructor(
    private readonly inner: Transport,
    authInfo: AuthInfo,
  ) {
    inner.onmessage = (message, extra) => this.onmessage?.(message, { ...extra, authInfo });
    inner.onerror = (error) => this.onerror?.(error);
    inner.onclose = () => this.onclose?.();
  }
  start = () => this.inner.start();
  send = (message: JsonRpcMessage, options?: SendOptions) => this.inner.send(message, options);
  close = () => this.inner.close();
}

describe("what a retry may settle", () => {
  /** A stateless client whose every message reaches the server with `authInfo` (as an auth layer sets it). */
  async function clientAs(server: McpServer, subject: string) {
    const [clientEnd, serverEnd] = createMemoryTransportPair();
    const authInfo = { token: `token-${subject}`, issuer: "https://as.example.com", subject };
    await server.connect(new AuthenticatedTransport(serverEnd, authInfo));
    const client = new JsonRpcSession();
    await client.connect(clientEnd);
    const meta = {
      [META.protocolVersion]: "2026-07-28",
      [META.clientCapabilities]: { elicitation: { url: {} } },
      [META.clientInfo]: { name: "t", version: "1" },
    };
    return (retry: Params = {}) =>
      client.request("tools/call", { name: "repos", arguments: {}, ...retry, _meta: meta });
  }

  it("another user's requestState cannot decline or hold the interaction it names; its own user's can", async () => {
    const { manager } = createManager();
    const created = recordCreated(manager);
    const holds = watchHolds(manager);
    const { server } = holdingServer(manager);
    const alice = await clientAs(server, "alice");
    const mallory = await clientAs(server, "mallory");
    const first = await alice();
    for (const action of ["decline", "accept"]) {
      await expect(mallory(retryOf(first, { action }))).rejects.toMatchObject({ code: -32602 });
    }
    expect(holds).toEqual([]);
    expect((await manager.get(created[0] ?? ""))?.status).toBe("pending");
    // Positive control: the same retry from the user it was issued to is taken.
    const answer = await alice(retryOf(first, { action: "decline" }));
    expect(answer.isError).toBe(true);
    expect((await manager.get(created[0] ?? ""))?.status).toBe("declined");
  });

  it("an answer under a key the last round did not ask for is ignored: nothing is held or recorded", async () => {
    const { manager } = createManager();
    const created = recordCreated(manager);
    const holds = watchHolds(manager);
    const { server } = holdingServer(manager);
    const { call } = await statelessClient(server);
    const first = await call("repos");
    const again = await call("repos", {
      inputResponses: { "handoff-9": { action: "decline" }, other: { action: "accept" } },
      requestState: first.requestState,
    });
    expect(isInputRequired(again)).toBe(true);
    expect(holds).toEqual([]);
    expect((await manager.get(created[0] ?? ""))?.status).toBe("pending");
  });

  it("refuses a handoffHoldMs a timer cannot wait", () => {
    const { manager } = createManager();
    for (const bad of [-1, 1.5, Number.NaN, 2 ** 31]) {
      expect(() => holdingServer(manager, { handoffHoldMs: bad })).toThrow(TypeError);
    }
  });
});
