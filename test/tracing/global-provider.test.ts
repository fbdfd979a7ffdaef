/**
 * Tracing through the global provider (no tracer given): before an SDK is registered, a caller's
 * trace context still reaches the server in `_meta`; once one is registered, the requests that
 * follow make spans on both sides, although client and server were made before it. In a process
 * where nothing was registered, the API is not even loaded until something is.
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { context, ROOT_CONTEXT, trace } from "@opentelemetry/api";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { describe, expect, it } from "vitest";
import { McpClient } from "../../src/client/index.js";
import type { JsonRpcMessage } from "../../src/jsonrpc/messages.js";
import { McpServer } from "../../src/server/index.js";
import { createMemoryTransportPair } from "../../src/transports/memory.js";
import { recorder } from "./support.js";

// Installs the async context manager and the W3C propagator, as a Node SDK does.
recorder();

async function pair() {
  const server = new McpServer({ name: "traced", version: "1.0.0" });
  server.registerTool("echo", { description: "Echoes" }, () => ({ content: [{ type: "text", text: "hi" }] }));
  const [clientEnd, serverEnd] = createMemoryTransportPair();
  await server.connect(serverEnd);
  const heard: JsonRpcMessage[] = [];
  const deliver = serverEnd.onmessage;
  serverEnd.onmessage = (message, extra) => {
    if (!Array.isArray(message)) heard.push(message);
    context.with(ROOT_CONTEXT, () => deliver?.(message, extra));
  };
  const client = new McpClient({ name: "agent", version: "1.0.0" });
  await client.connect(clientEnd);
  return { client, heard };
}

function traceparentOf(message: JsonRpcMessage | undefined): unknown {
  const params = (message as { params?: { _meta?: { traceparent?: unknown } } } | undefined)?.params;
  return params?._meta?.traceparent;
}

describe("tracing through the global provider", () => {
  it("passes the caller's trace on without an SDK, and traces once one is registered", async () => {
    const { client, heard } = await pair();
    await client.callTool({ name: "echo", arguments: {} });
    expect(traceparentOf(heard.at(-1))).toBeUndefined();

    const caller = trace.wrapSpanContext({
      traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
      spanId: "00f067aa0ba902b7",
      traceFlags: 1,
    });
    await context.with(trace.setSpan(ROOT_CONTEXT, caller), () => client.callTool({ name: "echo", arguments: {} }));
    expect(traceparentOf(heard.at(-1))).toBe("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");

    const exporter = new InMemorySpanExporter();
    trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
    await client.callTool({ name: "echo", arguments: {} });
    const calls = exporter.getFinishedSpans().filter((span) => span.name === "tools/call echo");
    expect(calls.map((span) => span.kind).sort()).toEqual([1, 2]);
    expect(traceparentOf(heard.at(-1))).toMatch(new RegExp(`^00-${calls[0]?.spanContext().traceId}-`));
    await client.close();
  });
});

describe("tracing by default in a process where nothing was registered with the API", () => {
  it("loads no @opentelemetry package to serve and send, and traces once an SDK is registered", async () => {
    const root = fileURLToPath(new URL("../../", import.meta.url));
    const fixture = fileURLToPath(new URL("./fixtures/register-later.ts", import.meta.url));
    const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", fixture], { cwd: root });
    const { loadedBefore, spans } = JSON.parse(stdout.trim().split("\n").at(-1) ?? "");
    expect(loadedBefore).toBe(false);
    // The call that found the SDK registered started loading the API; the next one is traced on both sides.
    expect(spans).toEqual(expect.arrayContaining(["tools/call echo 1", "tools/call echo 2"]));
  });
});
