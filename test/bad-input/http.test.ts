/**
 * Bad input over Streamable HTTP, end to end: a real `McpServer` behind `StreamableHttpServer` on a
 * `node:http` server at 127.0.0.1. Each case checks the spec's answer (HTTP status and JSON-RPC
 * error), then that the same session still serves a `tools/call`.
 */
import { afterEach, describe, expect, it } from "vitest";
import { McpClient } from "../../src/client/index.js";
import { SdkError } from "../../src/jsonrpc/errors.js";
import type { RequestId } from "../../src/jsonrpc/messages.js";
import { DEFAULT_MAX_BODY_BYTES, StreamableHttpClientTransport } from "../../src/transports/http/index.js";
import { aborted, CLIENT_INFO, CrossingTransport, echoCall } from "./echo-server.js";
import {
  ACCEPT_BOTH,
  type HttpWire,
  initialize,
  messagesOf,
  post,
  rawPost,
  SseReader,
  sessionHeaders,
  startHttp,
} from "./http-peer.js";

const MiB = 1024 * 1024;

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function open(options: Parameters<typeof startHttp>[0] = {}): Promise<HttpWire & { sessionId: string }> {
  const wire = await startHttp(options);
  closers.push(() => wire.close());
  return { ...wire, sessionId: await initialize(wire.url) };
}

/** Calls `echo` on the session and expects the text back: the session is still served. */
async function expectStillServing(url: URL, sessionId: string, id: RequestId = "after"): Promise<void> {
  const answer = await post(url, echoCall(id, "still here"), sessionHeaders(sessionId));
  expect(answer.status).toBe(200);
  expect(await messagesOf(answer)).toEqual([
    { jsonrpc: "2.0", id, result: { content: [{ type: "text", text: "still here" }] } },
  ]);
}

/** POSTs `body` and returns the status and the one JSON-RPC error it got back. */
async function refusal(url: URL, body: unknown, headers: Record<string, string>) {
  const answer = await post(url, body, headers);
  const messages = await messagesOf(answer);
  expect(messages).toHaveLength(1);
  const [message] = messages;
  expect(message).not.toHaveProperty("result");
  return { status: answer.status, id: message?.id, error: message?.error };
}

describe("bad input over Streamable HTTP", () => {
  it("malformed JSON", async () => {
    const { url, sessionId } = await open();
    const answer = await refusal(url, '{"jsonrpc":"2.0","id":1,"method":"tools/call",', sessionHeaders(sessionId));
    expect(answer.status).toBe(400);
    expect(answer.id).toBe(null);
    expect(answer.error?.code).toBe(-32700);
    await expectStillServing(url, sessionId);
  });

  it("wrong jsonrpc version", async () => {
    const { url, sessionId } = await open();
    const answer = await refusal(url, { ...echoCall(2, "x"), jsonrpc: "1.0" }, sessionHeaders(sessionId));
    expect(answer.status).toBe(400);
    expect(answer.id).toBe(2);
    expect(answer.error?.code).toBe(-32600);
    expect(answer.error?.message).toMatch(/jsonrpc/);
    await expectStillServing(url, sessionId);
  });

  it("unknown method", async () => {
    const { url, sessionId } = await open();
    const answer = await refusal(url, { jsonrpc: "2.0", id: 3, method: "no/such" }, sessionHeaders(sessionId));
    expect(answer.status).toBe(200);
    expect(answer.id).toBe(3);
    expect(answer.error?.code).toBe(-32601);
    await expectStillServing(url, sessionId);
  });

  it("invalid params", async () => {
    const { url, sessionId } = await open();
    const call = { jsonrpc: "2.0", id: 4, method: "tools/call", params: { arguments: { text: "x" } } };
    const answer = await refusal(url, call, sessionHeaders(sessionId));
    expect(answer.status).toBe(200);
    expect(answer.id).toBe(4);
    expect(answer.error?.code).toBe(-32602);
    expect(answer.error?.message).toMatch(/name/);
    await expectStillServing(url, sessionId);
  });

  it("a request before initialize", async () => {
    const wire = await startHttp();
    closers.push(() => wire.close());
    const headers = { accept: ACCEPT_BOTH, "content-type": "application/json" };
    const answer = await refusal(wire.url, echoCall(5, "too early"), headers);
    expect(answer.status).toBe(400);
    expect(answer.error?.code).toBe(-32600);
    expect(answer.error?.message).toMatch(/Mcp-Session-Id/);
    await expectStillServing(wire.url, await initialize(wire.url));
  });

  it("a duplicate in-flight id", async () => {
    const { url, sessionId, echo } = await open();
    const held = new SseReader(await post(url, echoCall(6, "first", true), sessionHeaders(sessionId)));
    await echo.probe.entered("first");
    const duplicate = await refusal(url, echoCall(6, "second"), sessionHeaders(sessionId));
    expect(duplicate.status).toBe(400);
    expect(duplicate.error?.code).toBe(-32600);
    expect(duplicate.error?.message).toMatch(/already in use/);

    echo.probe.release("first");
    await held.ended;
    expect(held.messages).toEqual([{ jsonrpc: "2.0", id: 6, result: { content: [{ type: "text", text: "first" }] } }]);
    await expectStillServing(url, sessionId);
  });

  it("an 8 MiB message above the body limit", async () => {
    const { url, sessionId } = await open();
    const text = "x".repeat(8 * MiB);
    const answer = await refusal(url, echoCall("big", text), sessionHeaders(sessionId));
    expect(answer.status).toBe(413);
    expect(answer.error?.code).toBe(-32600);
    expect(answer.error?.message).toBe(`Payload Too Large: the body exceeds ${DEFAULT_MAX_BODY_BYTES} bytes`);
    await expectStillServing(url, sessionId);
  });

  it("a message just below the body limit", async () => {
    const { url, sessionId } = await open();
    const envelope = JSON.stringify(echoCall("below", "")).length;
    const text = "y".repeat(DEFAULT_MAX_BODY_BYTES - envelope);
    const body = JSON.stringify(echoCall("below", text));
    expect(body.length).toBe(DEFAULT_MAX_BODY_BYTES);
    const answer = await post(url, body, sessionHeaders(sessionId));
    expect(answer.status).toBe(200);
    const [message] = await messagesOf(answer);
    expect((message?.result?.content as { text: string }[])[0]?.text === text).toBe(true);
    await expectStillServing(url, sessionId);
  });

  it("an 8 MiB message under a raised body limit", async () => {
    const { url, sessionId } = await open({ maxBodyBytes: 16 * MiB });
    const text = "😀é".repeat(Math.ceil((8 * MiB) / 6));
    const answer = await post(url, echoCall("big", text), sessionHeaders(sessionId));
    expect(answer.status).toBe(200);
    const [message] = await messagesOf(answer);
    expect((message?.result?.content as { text: string }[])[0]?.text === text).toBe(true);
    await expectStillServing(url, sessionId);
  });

  it("cancellation of id 0", async () => {
    const { url, sessionId, echo } = await open();
    const held = new SseReader(await post(url, echoCall(0, "zero", true), sessionHeaders(sessionId)));
    const signal = await echo.probe.entered("zero");
    const cancel = await post(
      url,
      { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 0, reason: "changed mind" } },
      sessionHeaders(sessionId),
    );
    expect(cancel.status).toBe(202);
    await aborted(signal);
    expect(signal.aborted).toBe(true);
    await expectStillServing(url, sessionId, 1);
    // Nothing more will come for id 0, so its stream ends without a response.
    await held.ended;
    expect(held.messages).toEqual([]);
  });

  it("cancellation of id 0 with JSON answers", async () => {
    const { url, sessionId, echo } = await open({ enableJsonResponse: true });
    const held = post(url, echoCall(0, "zero", true), sessionHeaders(sessionId));
    const signal = await echo.probe.entered("zero");
    const cancel = await post(
      url,
      { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 0 } },
      sessionHeaders(sessionId),
    );
    expect(cancel.status).toBe(202);
    await aborted(signal);
    // The POST of a request that gets no response is answered like one that carried none.
    const answer = await held;
    expect(answer.status).toBe(202);
    expect(await answer.text()).toBe("");
    await expectStillServing(url, sessionId, 1);
  });

  it("a cancellation crossing its response", async () => {
    const { url, echo, close } = await startHttp();
    const cancel = new AbortController();
    const transport = new CrossingTransport(new StreamableHttpClientTransport(url), "crossing", cancel);
    const client = new McpClient(CLIENT_INFO);
    const clientErrors: Error[] = [];
    client.onerror = (error) => clientErrors.push(error);
    closers.push(async () => {
      await client.close();
      await close();
    });
    await client.connect(transport);

    const call = client.callTool({ name: "echo", arguments: { text: "crossing" } }, { signal: cancel.signal });
    await expect(call).rejects.toSatisfy((e) => e instanceof SdkError && e.code === "REQUEST_CANCELLED");
    expect(transport.lateAnswerDelivered).toBe(true);
    expect(transport.cancellations).toEqual([{ requestId: transport.crossedId, reason: expect.any(String) }]);

    const next = await client.callTool({ name: "echo", arguments: { text: "next" } });
    expect(next.content).toEqual([{ type: "text", text: "next" }]);
    expect(clientErrors).toEqual([]);
    expect(echo.problems).toEqual([]);
  });

  it("an unknown session id", async () => {
    const { url, sessionId } = await open();
    const answer = await refusal(url, echoCall(7, "lost"), sessionHeaders("no-such-session"));
    expect(answer.status).toBe(404);
    expect(answer.error?.message).toMatch(/Session not found/);
    await expectStillServing(url, sessionId);
  });

  it("a missing Accept header", async () => {
    const { url, sessionId } = await open();
    const { accept: _, ...headers } = sessionHeaders(sessionId);
    const answer = await rawPost(url, JSON.stringify(echoCall(8, "x")), headers);
    expect(answer.status).toBe(406);
    expect(answer.body.error?.code).toBe(-32600);
    expect(answer.body.error?.message).toMatch(/Accept/);
    await expectStillServing(url, sessionId);
  });

  it("a foreign Origin", async () => {
    const { url, sessionId } = await open();
    const headers = { ...sessionHeaders(sessionId), origin: "http://attacker.example" };
    const answer = await rawPost(url, JSON.stringify(echoCall(9, "x")), headers);
    expect(answer.status).toBe(403);
    expect(answer.body.error?.message).toMatch(/Origin "http:\/\/attacker.example" is not allowed/);
    await expectStillServing(url, sessionId);
  });
});
