import { describe, expect, test } from "vitest";
import {
  createPresumedGate,
  createStatelessGate,
  META,
  presumeHandshake,
  SUPPORTED_VERSIONS,
} from "../../src/revisions/index.js";

const meta = {
  [META.protocolVersion]: "2026-07-28",
  [META.clientCapabilities]: {},
  [META.clientInfo]: { name: "t", version: "1" },
};

function presumed(version: string | undefined) {
  const handshake = presumeHandshake(version);
  if (handshake === undefined) throw new Error(`no handshake presumed for ${version}`);
  return handshake;
}

describe("presumeHandshake (a request whose initialize was answered elsewhere)", () => {
  test.each(SUPPORTED_VERSIONS)("takes the revision a request names (%s), with no client capabilities", (version) => {
    expect(presumed(version).revision.version).toBe(version);
    expect(presumed(version).clientCapabilities).toEqual({});
  });

  test("takes 2025-03-26 for a request that names none", () => {
    expect(presumed(undefined).revision.version).toBe("2025-03-26");
  });

  test.each(["2099-01-01", "2026-07-28", ""])("presumes nothing for %j, which no handshake agrees", (version) => {
    expect(presumeHandshake(version)).toBeUndefined();
  });
});

describe("createPresumedGate", () => {
  const gate = () => createPresumedGate(presumed("2025-03-26"), createStatelessGate());

  test("lets requests in as after initialize, and refuses a second initialize", () => {
    const g = gate();
    expect(g.checkInbound({ jsonrpc: "2.0", id: 1, method: "tools/list" })).toBeUndefined();
    expect(g.checkInbound({ jsonrpc: "2.0", id: 2, method: "initialize", params: {} })?.code).toBe(-32600);
    expect(g.acceptsBatch).toBe(true);
  });

  test("sends no request that needs a client capability, and may send one that needs none", () => {
    const g = gate();
    expect(g.checkOutbound({ jsonrpc: "2.0", id: 1, method: "roots/list" })).toMatchObject({
      code: "CAPABILITY_NOT_SUPPORTED",
    });
    expect(g.checkOutbound({ jsonrpc: "2.0", id: 2, method: "ping" })).toBeUndefined();
  });

  test("encodes results for the presumed revision: 2025-03-26 has no tool titles", () => {
    const g = gate();
    g.checkInbound({ jsonrpc: "2.0", id: 1, method: "tools/list" });
    const tool = { name: "greet", title: "Greeter", inputSchema: { type: "object" } };
    const encoded = g.encode({ jsonrpc: "2.0", id: 1, result: { tools: [tool] } });
    expect(encoded.result).toEqual({ tools: [{ name: "greet", inputSchema: { type: "object" } }] });
  });

  test("still serves a 2026-07-28 request statelessly, its result encoded for that revision", () => {
    const g = gate();
    expect(g.checkInbound({ jsonrpc: "2.0", id: 3, method: "tools/list", params: { _meta: meta } })).toBeUndefined();
    expect(g.encode({ jsonrpc: "2.0", id: 3, result: { tools: [] } }).result).toMatchObject({
      resultType: "complete",
    });
  });
});
