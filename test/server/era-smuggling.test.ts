/**
 * A request written for the stateless era (revision 2026-07-28: its `_meta` names a protocol
 * version) sent into a session that `initialize` agreed at 2025-11-25 would be served by the
 * stateless driver: with the capabilities its own `_meta` claims instead of those the handshake
 * agreed, and a method of a capability `initialize` never announced. It is refused with -32600;
 * the same request without the stateless `_meta` is served as the session agreed, and the
 * stateless request on a connection that never initialized is served as before.
 */
import { describe, expect, it } from "vitest";
import { JsonRpcSession } from "../../src/jsonrpc/session.js";
import { META } from "../../src/revisions/index.js";
import { McpServer } from "../../src/server/index.js";
import { createMemoryTransportPair } from "../../src/transports/memory.js";
import { CAPS, connectPeer } from "../interaction/server/support.js";

const META_2026 = {
  [META.protocolVersion]: "2026-07-28",
  [META.clientCapabilities]: CAPS.urlElicitation,
  [META.clientInfo]: { name: "smuggler", version: "1.0.0" },
};

function serverWithTool(): McpServer {
  const server = new McpServer({ name: "s", version: "1.0.0" }, {});
  server.registerTool("caps", { inputSchema: {} }, async (_args, ctx) => ({
    content: [{ type: "text", text: JSON.stringify(ctx.clientCapabilities ?? {}) }],
  }));
  return server;
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    (result) => ({ result }),
    (error: { code?: number; message?: string }) => ({ code: error.code, message: error.message }),
  );

describe("a stateless-era request in a session initialized at 2025-11-25", () => {
  it("attack: is refused, not served with the capabilities its _meta claims; control: without that _meta it is served", async () => {
    const server = serverWithTool();
    const peer = await connectPeer(server, { capabilities: {} });
    const smuggled = await failure(
      peer.client.request("tools/call", { name: "caps", arguments: {}, _meta: META_2026 }),
    );
    expect(smuggled).toMatchObject({ code: -32600, message: expect.stringMatching(/2025-11-25/) });
    const plain = await failure(peer.client.request("tools/call", { name: "caps", arguments: {} }));
    expect(plain).toEqual({ result: { content: [{ type: "text", text: "{}" }] } });
  });

  it("attack: cannot reach a capability initialize did not announce; control: the plain request gets -32601", async () => {
    const server = serverWithTool();
    const peer = await connectPeer(server, { capabilities: {} });
    // Registered after the handshake: the session was never told of prompts.
    server.registerPrompt("p", {}, async () => ({ messages: [] }));
    const plain = await failure(peer.client.request("prompts/list", {}));
    expect(plain).toMatchObject({ code: -32601 });
    const smuggled = await failure(peer.client.request("prompts/list", { _meta: META_2026 }));
    expect(smuggled).toMatchObject({ code: -32600 });
  });

  it("control: on a connection that never initialized, the stateless request is served", async () => {
    const server = serverWithTool();
    const [clientEnd, serverEnd] = createMemoryTransportPair();
    await server.connect(serverEnd);
    const client = new JsonRpcSession();
    await client.connect(clientEnd);
    const answer = await failure(client.request("tools/call", { name: "caps", arguments: {}, _meta: META_2026 }));
    expect(answer).toMatchObject({
      result: { content: [{ type: "text", text: JSON.stringify(CAPS.urlElicitation) }] },
    });
    await client.close();
  });
});
