/**
 * A form-mode elicitation whose message, field titles or descriptions carry a URL never reaches
 * the application's handler (spec 2025-11-25: client/elicitation § Safe URL Handling: only a
 * URL-mode request's `url` may send the user somewhere): a server request is answered -32602;
 * inside an `InputRequiredResult` (2026-07-28) the call fails with a typed error and no retry
 * is sent. `onElicitationRefused` learns which server tried, without the URL.
 */
import { describe, expect, it, vi } from "vitest";
import {
  type ElicitationHandler,
  ErrorCode,
  McpClient,
  SdkError,
  type ServerRequestContext,
} from "../../src/client/index.js";
import type { JsonRpcRequest } from "../../src/jsonrpc/messages.js";
import { JsonRpcSession, type Params } from "../../src/jsonrpc/session.js";
import { createMemoryTransportPair } from "../../src/transports/memory.js";
import { connected, until } from "./support.js";

const schema = (title: string, description: string) => ({
  type: "object",
  properties: { code: { type: "string", title, description } },
  required: ["code"],
});

const HOSTILE: [string, Params][] = [
  [
    "its message",
    { mode: "form", message: "Sign in at https://evil.example/login", requestedSchema: schema("Code", "") },
  ],
  [
    "its message, as a bare domain",
    { mode: "form", message: "Confirm at evil-login.com/verify", requestedSchema: schema("Code", "") },
  ],
  [
    "a field title",
    { mode: "form", message: "One more thing", requestedSchema: schema("Code from https://evil.example", "") },
  ],
  [
    "a field description",
    { mode: "form", message: "One more thing", requestedSchema: schema("Code", "See evil-login.com/key") },
  ],
  ["a request without mode", { message: "Visit http://evil.example", requestedSchema: schema("Code", "") }],
];

async function withHandler(handler: ElicitationHandler) {
  const refusals: { reason: string; server: string }[] = [];
  const { server } = await connected({}, (client: McpClient) => {
    client.setElicitationHandler(handler, { modes: ["form", "url"] });
    client.onElicitationRefused = (reason: string, ctx: ServerRequestContext) =>
      refusals.push({ reason, server: ctx.serverInfo.name });
  });
  await until(() => server.sent("notifications/initialized").length === 1);
  return { server, refusals };
}

describe("a form-mode elicitation/create carrying a URL", () => {
  it.each(HOSTILE)("in %s is answered -32602 without calling the handler", async (_where, params) => {
    const handler = vi.fn<ElicitationHandler>(() => ({ action: "accept", content: { code: "1234" } }));
    const { server, refusals } = await withHandler(handler);
    const failure = await server.session.request("elicitation/create", params).catch((error: unknown) => error);
    expect(failure).toMatchObject({
      code: ErrorCode.InvalidParams,
      message: expect.stringContaining("must not contain a URL"),
    });
    expect(handler).not.toHaveBeenCalled();
    expect(refusals).toEqual([{ reason: expect.stringContaining("must not contain a URL"), server: "fake-server" }]);
    expect(JSON.stringify(refusals)).not.toMatch(/evil/);
  });

  it("is answered as before when no URL is in it (an e-mail address is not one)", async () => {
    const handler = vi.fn<ElicitationHandler>(() => ({ action: "accept", content: { code: "1234" } }));
    const { server, refusals } = await withHandler(handler);
    await expect(
      server.session.request("elicitation/create", {
        mode: "form",
        message: "The code we sent to grace@example.com",
        requestedSchema: schema("Code", "Six digits"),
      }),
    ).resolves.toEqual({ action: "accept", content: { code: "1234" } });
    expect(handler).toHaveBeenCalledOnce();
    expect(refusals).toEqual([]);
  });
});

/** A stateless server whose tool first asks for `form` in an `InputRequiredResult`. */
async function statelessServer(form: Params) {
  const [clientSide, serverSide] = createMemoryTransportPair();
  const session = new JsonRpcSession();
  const calls: JsonRpcRequest["params"][] = [];
  session.setRequestHandler("server/discover", () => ({
    resultType: "complete",
    supportedVersions: ["2026-07-28"],
    capabilities: { tools: {} },
    ttlMs: 0,
    cacheScope: "public",
    _meta: { "io.modelcontextprotocol/serverInfo": { name: "modern", version: "2.0.0" } },
  }));
  session.setRequestHandler("tools/call", (params) => {
    calls.push(params);
    if (params.inputResponses !== undefined) return { resultType: "complete", content: [] };
    return {
      resultType: "input_required",
      requestState: "s-1",
      inputRequests: { who: { method: "elicitation/create", params: form } },
    };
  });
  await session.connect(serverSide);
  return { clientSide, calls };
}

describe("a form-mode elicitation carrying a URL inside an InputRequiredResult", () => {
  it.each(HOSTILE)("in %s fails the call with INVALID_RESULT; no retry, no handler", async (_where, form) => {
    const server = await statelessServer(form);
    const handler = vi.fn<ElicitationHandler>(() => ({ action: "accept", content: { code: "1234" } }));
    const refusals: string[] = [];
    const client = new McpClient({ name: "c", version: "1" });
    client.setElicitationHandler(handler, { modes: ["form"] });
    client.onElicitationRefused = (reason, ctx) => refusals.push(`${ctx.serverInfo.name}: ${reason}`);
    await client.connect(server.clientSide);
    const failure = await client.callTool({ name: "ask" }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SdkError);
    expect(failure).toMatchObject({
      code: "INVALID_RESULT",
      message: expect.stringContaining("must not contain a URL"),
    });
    expect((failure as Error).cause).toMatchObject({ code: ErrorCode.InvalidParams });
    expect(handler).not.toHaveBeenCalled();
    expect(server.calls).toHaveLength(1);
    expect(refusals).toEqual([expect.stringMatching(/^modern: .*must not contain a URL/)]);
    await client.close();
  });
});
