/**
 * Streamable HTTP with messages of MiBs, on the client's Node path and our node:http server: a
 * long request body and a long answer are written in slices and read back whole, surrogate pairs
 * included wherever a slice ends; an SSE event longer than the part the client decodes ahead
 * still arrives whole, and one over `maxMessageBytes` on the GET stream is still skipped.
 */
import { createServer, type ServerResponse } from "node:http";
import http2 from "node:http2";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { McpClient } from "../../src/client/index.js";
import { McpServer } from "../../src/server/index.js";
import { StreamableHttpClientTransport } from "../../src/transports/http/client.js";
import type { HttpAnswer } from "../../src/transports/http/client-http.js";
import { nodeCarrier } from "../../src/transports/http/client-node.js";
import { readSse } from "../../src/transports/http/client-sse.js";
import { toNodeHandler } from "../../src/transports/http/node.js";
import { endInSlices, SLICE_LENGTH, type SliceTarget } from "../../src/transports/http/node-slices.js";
import { StreamableHttpServer } from "../../src/transports/http/server.js";
import { startRawPeer } from "./http-client-peer.js";
import { Inbox } from "./transport.contract.js";

const MiB = 1024 * 1024;

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** Our server with an `echo` tool, answering JSON or SSE, accepting bodies up to 64 MiB; the URL of its /mcp. */
async function serveEcho(json: boolean): Promise<URL> {
  const mcp = new McpServer({ name: "echo", version: "1" });
  mcp.registerTool(
    "echo",
    { inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } as const },
    ({ text }) => ({ content: [{ type: "text", text }] }),
  );
  const endpoint = new StreamableHttpServer({
    onsession: (transport) => void mcp.connect(transport),
    enableJsonResponse: json,
    maxBodyBytes: 64 * MiB,
  });
  const handle = toNodeHandler(endpoint);
  const http = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  closers.push(async () => {
    await endpoint.close();
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
  });
  return new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`);
}

async function connectClient(url: URL): Promise<McpClient> {
  const client = new McpClient({ name: "big", version: "1" });
  await client.connect(new StreamableHttpClientTransport(url, { http: "node", maxMessageBytes: 64 * MiB }));
  closers.push(() => client.close());
  return client;
}

function textOf(result: { content: unknown[] }): string {
  const [first] = result.content as { type: string; text?: string }[];
  return first?.text ?? "";
}

describe.each([
  ["JSON", true],
  ["SSE", false],
])("Streamable HTTP (Node path): an echo of MiBs, answered in %s", (_form, json) => {
  // Emoji only: every other code unit is a high surrogate, so with the text at either parity some
  // slice of the request or of the answer ends between the two halves of a pair.
  const texts = [
    ["emoji", "😀".repeat(3 * SLICE_LENGTH)],
    ["one letter, then emoji", `a${"😀".repeat(3 * SLICE_LENGTH)}`],
    ["ASCII with quotes", `"${"x".repeat(5 * MiB)}"`],
    ["ASCII", "x".repeat(9 * MiB)],
  ] as const;
  it.each(texts)("sends and gets back %s whole", async (_name, text) => {
    const client = await connectClient(await serveEcho(json));
    const result = await client.callTool({ name: "echo", arguments: { text } });
    const echoed = textOf(result);
    expect(echoed.length).toBe(text.length);
    expect(echoed === text).toBe(true);
  });
});

/** A target that takes `capacity` writes before asking for a drain, recording what it got. */
class FakeTarget implements SliceTarget {
  destroyed = false;
  readonly written: string[] = [];
  ended = false;
  private drain: (() => void) | undefined;
  private room: number;

  constructor(private readonly capacity: number) {
    this.room = capacity;
  }

  write(chunk: string): boolean {
    this.written.push(chunk);
    return --this.room > 0;
  }

  end(chunk?: string): void {
    if (chunk !== undefined) this.written.push(chunk);
    this.ended = true;
  }

  once(event: "drain" | "close", listener: () => void): void {
    if (event === "drain") this.drain = listener;
  }

  removeListener(event: "drain" | "close", listener: () => void): void {
    if (event === "drain" && this.drain === listener) this.drain = undefined;
  }

  /** The socket took everything: the waiting writer goes on. */
  flush(): void {
    this.room = this.capacity;
    const drain = this.drain;
    this.drain = undefined;
    drain?.();
  }

  get waiting(): boolean {
    return this.drain !== undefined;
  }
}

describe("endInSlices", () => {
  it("writes a short text whole, and a long one in slices that wait for each drain", () => {
    const short = new FakeTarget(1);
    endInSlices(short, "x".repeat(SLICE_LENGTH));
    expect(short.written).toHaveLength(1);
    expect(short.ended).toBe(true);

    const text = "y".repeat(3 * SLICE_LENGTH + 5);
    const long = new FakeTarget(1);
    endInSlices(long, text);
    expect(long.written).toHaveLength(1);
    expect(long.waiting).toBe(true);
    long.flush();
    long.flush();
    long.flush();
    expect(long.ended).toBe(true);
    expect(long.written.map((s) => s.length)).toEqual([SLICE_LENGTH, SLICE_LENGTH, SLICE_LENGTH, 5]);
    expect(long.written.join("") === text).toBe(true);
  });

  it("never ends a slice between the halves of a surrogate pair", () => {
    const text = `${"z".repeat(SLICE_LENGTH - 1)}😀${"z".repeat(SLICE_LENGTH)}`;
    const target = new FakeTarget(100);
    endInSlices(target, text);
    expect(target.written.map((s) => s.length)).toEqual([SLICE_LENGTH - 1, SLICE_LENGTH, 2]);
    expect(target.written[1]?.startsWith("😀")).toBe(true);
    expect(target.written.join("") === text).toBe(true);
  });

  it("writes slices whose UTF-8 bytes are the whole's, lone surrogates at the cuts included", () => {
    const z = (n: number) => "z".repeat(n);
    for (const text of [
      `${z(SLICE_LENGTH - 1)}\ud83d${z(SLICE_LENGTH)}`,
      `${z(SLICE_LENGTH)}\ude00${z(10)}`,
      `${z(SLICE_LENGTH - 2)}\ud83d\ud83d\ude00${z(SLICE_LENGTH)}`,
      `${z(2 * SLICE_LENGTH - 1)}\ud83d`,
    ]) {
      const target = new FakeTarget(100);
      endInSlices(target, text);
      expect(target.written.join("") === text).toBe(true);
      expect(Buffer.concat(target.written.map((slice) => Buffer.from(slice))).equals(Buffer.from(text))).toBe(true);
    }
  });

  it("stops writing, without ending, once the peer left", () => {
    const target = new FakeTarget(1);
    endInSlices(target, "w".repeat(4 * SLICE_LENGTH));
    target.destroyed = true;
    target.flush();
    expect(target.written).toHaveLength(1);
    expect(target.ended).toBe(false);
  });
});

describe("Streamable HTTP client (Node path): long events on the GET stream", () => {
  const LIMIT = 6 * MiB;
  const note = (method: string, text = "") => JSON.stringify({ jsonrpc: "2.0", method, params: { text } });
  /** 5 MiB of one- to four-byte characters: within the limit, and past what the client decodes ahead. */
  const MIXED = "aé€😀".repeat(MiB / 2);

  async function open(events: string[]) {
    const peer = await startRawPeer((seen, res) => {
      if (seen.method === "DELETE") {
        res.writeHead(405).end();
        return;
      }
      res.writeHead(200, { "content-type": "text/event-stream" });
      // In pieces of an odd size, so that characters are cut between pieces.
      const body = Buffer.from(events.join(""), "utf8");
      for (let at = 0; at < body.length; at += 65_521) res.write(body.subarray(at, at + 65_521));
      // The stream stays open, as a GET stream does.
    });
    closers.push(() => peer.close());
    const client = new StreamableHttpClientTransport(peer.url, {
      http: "node",
      sessionId: "s-1",
      maxMessageBytes: LIMIT,
      reconnect: { maxRetries: 0, initialDelayMs: 1, maxDelayMs: 1 },
    });
    const inbox = new Inbox(client);
    closers.push(() => client.close());
    await client.start();
    return inbox;
  }

  const methods = (inbox: Inbox) =>
    inbox.messages.map((m) => (!Array.isArray(m) && "method" in m ? m.method : undefined));

  it("delivers an event of 5 MiB of mixed characters whole, between two small ones", async () => {
    const inbox = await open([
      `id: e-1\ndata: ${note("notifications/first")}\n\n`,
      `id: e-2\ndata: ${note("notifications/mixed", MIXED)}\n\n`,
      `id: e-3\ndata: ${note("notifications/third")}\n\n`,
    ]);
    await inbox.until((i) => i.messages.length === 3);
    expect(methods(inbox)).toEqual(["notifications/first", "notifications/mixed", "notifications/third"]);
    const mixed = inbox.messages[1] as unknown as { params: { text: string } };
    expect(mixed.params.text === MIXED).toBe(true);
    expect(inbox.errors).toEqual([]);
  });

  it("skips an event of 8 MiB over the 6 MiB limit, reports it, and reads the next", async () => {
    const inbox = await open([
      `id: e-1\ndata: ${note("notifications/first")}\n\n`,
      `id: e-2\ndata: ${note("notifications/big", "x".repeat(8 * MiB))}\n\n`,
      `id: e-3\ndata: ${note("notifications/third")}\n\n`,
    ]);
    await inbox.until((i) => i.messages.length === 2 && i.errors.length === 1);
    expect(methods(inbox)).toEqual(["notifications/first", "notifications/third"]);
    expect(inbox.errors[0]?.message).toBe(
      `The server sent an SSE event (id "e-2") on the GET stream over the limit of ${LIMIT} bytes (maxMessageBytes); it was dropped`,
    );
  });
});

describe("endInSlices on HTTP/2's compatibility response", () => {
  it("lets go of the text once the stream closed while a slice waited for its drain", async () => {
    const server = http2.createServer((_req, res) => {
      res.writeHead(200, { "content-length": String(8 * SLICE_LENGTH) });
      endInSlices(res as unknown as SliceTarget, "x".repeat(8 * SLICE_LENGTH));
      res.stream.once("close", () => setTimeout(() => closed(res), 50));
    });
    let closed!: (res: http2.Http2ServerResponse) => void;
    const gone = new Promise<http2.Http2ServerResponse>((resolve) => {
      closed = resolve;
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const client = http2.connect(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    closers.push(async () => {
      client.close();
      await new Promise((resolve) => server.close(resolve));
    });
    const req = client.request({ ":path": "/" });
    req.on("error", () => {});
    let received = 0;
    req.on("data", (chunk: Buffer) => {
      received += chunk.length;
      req.close(http2.constants.NGHTTP2_CANCEL);
    });
    const res = await gone;
    expect(received).toBeGreaterThan(0);
    expect(res.listenerCount("drain")).toBe(0);
  });
});

describe("readSse on the Node path: a long line and the event limit", () => {
  const LIMIT = 6 * MiB;

  /** An SSE body: `head`, then `fill` bytes of "x" in 64 KiB writes, then `tail`; left open. */
  async function serveSse(head: string, fill: number, tail: string): Promise<URL> {
    const http = createServer((_req, res: ServerResponse) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(head);
      const piece = Buffer.alloc(64 * 1024, "x");
      let left = fill;
      const more = () => {
        while (left > 0) {
          const n = Math.min(left, piece.length);
          left -= n;
          if (!res.write(piece.subarray(0, n))) {
            res.once("drain", more);
            return;
          }
        }
        res.write(tail);
      };
      more();
    });
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    closers.push(async () => {
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    });
    return new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/`);
  }

  /** The answer, counting the bytes handed to readText's callback: in all, and the most at once past the limit. */
  async function counted(url: URL) {
    const answer = await nodeCarrier().send({ url, method: "GET", headers: {} }).answer;
    const seen = { total: 0, largestPastLimit: 0 };
    const wrapped: HttpAnswer = {
      status: answer.status,
      statusText: answer.statusText,
      header: (name) => answer.header(name),
      read: (onChunk) => answer.read(onChunk),
      cancel: () => answer.cancel(),
      readText: (onText, holdBytes) =>
        answer.readText((text, bytes) => {
          seen.total += bytes;
          if (seen.total - bytes > LIMIT + 128 * 1024) seen.largestPastLimit = Math.max(seen.largestPastLimit, bytes);
          onText(text, bytes);
        }, holdBytes),
    };
    return { answer: wrapped, seen };
  }

  it("refuses an event over the limit having read about the limit, no more", async () => {
    const { answer, seen } = await counted(await serveSse("data: ", 24 * MiB, "\n\n"));
    await expect(readSse(answer, { onEvent: () => {}, onRetry: () => {} }, LIMIT)).rejects.toThrow(/SSE event/);
    expect(seen.total).toBeLessThanOrEqual(LIMIT + 256 * 1024);
  });

  it("accepts an event of 5 MiB of data under the 6 MiB limit, read past the part decoded ahead", async () => {
    const { answer } = await counted(await serveSse("data: ", 5 * MiB, "\n\n"));
    const events: string[] = [];
    const reading = readSse(answer, { onEvent: (e) => events.push(e.data), onRetry: () => {} }, LIMIT);
    reading.catch(() => {});
    for (let i = 0; i < 400 && events.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 25));
    await answer.cancel();
    expect(events.map((data) => data.length)).toEqual([5 * MiB]);
  });

  it("skips the rest of an over-limit event on the GET stream chunk by chunk, and reads the next", async () => {
    const url = await serveSse("id: big\ndata: ", 32 * MiB, '\n\nid: next\ndata: {"ok":1}\n\n');
    const { answer, seen } = await counted(url);
    const events: string[] = [];
    const skipped: (string | undefined)[] = [];
    const reading = readSse(
      answer,
      { onEvent: (e) => events.push(e.data), onRetry: () => {}, onSkip: (id) => skipped.push(id) },
      LIMIT,
    );
    reading.catch(() => {});
    for (let i = 0; i < 400 && events.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 25));
    await answer.cancel();
    expect(skipped).toEqual(["big"]);
    expect(events).toEqual(['{"ok":1}']);
    expect(seen.largestPastLimit).toBeLessThanOrEqual(MiB);
  });
});
