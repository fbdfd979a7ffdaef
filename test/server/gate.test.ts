import { describe, expect, it } from "vitest";
import { SdkError } from "../../src/jsonrpc/errors.js";
import { revisionFor } from "../../src/revisions/negotiate.js";
import { createGate, createHandshakeGate } from "../../src/revisions/stateful/gate.js";

const revision = (version: string) => {
  const found = revisionFor(version);
  if (!found) throw new Error(`no revision ${version}`);
  return found;
};

const request = (method: string, params?: Record<string, unknown>) =>
  params === undefined
    ? { jsonrpc: "2.0" as const, id: 1, method }
    : { jsonrpc: "2.0" as const, id: 1, method, params };

describe("createHandshakeGate", () => {
  it("lets a server receive only initialize and ping", () => {
    const gate = createHandshakeGate("server");
    expect(gate.checkInbound(request("initialize"))).toBeUndefined();
    expect(gate.checkInbound(request("ping"))).toBeUndefined();
    expect(gate.checkInbound(request("tools/list"))).toMatchObject({ code: -32600 });
    expect(gate.checkInbound({ jsonrpc: "2.0", method: "notifications/initialized" })).toBeUndefined();
    expect(gate.checkOutbound(request("roots/list"))).toMatchObject({ code: "NOT_CONNECTED" });
  });

  it("lets a client send only initialize and ping", () => {
    const gate = createHandshakeGate("client");
    expect(gate.checkOutbound(request("initialize"))).toBeUndefined();
    expect(gate.checkOutbound(request("tools/list"))).toBeInstanceOf(SdkError);
    expect(gate.checkInbound(request("sampling/createMessage"))).toMatchObject({ code: -32600 });
  });
});

describe("createGate for a client", () => {
  const gate = createGate(revision("2025-11-25"), {
    role: "client",
    peerCapabilities: { tools: {} },
    initialized: { initialized: true },
  });

  it("sends what the server declared and refuses the rest locally", () => {
    expect(gate.checkOutbound(request("tools/list"))).toBeUndefined();
    expect(gate.checkOutbound(request("prompts/list"))).toMatchObject({ code: "CAPABILITY_NOT_SUPPORTED" });
  });

  it("refuses a method the revision lacks for that sender", () => {
    expect(gate.checkOutbound(request("sampling/createMessage", { messages: [], maxTokens: 1 }))).toMatchObject({
      code: "METHOD_NOT_SUPPORTED",
    });
  });

  it("lets an extension's notification through and still checks the ones the revision defines", () => {
    expect(
      gate.checkInbound({ jsonrpc: "2.0", method: "notifications/acme/heartbeat", params: { n: 1 } }),
    ).toBeUndefined();
    expect(
      gate.checkInbound({ jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri: 42 } }),
    ).toMatchObject({ code: -32602 });
  });

  it("takes batches from the revision", () => {
    const old = createGate(revision("2025-03-26"), {
      role: "client",
      peerCapabilities: {},
      initialized: { initialized: true },
    });
    expect(old.acceptsBatch).toBe(true);
    expect(gate.acceptsBatch).toBe(false);
  });
});

describe("createGate for a server", () => {
  it("refuses a malformed outbound message locally", () => {
    const gate = createGate(revision("2025-11-25"), {
      role: "server",
      peerCapabilities: { roots: {} },
      initialized: { initialized: true },
    });
    expect(gate.checkOutbound(request("roots/list"))).toBeUndefined();
    expect(gate.checkOutbound({ jsonrpc: "2.0", method: "notifications/progress", params: {} })).toMatchObject({
      code: "INVALID_ARGUMENT",
    });
  });
});
