import { describe, expect, it } from "vitest";
import * as z from "zod";
import type { JsonRpcMessage } from "../../src/jsonrpc/messages.js";
import { McpServer } from "../../src/server/index.js";
import { createMemoryTransportPair } from "../../src/transports/memory.js";
import { until } from "./support.js";

describe("McpServer: a request id sent twice while the first is in flight", () => {
  it("refuses the second and still shapes the first's result for the negotiated revision", async () => {
    const server = new McpServer({ name: "s", version: "1" });
    let release = () => {};
    server.registerTool("slow", { outputSchema: { n: z.number() } }, async () => {
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      return { content: [{ type: "text", text: "1" }], structuredContent: { n: 1 } };
    });
    const [clientEnd, serverEnd] = createMemoryTransportPair();
    const received: JsonRpcMessage[] = [];
    clientEnd.onmessage = (m) => received.push(...(Array.isArray(m) ? m : [m]));
    await clientEnd.start();
    await server.connect(serverEnd);
    await clientEnd.send({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "c", version: "1" } },
    });
    await until(() => received[0]);
    await clientEnd.send({ jsonrpc: "2.0", method: "notifications/initialized" });

    const call = { jsonrpc: "2.0" as const, id: 6, method: "tools/call", params: { name: "slow" } };
    await clientEnd.send(call);
    await clientEnd.send(call);
    await until(() => received[1]);
    expect(received[1]).toMatchObject({ id: 6, error: { code: -32600 } });
    release();
    // 2025-03-26 has no structuredContent: the result must not carry it.
    await expect(until(() => received[2])).resolves.toEqual({
      jsonrpc: "2.0",
      id: 6,
      result: { content: [{ type: "text", text: "1" }] },
    });
    await server.close();
  });
});
