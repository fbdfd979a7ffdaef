import { EventEmitter } from "node:events";
import type { IncomingMessage, ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { toNodeHandler } from "../../src/transports/http/node.js";
import type { StreamableHttpServer } from "../../src/transports/http/server.js";

/** A response whose socket is always full: every write waits for `drain`, which comes a moment later. */
function slowResponse() {
  const res = new EventEmitter() as EventEmitter & Record<string, unknown>;
  res.headersSent = false;
  res.writeHead = () => {
    res.headersSent = true;
  };
  res.flushHeaders = () => {};
  res.write = () => {
    setImmediate(() => res.emit("drain"));
    return false;
  };
  res.end = () => {};
  return res;
}

describe("toNodeHandler", () => {
  it("adds no listener per back-pressure wait on a long stream to a slow client", async () => {
    const events = 50;
    let sent = 0;
    const server = {
      handle: async () =>
        new Response(
          new ReadableStream<Uint8Array>({
            pull(controller) {
              if (sent++ < events) controller.enqueue(new TextEncoder().encode("data: {}\n\n"));
              else controller.close();
            },
          }),
          { headers: { "content-type": "text/event-stream" } },
        ),
    } as unknown as StreamableHttpServer;
    const req = Object.assign(new EventEmitter(), {
      headers: { host: "127.0.0.1" },
      url: "/mcp",
      method: "GET",
      socket: { localAddress: "127.0.0.1" },
    });
    const res = slowResponse();
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on("warning", onWarning);
    try {
      await toNodeHandler(server)(req as unknown as IncomingMessage, res as unknown as ServerResponse);
    } finally {
      process.off("warning", onWarning);
    }
    expect(sent).toBeGreaterThan(events);
    expect(res.listenerCount("drain")).toBe(0);
    // One listener remains: the one that aborts the request's signal when the connection closes.
    expect(res.listenerCount("close")).toBeLessThanOrEqual(1);
    expect(warnings.filter((w) => w.name === "MaxListenersExceededWarning")).toEqual([]);
  });
});
