import { afterEach, describe, expect, it, vi } from "vitest";
import { SdkError } from "../../src/jsonrpc/errors.js";
import { openGate } from "../../src/jsonrpc/gate.js";
import { type InboundRequest, JsonRpcSession } from "../../src/jsonrpc/session.js";
import type { Transport } from "../../src/jsonrpc/transport.js";
import { createMemoryTransportPair } from "../../src/transports/memory.js";
import { flush, sessionAndWire, until } from "./support.js";

afterEach(() => {
  vi.useRealTimers();
});

describe("JsonRpcSession edge cases", () => {
  it("leaves no timeout behind when the transport delivers the answer before send returns", async () => {
    vi.useFakeTimers();
    const session = new JsonRpcSession({ defaultTimeoutMs: 1000 });
    // An in-process peer that answers every request synchronously, from within `send`.
    const transport: Transport = {
      start: async () => {},
      close: async () => {},
      send: (message) => {
        if ("method" in message && "id" in message)
          transport.onmessage?.({ jsonrpc: "2.0", id: message.id, result: {} });
        return Promise.resolve();
      },
    };
    await session.connect(transport);
    await expect(session.request("quick")).resolves.toEqual({});
    // A timer armed for the settled request would hold the process open for the whole second.
    expect(vi.getTimerCount()).toBe(0);
    // Positive control: a request the transport does not answer at once keeps its timeout.
    transport.send = () => Promise.resolve();
    const slow = session.request("slow").catch((e: unknown) => e);
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(1000);
    expect(await slow).toMatchObject({ code: "REQUEST_TIMEOUT" });
  });

  it("rejects (never throws) with REQUEST_CANCELLED when the signal is already aborted, and sends nothing", async () => {
    const { session, received } = await sessionAndWire();
    const controller = new AbortController();
    controller.abort(new Error("user gave up"));
    let outcome: unknown;
    try {
      outcome = await session.request("x", {}, { signal: controller.signal }).catch((e: unknown) => e);
    } catch (thrown) {
      outcome = { thrownSynchronously: thrown };
    }
    expect(outcome).toBeInstanceOf(SdkError);
    expect(outcome).toMatchObject({ code: "REQUEST_CANCELLED" });
    expect((outcome as SdkError).cause).toEqual(new Error("user gave up"));
    await flush();
    expect(received).toEqual([]);
  });

  it("runs a handler after receive returns, and answers a thenable with what it resolves to", async () => {
    const { session, wire, received } = await sessionAndWire();
    const ran: string[] = [];
    session.setRequestHandler("now", () => {
      ran.push("now");
      return { at: "once" };
    });
    // Not a Promise: an object with a `then`, as some libraries return.
    session.setRequestHandler("later", () => ({
      // biome-ignore lint/suspicious/noThenProperty: a thenable is what this test sends
      then: (resolve: (value: unknown) => void) => resolve({ at: "later" }),
    }));
    await wire.send({ jsonrpc: "2.0", id: 1, method: "now" });
    await wire.send({ jsonrpc: "2.0", id: 2, method: "later" });
    await until(() => (received.length === 2 ? true : undefined));
    expect(ran).toEqual(["now"]);
    expect(received).toEqual([
      { jsonrpc: "2.0", id: 1, result: { at: "once" } },
      { jsonrpc: "2.0", id: 2, result: { at: "later" } },
    ]);
  });

  it("answers -32603 for a result whose then getter throws, and keeps serving", async () => {
    const { session, wire, received } = await sessionAndWire();
    session.setRequestHandler("odd", () => ({
      // biome-ignore lint/suspicious/noThenProperty: a result that breaks the thenable check is what this test sends
      get then() {
        throw new Error("not readable");
      },
    }));
    session.setRequestHandler("fine", () => ({ ok: true }));
    await wire.send({ jsonrpc: "2.0", id: 1, method: "odd" });
    await wire.send({ jsonrpc: "2.0", id: 2, method: "fine" });
    await until(() => (received.length === 2 ? true : undefined));
    expect(received[0]).toMatchObject({ id: 1, error: { code: -32603 } });
    expect(JSON.stringify(received[0])).not.toContain("not readable");
    expect(received[1]).toEqual({ jsonrpc: "2.0", id: 2, result: { ok: true } });
  });

  it("does not run a handler within the transport's delivery of its request", async () => {
    const session = new JsonRpcSession();
    const transport: Transport = { start: async () => {}, close: async () => {}, send: () => Promise.resolve() };
    await session.connect(transport);
    let ran = false;
    session.setRequestHandler("work", () => {
      ran = true;
      return {};
    });
    transport.onmessage?.({ jsonrpc: "2.0", id: 1, method: "work" });
    expect(ran).toBe(false);
    await Promise.resolve();
    expect(ran).toBe(true);
  });

  it("sends no progress for a request once its response is sent (spec: basic/utilities/progress)", async () => {
    const { session, wire, received } = await sessionAndWire();
    let done: InboundRequest | undefined;
    session.setRequestHandler("work", (_params, request) => {
      done = request;
      return {};
    });
    await wire.send({ jsonrpc: "2.0", id: 7, method: "work", params: { _meta: { progressToken: "t" } } });
    await until(() => received[0]);
    await done?.sendProgress({ progress: 1 });
    await flush();
    expect(received).toEqual([{ jsonrpc: "2.0", id: 7, result: {} }]);
  });

  it("answers -32603 when a handler returns something other than a result object", async () => {
    const { session, wire, received } = await sessionAndWire();
    const errors: Error[] = [];
    session.onerror = (error) => errors.push(error);
    session.setRequestHandler("nothing", (() => undefined) as unknown as () => Record<string, unknown>);
    session.setRequestHandler("list", (() => [1, 2]) as unknown as () => Record<string, unknown>);
    await wire.send({ jsonrpc: "2.0", id: 1, method: "nothing" });
    await wire.send({ jsonrpc: "2.0", id: 2, method: "list" });
    await until(() => received[1]);
    expect(received).toEqual([
      { jsonrpc: "2.0", id: 1, error: { code: -32603, message: "Internal error" } },
      { jsonrpc: "2.0", id: 2, error: { code: -32603, message: "Internal error" } },
    ]);
    expect(errors.map((e) => e.message)).toEqual([
      "The nothing handler returned undefined instead of a result object",
      "The list handler returned an array instead of a result object",
    ]);
  });

  it("answers -32603 and keeps serving when its gate throws on an inbound message", async () => {
    const { session, wire, received } = await sessionAndWire();
    const errors: Error[] = [];
    session.onerror = (error) => errors.push(error);
    session.setRequestHandler("work", () => ({ done: true }));
    let broken = true;
    session.setGate({
      ...openGate,
      checkInbound: () => {
        if (broken) throw new Error("Cannot find module './generated/x.cjs'");
        return undefined;
      },
    });
    await wire.send({ jsonrpc: "2.0", id: 1, method: "work" });
    await wire.send({ jsonrpc: "2.0", method: "notifications/whatever" });
    await until(() => received[0]);
    broken = false;
    await wire.send({ jsonrpc: "2.0", id: 2, method: "work" });
    await until(() => received[1]);
    expect(received).toEqual([
      { jsonrpc: "2.0", id: 1, error: { code: -32603, message: "Internal error" } },
      { jsonrpc: "2.0", id: 2, result: { done: true } },
    ]);
    expect(errors.map((e) => e.message)).toEqual([
      "Cannot find module './generated/x.cjs'",
      "Cannot find module './generated/x.cjs'",
    ]);
  });

  it("settles requests in flight and reports closed even when the transport fails to close", async () => {
    const [a, b] = createMemoryTransportPair();
    await b.start();
    const failing: Transport = Object.assign(a, {
      close: async () => {
        throw new Error("socket already gone");
      },
    });
    const session = new JsonRpcSession();
    let closed = 0;
    session.onclose = () => closed++;
    await session.connect(failing);
    const pending = session.request("never").catch((e: unknown) => e);
    await expect(session.close()).rejects.toThrow("socket already gone");
    await expect(pending).resolves.toMatchObject({ code: "CONNECTION_CLOSED" });
    expect(closed).toBe(1);
    expect(session.isConnected).toBe(false);
  });
  it("matches each of many requests in flight with its own response, in any order, while an early one still waits", async () => {
    const { session, wire, received } = await sessionAndWire();
    const early = session.request("slow");
    const many = Array.from({ length: 5000 }, (_, i) => session.request("x", { i }));
    await until(() => (received.length === 5001 ? true : undefined));
    for (const message of [...received].reverse()) {
      if ("method" in message && message.method === "x" && "id" in message) {
        await wire.send({ jsonrpc: "2.0", id: message.id, result: { i: (message.params as { i: number }).i } });
      }
    }
    const results = await Promise.all(many);
    expect(results.map((result) => result.i)).toEqual(Array.from({ length: 5000 }, (_, i) => i));
    const later = session.request("later");
    await wire.send({ jsonrpc: "2.0", id: 0, result: { slow: true } });
    await expect(early).resolves.toEqual({ slow: true });
    const order: string[] = [];
    const closed = later.catch((error: SdkError) => order.push(`later ${error.code}`));
    await session.close();
    await closed;
    expect(order).toEqual(["later CONNECTION_CLOSED"]);
  });

  it("a second session refused a transport another one serves leaves that session hearing it", async () => {
    const { session, wire, received } = await sessionAndWire();
    const intruder = new JsonRpcSession();
    await expect(intruder.connect(session.currentTransport as Transport)).rejects.toMatchObject({
      code: "ALREADY_CONNECTED",
    });
    expect(intruder.isConnected).toBe(false);
    let answer: unknown;
    void session.request("x").then((result) => {
      answer = result;
    });
    const sent = await until(() => received.find((message) => "method" in message && message.method === "x"));
    await wire.send({ jsonrpc: "2.0", id: (sent as { id: number }).id, result: { heard: true } });
    expect(await until(() => answer)).toEqual({ heard: true });
    await session.close();
    expect(session.isConnected).toBe(false);
  });

  it("on close rejects every request still waiting, the oldest first", async () => {
    const { session, received } = await sessionAndWire();
    const order: number[] = [];
    const waits = Array.from({ length: 40 }, (_, i) =>
      session.request("x").catch((error: SdkError) => {
        expect(error.code).toBe("CONNECTION_CLOSED");
        order.push(i);
      }),
    );
    await until(() => (received.length === 40 ? true : undefined));
    await session.close();
    await Promise.all(waits);
    expect(order).toEqual(Array.from({ length: 40 }, (_, i) => i));
  });
});
