/**
 * One SERVER span per inbound request, named and described by the MCP semantic conventions, whose
 * parent is the W3C trace context the client put in `params._meta`; a malformed one is ignored.
 */
import { describe, expect, it } from "vitest";
import { JsonRpcSession } from "../../src/jsonrpc/session.js";
import { McpServer } from "../../src/server/index.js";
import { createMemoryTransportPair } from "../../src/transports/memory.js";
import { parentOf, recorder } from "./support.js";

const TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
const PARENT_ID = "00f067aa0ba902b7";

async function serverWith(tracing: ConstructorParameters<typeof McpServer>[1]) {
  const server = new McpServer({ name: "traced", version: "1.0.0" }, tracing);
  server.registerTool("echo", { description: "Echoes" }, () => ({ content: [{ type: "text", text: "hi" }] }));
  server.registerTool("fails", { description: "Fails" }, () => {
    throw new Error("broken");
  });
  const [clientEnd, serverEnd] = createMemoryTransportPair();
  await server.connect(serverEnd);
  const client = new JsonRpcSession();
  await client.connect(clientEnd);
  await client.request("initialize", {
    protocolVersion: "2025-11-25",
    capabilities: {},
    clientInfo: { name: "t", version: "1" },
  });
  await client.notify("notifications/initialized");
  return { server, client };
}

describe("request spans", () => {
  it("makes a SERVER span per request with the MCP attributes", async () => {
    const spans = recorder();
    const { client } = await serverWith({ tracing: { tracer: spans.tracer } });
    await client.request("tools/call", { name: "echo", arguments: {} });
    const [call] = spans.named("tools/call echo");
    expect(call?.kind).toBe(1);
    expect(call?.attributes).toMatchObject({
      "mcp.method.name": "tools/call",
      "gen_ai.tool.name": "echo",
      "mcp.protocol.version": "2025-11-25",
    });
    expect(typeof call?.attributes["jsonrpc.request.id"]).toBe("string");
    expect(spans.named("initialize")).toHaveLength(1);
  });

  it("continues the trace of a well-formed _meta.traceparent", async () => {
    const spans = recorder();
    const { client } = await serverWith({ tracing: { tracer: spans.tracer } });
    const traceparent = `00-${TRACE_ID}-${PARENT_ID}-01`;
    await client.request("tools/call", { name: "echo", arguments: {}, _meta: { traceparent } });
    const [call] = spans.named("tools/call echo");
    expect(call?.spanContext().traceId).toBe(TRACE_ID);
    expect(parentOf(call as never)).toBe(PARENT_ID);
  });

  it("ignores a malformed traceparent: a new trace, and the request is served", async () => {
    const spans = recorder();
    const { client } = await serverWith({ tracing: { tracer: spans.tracer } });
    for (const traceparent of [
      `00-${"0".repeat(32)}-${PARENT_ID}-01`,
      "00-zz-yy-01",
      `ff-${TRACE_ID}-${PARENT_ID}-01`,
    ]) {
      const result = await client.request("tools/call", { name: "echo", arguments: {}, _meta: { traceparent } });
      expect(result.content).toEqual([{ type: "text", text: "hi" }]);
    }
    const calls = spans.named("tools/call echo");
    expect(calls).toHaveLength(3);
    for (const call of calls) {
      expect(call.spanContext().traceId).not.toBe(TRACE_ID);
      expect(parentOf(call)).toBeUndefined();
    }
  });

  it("marks a tool error and a JSON-RPC error failed, by type only", async () => {
    const spans = recorder();
    const { client } = await serverWith({ tracing: { tracer: spans.tracer } });
    await client.request("tools/call", { name: "fails", arguments: {} });
    await client.request("tools/call", { name: "missing", arguments: {} }).catch(() => undefined);
    const [failed] = spans.named("tools/call fails");
    expect(failed?.status.code).toBe(2);
    expect(failed?.attributes["error.type"]).toBe("tool_error");
    const [missing] = spans.named("tools/call missing");
    expect(missing?.status.code).toBe(2);
    expect(missing?.attributes["error.type"]).toBe("-32602");
    expect(JSON.stringify(missing?.status)).not.toContain("missing");
  });

  it("makes no span with tracing off, and serves as before", async () => {
    const spans = recorder();
    const { client } = await serverWith({ tracing: false });
    const result = await client.request("tools/call", { name: "echo", arguments: {} });
    expect(result.content).toEqual([{ type: "text", text: "hi" }]);
    expect(spans.spans()).toEqual([]);
  });
});
