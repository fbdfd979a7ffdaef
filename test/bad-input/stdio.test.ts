/**
 * Bad input over stdio, end to end: a real `McpServer` on a `StdioServerTransport` whose stdin and
 * stdout are in-process streams. Each case checks the spec's answer, then that the same connection
 * still serves a `tools/call`.
 */
import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { McpClient } from "../../src/client/index.js";
import { SdkError } from "../../src/jsonrpc/errors.js";
import type { RequestId } from "../../src/jsonrpc/messages.js";
import { StdioServerTransport, StdioStreamTransport } from "../../src/transports/stdio/index.js";
import {
  aborted,
  CLIENT_INFO,
  CrossingTransport,
  createEchoServer,
  type EchoServer,
  echoCall,
  initializeParams,
} from "./echo-server.js";
import { LinePeer } from "./line-peer.js";

const MiB = 1024 * 1024;

interface Wire {
  echo: EchoServer;
  peer: LinePeer;
  /** The client's ends of the pipes, for a real `McpClient`. */
  clientStreams: { toServer: PassThrough; fromServer: PassThrough };
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** A fresh server on a fresh pair of pipes; initialized unless told otherwise. */
async function open(options: { initialize?: boolean; peer?: boolean } = {}): Promise<Wire> {
  const echo = createEchoServer();
  const toServer = new PassThrough();
  const fromServer = new PassThrough();
  await echo.server.connect(new StdioServerTransport(toServer, fromServer));
  closers.push(() => echo.server.close());
  const peer = new LinePeer(toServer, fromServer);
  if (options.initialize !== false) await initialize(peer, "init");
  return { echo, peer, clientStreams: { toServer, fromServer } };
}

async function initialize(peer: LinePeer, id: RequestId): Promise<void> {
  const from = peer.received.length;
  peer.write({ jsonrpc: "2.0", id, method: "initialize", params: initializeParams() });
  const answer = await peer.response(id, from);
  expect(answer.result?.protocolVersion).toBe("2025-11-25");
  peer.write({ jsonrpc: "2.0", method: "notifications/initialized" });
}

/** Calls `echo` with a fresh id and expects the text back: the connection is still served. */
async function expectStillServing(peer: LinePeer, id: RequestId = "after"): Promise<void> {
  const from = peer.received.length;
  peer.write(echoCall(id, "still here"));
  const answer = await peer.response(id, from);
  expect(answer.result).toEqual({ content: [{ type: "text", text: "still here" }] });
}

/** Writes raw text and returns the next error response with `id`. */
async function errorFor(peer: LinePeer, text: string, id: RequestId | null) {
  const from = peer.received.length;
  peer.write(text);
  const answer = await peer.response(id, from);
  expect(answer).not.toHaveProperty("result");
  return answer.error;
}

describe("bad input over stdio", () => {
  it("malformed JSON", async () => {
    const { peer } = await open();
    const error = await errorFor(peer, '{"jsonrpc":"2.0","id":1,"method":"tools/call",\n', null);
    expect(error?.code).toBe(-32700);
    await expectStillServing(peer);
  });

  it("wrong jsonrpc version", async () => {
    const { peer } = await open();
    const line = `${JSON.stringify({ ...echoCall(2, "x"), jsonrpc: "1.0" })}\n`;
    const error = await errorFor(peer, line, 2);
    expect(error?.code).toBe(-32600);
    expect(error?.message).toMatch(/jsonrpc/);
    await expectStillServing(peer);
  });

  it("unknown method", async () => {
    const { peer } = await open();
    const error = await errorFor(peer, `${JSON.stringify({ jsonrpc: "2.0", id: 3, method: "no/such" })}\n`, 3);
    expect(error?.code).toBe(-32601);
    expect(error?.message).toMatch(/no\/such/);
    await expectStillServing(peer);
  });

  it("invalid params", async () => {
    const { peer } = await open();
    const call = { jsonrpc: "2.0", id: 4, method: "tools/call", params: { arguments: { text: "x" } } };
    const error = await errorFor(peer, `${JSON.stringify(call)}\n`, 4);
    expect(error?.code).toBe(-32602);
    expect(error?.message).toMatch(/name/);
    await expectStillServing(peer);
  });

  it("a request before initialize", async () => {
    const { peer } = await open({ initialize: false });
    const error = await errorFor(peer, `${JSON.stringify(echoCall(5, "too early"))}\n`, 5);
    expect(error?.code).toBe(-32600);
    expect(error?.message).toMatch(/initialize/);
    await initialize(peer, "late-init");
    await expectStillServing(peer);
  });

  it("a duplicate in-flight id", async () => {
    const { peer, echo } = await open();
    const from = peer.received.length;
    peer.write(echoCall(6, "first", true));
    await echo.probe.entered("first");
    peer.write(echoCall(6, "second"));
    const duplicate = await peer.response(6, from);
    expect(duplicate.error?.code).toBe(-32600);
    expect(duplicate.error?.message).toMatch(/already in use/);

    echo.probe.release("first");
    const original = await peer.next((m) => "id" in m && m.id === 6 && "result" in m, from);
    expect(original.result).toEqual({ content: [{ type: "text", text: "first" }] });
    await expectStillServing(peer);
  });

  it("an 8 MiB message", async () => {
    const { peer } = await open();
    // Multi-byte characters make a cut in the wrong place visible.
    const unit = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdé€😀";
    const text = unit.repeat(Math.ceil((8 * MiB) / Buffer.byteLength(unit)));
    expect(Buffer.byteLength(text)).toBeGreaterThanOrEqual(8 * MiB);
    const from = peer.received.length;
    peer.write(echoCall("big", text));
    const answer = await peer.response("big", from);
    const content = answer.result?.content as { type: string; text: string }[];
    expect(content[0]?.text.length).toBe(text.length);
    expect(content[0]?.text === text).toBe(true);
    await expectStillServing(peer);
  });

  it("cancellation of id 0", async () => {
    const { peer, echo } = await open();
    peer.write(echoCall(0, "zero", true));
    const signal = await echo.probe.entered("zero");
    peer.write({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 0, reason: "changed mind" } });
    await aborted(signal);
    expect(signal.aborted).toBe(true);
    // The aborted handler has returned by the time the next call is answered; its answer was dropped.
    await expectStillServing(peer, 1);
    expect(peer.withId(0)).toEqual([]);
  });

  it("a cancellation crossing its response", async () => {
    const { echo, clientStreams } = await open({ initialize: false });
    const cancel = new AbortController();
    const transport = new CrossingTransport(
      new StdioStreamTransport(clientStreams.fromServer, clientStreams.toServer),
      "crossing",
      cancel,
    );
    const client = new McpClient(CLIENT_INFO);
    const clientErrors: Error[] = [];
    client.onerror = (error) => clientErrors.push(error);
    await client.connect(transport);
    closers.push(() => client.close());

    const call = client.callTool({ name: "echo", arguments: { text: "crossing" } }, { signal: cancel.signal });
    await expect(call).rejects.toSatisfy((e) => e instanceof SdkError && e.code === "REQUEST_CANCELLED");
    expect(transport.lateAnswerDelivered).toBe(true);
    expect(transport.cancellations).toEqual([{ requestId: transport.crossedId, reason: expect.any(String) }]);

    const next = await client.callTool({ name: "echo", arguments: { text: "next" } });
    expect(next.content).toEqual([{ type: "text", text: "next" }]);
    expect(clientErrors).toEqual([]);
    expect(echo.problems).toEqual([]);
  });

  it("an emoji split across chunks", async () => {
    const { peer } = await open();
    const bytes = Buffer.from(`${JSON.stringify(echoCall("emoji", "snow ☃ and 😀 face"))}\n`, "utf8");
    const cut = bytes.indexOf(Buffer.from("😀", "utf8")) + 2;
    const from = peer.received.length;
    peer.write(bytes.subarray(0, cut));
    await new Promise((resolve) => setImmediate(resolve));
    peer.write(bytes.subarray(cut));
    const answer = await peer.response("emoji", from);
    expect(answer.result).toEqual({ content: [{ type: "text", text: "snow ☃ and 😀 face" }] });
    await expectStillServing(peer);
  });
});
