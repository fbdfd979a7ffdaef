import { afterEach, describe, expect, it, vi } from "vitest";
import { type Progress, SdkError } from "../../src/client/index.js";
import type { JsonRpcMessage } from "../../src/jsonrpc/messages.js";
import type { SendOptions } from "../../src/jsonrpc/transport.js";
import { connected, type FakeServer, flush, until } from "./support.js";

afterEach(() => {
  vi.useRealTimers();
});

const RESULT = { content: [{ type: "text", text: "done" }] };

describe("progress, timeouts and cancellation", () => {
  it("delivers the server's progress to onprogress", async () => {
    const { client, server } = await connected();
    server.session.setRequestHandler("tools/call", async (_params, request) => {
      await request.sendProgress({ progress: 1, total: 2, message: "half way" });
      await request.sendProgress({ progress: 2, total: 2 });
      return RESULT;
    });
    const seen: Progress[] = [];
    await expect(client.callTool({ name: "slow" }, { onprogress: (p) => seen.push(p) })).resolves.toEqual(RESULT);
    expect(server.sent("tools/call")[0]?.params?._meta).toHaveProperty("progressToken");
    expect(seen).toEqual([
      { progress: 1, total: 2, message: "half way" },
      { progress: 2, total: 2 },
    ]);
  });

  it("times out, tells the server, and drops the late answer", async () => {
    const { client, server } = await connected();
    let serverSignal: AbortSignal | undefined;
    server.session.setRequestHandler("tools/call", (_params, request) => {
      serverSignal = request.signal;
      return new Promise(() => {});
    });
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const call = client.callTool({ name: "stuck" }, { timeoutMs: 5_000 });
    const failure = call.catch((e: unknown) => e);
    const sent = await until(() => server.sent("tools/call")[0]);
    vi.advanceTimersByTime(5_000);
    expect(await failure).toMatchObject({ code: "REQUEST_TIMEOUT" });
    const cancelled = await until(() => server.sent("notifications/cancelled")[0]);
    expect(cancelled.params).toMatchObject({ requestId: sent.id });
    await until(() => serverSignal?.aborted);

    const errors: Error[] = [];
    client.onerror = (error) => errors.push(error);
    await server.wire.send({ jsonrpc: "2.0", id: sent.id as number, result: RESULT });
    await flush();
    await expect(client.ping()).resolves.toEqual({});
    expect(errors).toEqual([]);
  });

  it("uses the client's default timeout", async () => {
    const { client, server } = await connected({}, () => {}, { defaultTimeoutMs: 2_000 });
    server.session.setRequestHandler("prompts/list", () => new Promise(() => {}));
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const failure = client.listPrompts().catch((e: unknown) => e);
    await until(() => server.sent("prompts/list")[0]);
    vi.advanceTimersByTime(1_999);
    await flush();
    vi.advanceTimersByTime(1);
    expect(await failure).toMatchObject({ code: "REQUEST_TIMEOUT" });
  });

  it("cancels on abort and sends notifications/cancelled", async () => {
    const { client, server } = await connected();
    server.session.setRequestHandler("tools/call", () => new Promise(() => {}));
    const controller = new AbortController();
    const failure = client.callTool({ name: "stuck" }, { signal: controller.signal }).catch((e: unknown) => e);
    const sent = await until(() => server.sent("tools/call")[0]);
    controller.abort("user pressed stop");
    expect(await failure).toMatchObject({ code: "REQUEST_CANCELLED" });
    const cancelled = await until(() => server.sent("notifications/cancelled")[0]);
    expect(cancelled.params).toMatchObject({ requestId: sent.id });
  });
});

/** Makes the client transport fail the next send of `method` as a Streamable HTTP 404 on a session would. */
function expireOn(server: FakeServer, ...methods: string[]) {
  const transport = server.clientTransport;
  const send = transport.send.bind(transport);
  const pending = [...methods];
  transport.send = async (message: JsonRpcMessage, options?: SendOptions) => {
    const index = "method" in message ? pending.indexOf(message.method) : -1;
    if (index >= 0) {
      pending.splice(index, 1);
      throw Object.assign(new SdkError("TRANSPORT_ERROR", "The session has ended or expired"), {
        sessionExpired: true,
      });
    }
    return send(message, options);
  };
}

describe("expired Streamable HTTP session", () => {
  it("initializes again and retries the request once", async () => {
    const { client, server } = await connected();
    server.session.setRequestHandler("tools/list", () => ({ tools: [] }));
    expireOn(server, "tools/list");
    await expect(client.listTools()).resolves.toEqual({ tools: [] });
    expect(server.sent("initialize")).toHaveLength(2);
    expect(server.sent("notifications/initialized")).toHaveLength(2);
    expect(server.sent("tools/list")).toHaveLength(1);
    expect(server.protocolVersionsSet).toHaveLength(2);
  });

  it("shares one new handshake between requests that failed together", async () => {
    const { client, server } = await connected();
    server.session.setRequestHandler("tools/list", () => ({ tools: [] }));
    server.session.setRequestHandler("prompts/list", () => ({ prompts: [] }));
    expireOn(server, "tools/list", "prompts/list");
    await Promise.all([client.listTools(), client.listPrompts()]);
    expect(server.sent("initialize")).toHaveLength(2);
  });

  it("does not initialize again for a late expiry of a session already replaced", async () => {
    const { client, server } = await connected();
    server.session.setRequestHandler("tools/list", () => ({ tools: [] }));
    server.session.setRequestHandler("prompts/list", () => ({ prompts: [] }));
    const transport = server.clientTransport;
    const send = transport.send.bind(transport);
    let answerLate: () => void = () => undefined;
    const late = new Promise<void>((resolve) => {
      answerLate = resolve;
    });
    const expired = () =>
      Object.assign(new SdkError("TRANSPORT_ERROR", "The session has ended or expired"), { sessionExpired: true });
    let expiredOnce = new Set<string>();
    transport.send = async (message: JsonRpcMessage, options?: SendOptions) => {
      const method = "method" in message ? message.method : "";
      if ((method === "tools/list" || method === "prompts/list") && !expiredOnce.has(method)) {
        expiredOnce = new Set([...expiredOnce, method]);
        // prompts/list was sent on the old session but its 404 only arrives after tools/list's recovery.
        if (method === "prompts/list") await late;
        throw expired();
      }
      return send(message, options);
    };
    const prompts = client.listPrompts();
    await expect(client.listTools()).resolves.toEqual({ tools: [] });
    expect(server.sent("initialize")).toHaveLength(2);
    answerLate();
    await expect(prompts).resolves.toEqual({ prompts: [] });
    expect(server.sent("initialize")).toHaveLength(2);
    expect(server.sent("prompts/list")).toHaveLength(1);
  });

  it("gives up when the retry fails the same way", async () => {
    const { client, server } = await connected();
    expireOn(server, "tools/list", "tools/list");
    await expect(client.listTools()).rejects.toMatchObject({ code: "TRANSPORT_ERROR", sessionExpired: true });
    expect(server.sent("initialize")).toHaveLength(2);
  });
});
