/**
 * The client's CLIENT span per request goes to the server in `params._meta.traceparent`, so the
 * server's span is its child, in both eras; with client tracing off nothing is sent and the
 * server starts a trace of its own. The server hears the client outside the client's async
 * context, so only what `_meta` carries can join them.
 */
import { context, ROOT_CONTEXT, trace } from "@opentelemetry/api";
import { describe, expect, it } from "vitest";
import { McpClient } from "../../src/client/index.js";
import { McpServer } from "../../src/server/index.js";
import type { TracingOption } from "../../src/tracing/index.js";
import { createMemoryTransportPair } from "../../src/transports/memory.js";
import { parentOf, recorder } from "./support.js";

const spans = recorder();

async function pair(protocolVersion: string | undefined, clientTracing: TracingOption) {
  const server = new McpServer(
    { name: "traced", version: "1.0.0" },
    { tracing: { tracer: spans.tracerNamed("server") } },
  );
  server.registerTool("echo", { description: "Echoes" }, () => ({ content: [{ type: "text", text: "hi" }] }));
  const [clientEnd, serverEnd] = createMemoryTransportPair();
  await server.connect(serverEnd);
  // The server hears each message outside the client's context, as another process would.
  const deliver = serverEnd.onmessage;
  serverEnd.onmessage = (message, extra) => context.with(ROOT_CONTEXT, () => deliver?.(message, extra));
  const client = new McpClient(
    { name: "agent", version: "1.0.0" },
    { tracing: clientTracing, ...(protocolVersion === undefined ? {} : { protocolVersion }) },
  );
  await client.connect(clientEnd);
  return client;
}

describe("client spans", () => {
  for (const era of ["2025-11-25", undefined]) {
    it(`joins the server's span to the caller's trace (${era ?? "negotiated"})`, async () => {
      const client = await pair(era, { tracer: spans.tracerNamed("client") });
      spans.reset();
      const task = spans.tracer.startSpan("caller task");
      await context.with(trace.setSpan(context.active(), task), () => client.callTool({ name: "echo", arguments: {} }));
      task.end();
      const calls = spans.named("tools/call echo");
      const sent = calls.find((span) => span.instrumentationScope.name === "client");
      const served = calls.find((span) => span.instrumentationScope.name === "server");
      expect(sent?.kind).toBe(2);
      expect(parentOf(sent as never)).toBe(task.spanContext().spanId);
      expect(served?.spanContext().traceId).toBe(task.spanContext().traceId);
      expect(parentOf(served as never)).toBe(sent?.spanContext().spanId);
      await client.close();
    });
  }

  it("sends no trace context with client tracing off: the server starts its own trace", async () => {
    const client = await pair(undefined, false);
    spans.reset();
    const task = spans.tracer.startSpan("caller task");
    await context.with(trace.setSpan(context.active(), task), () => client.callTool({ name: "echo", arguments: {} }));
    task.end();
    const [served] = spans.named("tools/call echo");
    expect(served?.instrumentationScope.name).toBe("server");
    expect(served?.spanContext().traceId).not.toBe(task.spanContext().traceId);
    expect(parentOf(served as never)).toBeUndefined();
    await client.close();
  });
});
