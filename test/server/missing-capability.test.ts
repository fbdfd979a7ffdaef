/**
 * A handler that asks the client for something it did not declare (URL-mode elicitation, sampling,
 * roots) gets the same in both eras, and so does the caller. Revision 2026-07-28 says the server
 * MUST answer such a request with MissingRequiredClientCapabilityError (-32021, HTTP 400, with
 * `data.requiredCapabilities`; spec 2026-07-28: basic § `_meta`); 2025-11-25 only says not to use
 * what was not negotiated, so there the same JSON-RPC error is used, from the range JSON-RPC leaves
 * to implementations. The handler sees SdkError "CAPABILITY_NOT_SUPPORTED" in both, and nothing is
 * sent to the client.
 */
import { describe, expect, it } from "vitest";
import { SdkError } from "../../src/jsonrpc/errors.js";
import type { JsonRpcMessage } from "../../src/jsonrpc/messages.js";
import { JsonRpcSession, type Params } from "../../src/jsonrpc/session.js";
import { META } from "../../src/revisions/index.js";
import { McpServer, type RequestContext } from "../../src/server/index.js";
import { createMemoryTransportPair } from "../../src/transports/memory.js";
import { connectClient } from "./support.js";

type Era = "2025-11-25" | "2026-07-28";
const FORM_ONLY = { elicitation: { form: {} } };

const ASKS: Array<{ name: string; ask: (ctx: RequestContext) => Promise<unknown>; required: Params }> = [
  {
    name: "URL-mode ctx.elicit",
    ask: (ctx) => ctx.elicit({ mode: "url", url: "https://example.com/connect", message: "Connect your account." }),
    required: { elicitation: { url: {} } },
  },
  {
    name: "ctx.sample",
    ask: (ctx) => ctx.sample({ messages: [{ role: "user", content: { type: "text", text: "Hi" } }], maxTokens: 5 }),
    required: { sampling: {} },
  },
  { name: "ctx.listRoots", ask: (ctx) => ctx.listRoots(), required: { roots: {} } },
];

/** A server whose tool `ask` and prompt `ask` do `ask`; `caught` gets what the tool `careful` catches. */
function serverAsking(ask: (ctx: RequestContext) => Promise<unknown>, caught: unknown[]) {
  const server = new McpServer({ name: "s", version: "1" });
  server.registerTool("ask", {}, async (_args, ctx) => {
    await ask(ctx);
    return { content: [{ type: "text", text: "asked" }] };
  });
  server.registerTool("careful", {}, async (_args, ctx) => {
    try {
      await ask(ctx);
    } catch (error) {
      caught.push(error);
      return { content: [{ type: "text", text: "went on without it" }] };
    }
    return { content: [{ type: "text", text: "asked" }] };
  });
  server.registerPrompt("ask", {}, async (_args, ctx) => {
    await ask(ctx);
    return { messages: [] };
  });
  return server;
}

/** Sends `method` in `era` with form-only elicitation declared; returns what the server answered and sent. */
async function client(era: Era, server: McpServer) {
  if (era === "2025-11-25") {
    const { client: session, received } = await connectClient(server, { capabilities: FORM_ONLY });
    return { send: (method: string, params: Params) => session.request(method, params), received };
  }
  const [clientEnd, serverEnd] = createMemoryTransportPair();
  await server.connect(serverEnd);
  const session = new JsonRpcSession();
  await session.connect(clientEnd);
  const received: JsonRpcMessage[] = [];
  const deliver = clientEnd.onmessage;
  clientEnd.onmessage = (message, extra) => {
    received.push(...(Array.isArray(message) ? message : [message]));
    deliver?.(message, extra);
  };
  const meta = {
    [META.protocolVersion]: "2026-07-28",
    [META.clientCapabilities]: FORM_ONLY,
    [META.clientInfo]: { name: "t", version: "1" },
  };
  return { send: (method: string, params: Params) => session.request(method, { ...params, _meta: meta }), received };
}

describe.each<Era>(["2025-11-25", "2026-07-28"])("a capability the client did not declare, on %s", (era) => {
  it.each(ASKS)("$name: the call is answered -32021 naming it, and nothing reaches the client", async (c) => {
    const { send, received } = await client(era, serverAsking(c.ask, []));
    for (const [method, params] of [
      ["tools/call", { name: "ask", arguments: {} }],
      ["prompts/get", { name: "ask" }],
    ] as const) {
      const error = await send(method, params).catch((e: unknown) => e);
      expect(error).toMatchObject({
        code: -32021,
        message: expect.stringContaining("did not declare"),
        data: { requiredCapabilities: c.required },
      });
    }
    expect(received.filter((m) => "method" in m && "id" in m)).toEqual([]);
  });

  it.each(ASKS)("$name: the handler sees SdkError CAPABILITY_NOT_SUPPORTED and may go on without it", async (c) => {
    const caught: unknown[] = [];
    const { send } = await client(era, serverAsking(c.ask, caught));
    const result = await send("tools/call", { name: "careful", arguments: {} });
    expect(result.content).toEqual([{ type: "text", text: "went on without it" }]);
    expect(caught).toHaveLength(1);
    expect(caught[0]).toBeInstanceOf(SdkError);
    expect(caught[0]).toMatchObject({ code: "CAPABILITY_NOT_SUPPORTED" });
  });
});
