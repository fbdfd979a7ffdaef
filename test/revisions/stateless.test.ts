import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { ProtocolError, SdkError } from "../../src/jsonrpc/errors.js";
import {
  checkInputResponse,
  createEntryGate,
  createStatelessGate,
  META,
  openRequestState,
  readRequestMeta,
  STATELESS_METHODS,
  sealRequestState,
} from "../../src/revisions/index.js";

const EXAMPLES = join(import.meta.dirname, "../../spec/examples-2026-07-28");
const meta = {
  [META.protocolVersion]: "2026-07-28",
  [META.clientCapabilities]: {},
  [META.clientInfo]: { name: "t", version: "1" },
};

describe("stateless codec (2026-07-28)", () => {
  test("the method table has server/discover and subscriptions/listen, and no handshake, ping or setLevel", () => {
    const methods = [...STATELESS_METHODS.clientRequests.keys()];
    expect(methods).toContain("server/discover");
    expect(methods).toContain("subscriptions/listen");
    for (const gone of ["initialize", "ping", "logging/setLevel", "resources/subscribe"]) {
      expect(methods).not.toContain(gone);
    }
    expect(STATELESS_METHODS.serverRequests.size).toBe(0);
  });

  test("an official request passes the gate, and its result leaves with resultType, serverInfo and cache hints", () => {
    const gate = createStatelessGate({ serverInfo: { name: "s", version: "1" } });
    const request = JSON.parse(readFileSync(join(EXAMPLES, "CallToolRequest/call-tool-request.json"), "utf8"));
    expect(gate.claims(request)).toBe(true);
    expect(gate.checkInbound(request)).toBeUndefined();
    const encoded = gate.encode({ jsonrpc: "2.0", id: request.id, result: { content: [] } });
    expect(encoded.result).toEqual({
      content: [],
      resultType: "complete",
      _meta: { [META.serverInfo]: { name: "s", version: "1" } },
    });
    const list = { jsonrpc: "2.0" as const, id: 2, method: "tools/list", params: { _meta: meta } };
    expect(gate.checkInbound(list)).toBeUndefined();
    expect(gate.encode({ jsonrpc: "2.0", id: 2, result: { tools: [] } }).result).toMatchObject({
      ttlMs: 0,
      cacheScope: "private",
      resultType: "complete",
    });
  });

  test("an unknown version is refused with -32022 listing what the server speaks", () => {
    const error = catchError(() =>
      readRequestMeta({ _meta: { ...meta, [META.protocolVersion]: "1900-01-01" } }),
    ) as ProtocolError;
    expect(error.code).toBe(-32022);
    expect(error.data).toMatchObject({ requested: "1900-01-01" });
    expect((error.data as { supported: string[] }).supported).toContain("2026-07-28");
    expect((error.data as { supported: string[] }).supported).toContain("2025-11-25");
  });

  test("a stateless request for a method the revision lacks is -32601; missing capabilities are -32602", () => {
    const gate = createStatelessGate();
    const ping = gate.checkInbound({ jsonrpc: "2.0", id: 1, method: "ping", params: { _meta: meta } });
    expect(ping?.code).toBe(-32601);
    const bare = gate.checkInbound({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/list",
      params: { _meta: { [META.protocolVersion]: "2026-07-28" } },
    });
    expect(bare?.code).toBe(-32602);
  });

  test("the entry gate serves both eras: initialize goes to the handshake, a 2026 request is served", () => {
    const gate = createEntryGate(createStatelessGate());
    expect(gate.checkInbound({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} })).toBeUndefined();
    expect(gate.checkInbound({ jsonrpc: "2.0", id: 2, method: "tools/list" })?.code).toBe(-32600);
    expect(gate.checkInbound({ jsonrpc: "2.0", id: 3, method: "tools/list", params: { _meta: meta } })).toBeUndefined();
    expect(gate.checkOutbound({ jsonrpc: "2.0", id: 4, method: "roots/list" })).toBeInstanceOf(SdkError);
  });
});

describe("inputResponses", () => {
  test("an elicitation's decline or cancel is read without its content; an accept keeps it", () => {
    const content = { name: "Mallory" };
    expect(checkInputResponse("k", "elicitation/create", { action: "decline", content })).toEqual({
      action: "decline",
    });
    expect(checkInputResponse("k", "elicitation/create", { action: "cancel", content })).toEqual({ action: "cancel" });
    expect(checkInputResponse("k", "elicitation/create", { action: "accept", content })).toEqual({
      action: "accept",
      content,
    });
  });

  test("an answer of the wrong shape is refused with -32602 naming its key", () => {
    expect(() => checkInputResponse("k", "elicitation/create", { action: "maybe" })).toThrow(
      expect.objectContaining({ code: -32602, message: expect.stringContaining("inputResponses.k") }),
    );
  });
});

describe("requestState", () => {
  const keys = { keys: [{ id: "k1", key: new Uint8Array(32).fill(7) }], now: () => 1_000 };
  const bound = { method: "tools/call", params: { name: "x", arguments: { a: 1 } }, user: { subject: "alice" } };
  const payload = { answers: { roots: { method: "roots/list", result: { roots: [] } } }, pending: [] };

  test("round-trips for the same user and request, whatever the _meta and inputs", async () => {
    const state = await sealRequestState(keys, payload, { ...bound, ttlMs: 60_000 });
    const params = { ...bound.params, _meta: meta, inputResponses: {}, requestState: state };
    await expect(openRequestState(keys, state, { ...bound, params })).resolves.toEqual(payload);
  });

  test("a flipped byte, another user, another request or a passed expiry is refused with -32602", async () => {
    const state = await sealRequestState(keys, payload, { ...bound, ttlMs: 60_000 });
    const at = state.length - 30;
    const tampered = `${state.slice(0, at)}${state[at] === "A" ? "B" : "A"}${state.slice(at + 1)}`;
    const cases: [string, () => Promise<unknown>][] = [
      ["altered", () => openRequestState(keys, tampered, bound)],
      ["another user", () => openRequestState(keys, state, { ...bound, user: { subject: "mallory" } })],
      [
        "another request",
        () => openRequestState(keys, state, { ...bound, params: { name: "x", arguments: { a: 2 } } }),
      ],
      ["expired", () => openRequestState({ ...keys, now: () => 61_000 }, state, bound)],
    ];
    for (const [why, open] of cases) {
      const error = (await open().catch((caught: unknown) => caught)) as ProtocolError;
      expect(error, why).toBeInstanceOf(ProtocolError);
      expect(error.code, why).toBe(-32602);
      expect(error.message, why).toContain(why === "altered" ? "altered" : why);
    }
    await expect(openRequestState(keys, state, bound)).resolves.toEqual(payload);
  });

  test("only the string as issued is accepted: a tag spelt differently but decoding alike is altered", async () => {
    const state = await sealRequestState(keys, payload, { ...bound, ttlMs: 60_000 });
    const head = state.slice(0, state.lastIndexOf(".") + 1);
    const tag = state.slice(head.length);
    // The tag's last character carries two unused bits: these spellings decode to the same bytes.
    const sameBytes = [...BASE64URL].filter(
      (c) =>
        c !== tag.at(-1) && Buffer.from(`${tag.slice(0, -1)}${c}`, "base64url").equals(Buffer.from(tag, "base64url")),
    );
    expect(sameBytes.length).toBeGreaterThan(0);
    const respelt = [
      `${state}!!`,
      `${state}=`,
      `${head}${tag.slice(0, 10)} ${tag.slice(10)}`,
      `${head}${tag.replace(/-/g, "+").replace(/_/g, "/")}${/[-_]/.test(tag) ? "" : "="}`,
      ...sameBytes.map((c) => `${head}${tag.slice(0, -1)}${c}`),
    ];
    for (const variant of respelt) {
      expect(variant).not.toBe(state);
      const error = (await openRequestState(keys, variant, bound).catch((caught: unknown) => caught)) as ProtocolError;
      expect(error, variant).toBeInstanceOf(ProtocolError);
      expect(error.code, variant).toBe(-32602);
      expect(error.message, variant).toContain("altered");
    }
    await expect(openRequestState(keys, state, bound)).resolves.toEqual(payload);
  });
});

const BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

function catchError(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error("expected an error");
}
