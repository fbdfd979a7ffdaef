import { afterEach, describe, expect, it, vi } from "vitest";
import { ErrorCode, ProtocolError, SdkError, UrlElicitationRequiredError } from "../../src/jsonrpc/errors.js";
import type { JsonRpcMessage } from "../../src/jsonrpc/messages.js";
import type { Transport } from "../../src/jsonrpc/transport.js";
import { connectedPair, flush, sessionAndWire, until } from "./support.js";

afterEach(() => {
  vi.useRealTimers();
});

describe("JsonRpcSession", () => {
  it("correlates a request with its response and returns the result", async () => {
    const { left, right } = await connectedPair();
    right.setRequestHandler("tools/list", () => ({ tools: [{ name: "a" }] }));
    await expect(left.request("tools/list")).resolves.toEqual({ tools: [{ name: "a" }] });
  });

  it("uses id 0 for its first request and still matches the response", async () => {
    const { session, wire, received } = await sessionAndWire();
    const pending = session.request("x");
    const sent = await until(() => received[0]);
    expect(sent).toMatchObject({ id: 0, method: "x" });
    await wire.send({ jsonrpc: "2.0", id: 0, result: { ok: true } });
    await expect(pending).resolves.toEqual({ ok: true });
  });

  it("rejects with the peer's error code, message and data", async () => {
    const { left, right } = await connectedPair();
    right.setRequestHandler("boom", () => {
      throw new ProtocolError(ErrorCode.InvalidParams, "bad thing", { field: "x" });
    });
    const error = await left.request("boom").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error).toMatchObject({ code: -32602, message: "bad thing", data: { field: "x" } });
  });

  it("rebuilds a -32042 error as UrlElicitationRequiredError with its elicitations", async () => {
    const { left, right } = await connectedPair();
    const elicitation = { mode: "url" as const, elicitationId: "e1", url: "https://example.com/x", message: "Connect" };
    right.setRequestHandler("tools/call", () => {
      throw new UrlElicitationRequiredError([elicitation]);
    });
    const error = await left.request("tools/call").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UrlElicitationRequiredError);
    expect((error as UrlElicitationRequiredError).elicitations).toEqual([elicitation]);
  });

  it("answers an unknown method with -32601 and keeps serving", async () => {
    const { session, wire, received } = await sessionAndWire();
    session.setRequestHandler("known", () => ({ yes: 1 }));
    await wire.send({ jsonrpc: "2.0", id: 1, method: "unknown" });
    await wire.send({ jsonrpc: "2.0", id: 2, method: "known" });
    await until(() => (received.length === 2 ? true : undefined));
    expect(received[0]).toMatchObject({ id: 1, error: { code: -32601 } });
    expect(received[1]).toEqual({ jsonrpc: "2.0", id: 2, result: { yes: 1 } });
  });

  it("serves a table of methods with one fallback handler told the method; a handler set by name wins", async () => {
    const { left, right } = await connectedPair();
    const table = new Set(["a/one", "a/two", "ping"]);
    right.setFallbackRequestHandler(
      (method) => table.has(method),
      (_params, request) => ({ served: request.method }),
    );
    right.setRequestHandler("a/two", () => ({ own: true }));
    const notified: string[] = [];
    right.setFallbackNotificationHandler(
      (method) => method.startsWith("notifications/a/"),
      (method) => void notified.push(method),
    );
    await expect(left.request("a/one")).resolves.toEqual({ served: "a/one" });
    await expect(left.request("a/two")).resolves.toEqual({ own: true });
    await expect(left.request("ping")).resolves.toEqual({ served: "ping" });
    await expect(left.request("b/one")).rejects.toMatchObject({ code: ErrorCode.MethodNotFound });
    await left.notify("notifications/a/changed");
    await left.notify("notifications/b/changed");
    await until(() => (notified.length > 0 ? true : undefined));
    expect(notified).toEqual(["notifications/a/changed"]);
  });

  it("turns a handler's plain Error into -32603 without its text", async () => {
    const { left, right } = await connectedPair();
    right.setRequestHandler("x", () => {
      throw new Error("ENOENT: /home/alice/.secrets/token");
    });
    await expect(left.request("x")).rejects.toMatchObject({ code: -32603, message: "Internal error" });
  });

  it("refuses a second request with an id already in flight, and still answers the first", async () => {
    const { session, wire, received } = await sessionAndWire();
    let release!: () => void;
    session.setRequestHandler(
      "slow",
      () =>
        new Promise((resolve) => {
          release = () => resolve({ done: true });
        }),
    );
    await wire.send({ jsonrpc: "2.0", id: "dup", method: "slow" });
    await wire.send({ jsonrpc: "2.0", id: "dup", method: "slow" });
    await until(() => received[0]);
    expect(received[0]).toMatchObject({ id: "dup", error: { code: -32600 } });
    release();
    await until(() => received[1]);
    expect(received[1]).toEqual({ jsonrpc: "2.0", id: "dup", result: { done: true } });
  });

  it("aborts the handler's signal on notifications/cancelled for id 0 and sends no response", async () => {
    const { session, wire, received } = await sessionAndWire();
    let signal: AbortSignal | undefined;
    session.setRequestHandler("wait", (_p, req) => {
      signal = req.signal;
      return new Promise((resolve) => req.signal.addEventListener("abort", () => resolve({ late: true })));
    });
    await wire.send({ jsonrpc: "2.0", id: 0, method: "wait" });
    await until(() => signal);
    await wire.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 0, reason: "user" } });
    await until(() => (signal?.aborted ? true : undefined));
    await wire.send({ jsonrpc: "2.0", id: 5, method: "ping" });
    await until(() => received[0]);
    expect(received).toEqual([{ jsonrpc: "2.0", id: 5, result: {} }]);
  });

  it("on abort sends notifications/cancelled, rejects locally and drops the late response", async () => {
    const { session, wire, received } = await sessionAndWire();
    const controller = new AbortController();
    const pending = session.request("slow", {}, { signal: controller.signal });
    await until(() => received[0]);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: "REQUEST_CANCELLED" });
    await until(() => received[1]);
    expect(received[1]).toMatchObject({ method: "notifications/cancelled", params: { requestId: 0 } });
    // The response crossing the cancellation is dropped; the session keeps working.
    await wire.send({ jsonrpc: "2.0", id: 0, result: { late: true } });
    const next = session.request("next");
    await until(() => received[2]);
    await wire.send({ jsonrpc: "2.0", id: 1, result: { fine: true } });
    await expect(next).resolves.toEqual({ fine: true });
  });

  it("times out, cancels at the peer, and rejects with REQUEST_TIMEOUT", async () => {
    vi.useFakeTimers();
    const { session, received } = await sessionAndWire({ defaultTimeoutMs: 1000 });
    const pending = session.request("slow");
    const outcome = pending.catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(999);
    expect(received).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    const error = await outcome;
    expect(error).toBeInstanceOf(SdkError);
    expect(error).toMatchObject({ code: "REQUEST_TIMEOUT" });
    await vi.advanceTimersByTimeAsync(0);
    expect(received[1]).toMatchObject({ method: "notifications/cancelled", params: { requestId: 0 } });
  });

  it("times out each request after its own wait, also when earlier requests were answered in time", async () => {
    vi.useFakeTimers();
    const { session, wire } = await sessionAndWire({ defaultTimeoutMs: 1000 });
    await vi.advanceTimersByTimeAsync(0);
    for (const id of [0, 1]) {
      const answered = session.request("quick");
      await vi.advanceTimersByTimeAsync(400);
      await wire.send({ jsonrpc: "2.0", id, result: { id } });
      await expect(answered).resolves.toEqual({ id });
    }
    const slow = session.request("slow").catch((e: unknown) => e);
    const other = session.request("slow", {}, { timeoutMs: 300 }).catch((e: unknown) => e);
    let settled = false;
    void slow.then(() => {
      settled = true;
    });
    await vi.advanceTimersByTimeAsync(300);
    expect(await other).toMatchObject({ code: "REQUEST_TIMEOUT" });
    await vi.advanceTimersByTimeAsync(699);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await slow).toMatchObject({ code: "REQUEST_TIMEOUT", message: "slow timed out after 1000 ms" });
  });

  it("waits forever with timeoutMs: Infinity (a request a human answers)", async () => {
    vi.useFakeTimers();
    const { session, wire } = await sessionAndWire({ defaultTimeoutMs: 1000 });
    const pending = session.request("elicitation/create", {}, { timeoutMs: Number.POSITIVE_INFINITY });
    await vi.advanceTimersByTimeAsync(3_600_000);
    await wire.send({ jsonrpc: "2.0", id: 0, result: { action: "accept" } });
    await expect(pending).resolves.toEqual({ action: "accept" });
  });

  it("delivers progress and can reset the timeout on each notification", async () => {
    vi.useFakeTimers();
    const { session, wire, received } = await sessionAndWire();
    const seen: number[] = [];
    const pending = session.request(
      "long",
      { a: 1 },
      { timeoutMs: 1000, resetTimeoutOnProgress: true, onprogress: (p) => seen.push(p.progress) },
    );
    await vi.advanceTimersByTimeAsync(0);
    const token = (received[0] as unknown as { params: { _meta: { progressToken: number } } }).params._meta
      .progressToken;
    expect((received[0] as unknown as { params: { a: number } }).params.a).toBe(1);
    for (const progress of [1, 2, 3]) {
      await vi.advanceTimersByTimeAsync(900);
      await wire.send({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: token, progress } });
      await vi.advanceTimersByTimeAsync(0);
    }
    await wire.send({ jsonrpc: "2.0", id: 0, result: {} });
    await expect(pending).resolves.toEqual({});
    expect(seen).toEqual([1, 2, 3]);
  });

  it("caps the whole request with maxTotalTimeoutMs even when progress keeps coming", async () => {
    vi.useFakeTimers();
    const { session, wire, received } = await sessionAndWire();
    const pending = session
      .request(
        "long",
        {},
        { timeoutMs: 1000, resetTimeoutOnProgress: true, maxTotalTimeoutMs: 2500, onprogress: () => {} },
      )
      .catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(0);
    const token = (received[0] as unknown as { params: { _meta: { progressToken: number } } }).params._meta
      .progressToken;
    for (let i = 1; i <= 4; i++) {
      await vi.advanceTimersByTimeAsync(800);
      await wire.send({
        jsonrpc: "2.0",
        method: "notifications/progress",
        params: { progressToken: token, progress: i },
      });
    }
    await expect(pending).resolves.toMatchObject({ code: "REQUEST_TIMEOUT" });
  });

  it("delivers a progress notification that arrives right before its response", async () => {
    const { session, wire, received } = await sessionAndWire();
    const seen: unknown[] = [];
    const pending = session.request("work", {}, { onprogress: (p) => seen.push(p) });
    const sent = (await until(() => received[0])) as unknown as { params: { _meta: { progressToken: number } } };
    const progressToken = sent.params._meta.progressToken;
    // Written back to back, as a server does when the work ends with a last update.
    void wire.send({
      jsonrpc: "2.0",
      method: "notifications/progress",
      params: { progressToken, progress: 1, total: 1 },
    });
    void wire.send({ jsonrpc: "2.0", id: 0, result: {} });
    await pending;
    expect(seen).toEqual([{ progress: 1, total: 1 }]);
  });

  it("lets a handler report progress with the token the requester chose", async () => {
    const { left, right } = await connectedPair();
    right.setRequestHandler("work", async (_p, req) => {
      await req.sendProgress({ progress: 1, total: 2, message: "half" });
      await req.sendProgress({ progress: 2, total: 2 });
      return { ok: true };
    });
    const seen: unknown[] = [];
    await left.request("work", {}, { onprogress: (p) => seen.push(p) });
    expect(seen).toEqual([
      { progress: 1, total: 2, message: "half" },
      { progress: 2, total: 2 },
    ]);
  });

  it("answers ping with an empty result", async () => {
    const { left } = await connectedPair();
    await expect(left.request("ping")).resolves.toEqual({});
  });

  it("rejects pending requests when the connection closes", async () => {
    const { left, right } = await connectedPair();
    right.setRequestHandler("never", () => new Promise(() => {}));
    const pending = left.request("never");
    await flush();
    await right.close();
    await expect(pending).rejects.toMatchObject({ code: "CONNECTION_CLOSED" });
  });

  it("refuses a batch unless the gate accepts batches", async () => {
    const { session, wire, received } = await sessionAndWire();
    session.setRequestHandler("a", () => ({ a: 1 }));
    (wire as Transport & { send(m: unknown): Promise<void> }).send([
      { jsonrpc: "2.0", id: 1, method: "a" },
    ] as unknown as JsonRpcMessage);
    await until(() => received[0]);
    expect(received[0]).toMatchObject({ id: null, error: { code: -32600 } });
    session.setGate({
      acceptsBatch: true,
      checkInbound: () => undefined,
      checkOutbound: () => undefined,
      encode: (m) => m,
    });
    await wire.send([
      { jsonrpc: "2.0", id: 1, method: "a" },
      { jsonrpc: "2.0", id: 2, method: "a" },
    ] as unknown as JsonRpcMessage);
    await until(() => (received.length === 3 ? true : undefined));
    expect(received.slice(1)).toEqual([
      { jsonrpc: "2.0", id: 1, result: { a: 1 } },
      { jsonrpc: "2.0", id: 2, result: { a: 1 } },
    ]);
  });

  it("sends nothing when the gate refuses an outbound request, and says why locally", async () => {
    const { session, received } = await sessionAndWire();
    session.setGate({
      acceptsBatch: false,
      checkInbound: () => undefined,
      checkOutbound: (m) => new SdkError("CAPABILITY_NOT_SUPPORTED", `client did not declare ${m.method}`),
      encode: (m) => m,
    });
    await expect(session.request("sampling/createMessage")).rejects.toMatchObject({ code: "CAPABILITY_NOT_SUPPORTED" });
    await flush();
    expect(received).toEqual([]);
  });

  it("answers the gate's inbound refusal with its error and keeps serving", async () => {
    const { session, wire, received } = await sessionAndWire();
    session.setRequestHandler("ok", () => ({}));
    session.setGate({
      acceptsBatch: false,
      checkInbound: (m) => (m.method === "bad" ? new ProtocolError(-32602, "Invalid params: x") : undefined),
      checkOutbound: () => undefined,
      encode: (m) => m,
    });
    await wire.send({ jsonrpc: "2.0", id: 1, method: "bad" });
    await wire.send({ jsonrpc: "2.0", id: 2, method: "ok" });
    await until(() => (received.length === 2 ? true : undefined));
    expect(received[0]).toMatchObject({ id: 1, error: { code: -32602, message: "Invalid params: x" } });
    expect(received[1]).toMatchObject({ id: 2, result: {} });
  });
});
