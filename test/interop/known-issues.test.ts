/**
 * Problems of ours that the interop runs brought to light, each reproduced without a peer
 * process so that it fails the same way every time. `it.fails` turns into a failure once the
 * problem is fixed: then drop the marker.
 */
import { describe, expect, it } from "vitest";
import { McpClient, type Progress } from "../../src/client/index.js";
import { isRequest, type JsonRpcMessage } from "../../src/jsonrpc/messages.js";
import { createMemoryTransportPair } from "../../src/transports/memory.js";

describe("known issues", () => {
  // The everything server's trigger-long-running-operation sends its last progress notification
  // and then the result; both reach us in one read, and the last update never reaches onprogress.
  // JsonRpcSession.receiveNotification defers every notification handler to a microtask while
  // receiveResponse settles the request at once, dropping its progress token, so a progress
  // notification received just before the response finds no request (spec 2025-11-25:
  // basic/utilities/progress shows the final 1.0/1.0 notification sent before the response).
  it.fails("a progress notification received right before the response reaches onprogress", async () => {
    const [clientEnd, serverEnd] = createMemoryTransportPair();
    serverEnd.onmessage = (received) => {
      const message = received as JsonRpcMessage;
      if (!isRequest(message)) return;
      if (message.method === "initialize") {
        void serverEnd.send({
          jsonrpc: "2.0",
          id: message.id,
          result: {
            protocolVersion: "2025-11-25",
            capabilities: { tools: {} },
            serverInfo: { name: "scripted", version: "1.0.0" },
          },
        });
      } else if (message.method === "tools/call") {
        const progressToken = (message.params?._meta as { progressToken?: string | number }).progressToken;
        // Written back to back, as a server does when the work ends with a last update.
        void serverEnd.send({
          jsonrpc: "2.0",
          method: "notifications/progress",
          params: { progressToken, progress: 1, total: 1 },
        });
        void serverEnd.send({ jsonrpc: "2.0", id: message.id, result: { content: [{ type: "text", text: "done" }] } });
      }
    };
    await serverEnd.start();
    const client = new McpClient({ name: "progress-check", version: "1.0.0" });
    await client.connect(clientEnd);
    const updates: Progress[] = [];
    const result = await client.callTool({ name: "work", arguments: {} }, { onprogress: (p) => updates.push(p) });
    await client.close();
    expect(result.content).toEqual([{ type: "text", text: "done" }]);
    expect(updates).toEqual([{ progress: 1, total: 1 }]);
  });
});
