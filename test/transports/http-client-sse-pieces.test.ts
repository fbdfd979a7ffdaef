/**
 * Streamable HTTP client: an SSE answer is read whole however the bytes are cut on the way (many
 * small pieces, a multi-byte character or a CRLF line break split between two of them), and an
 * event is measured against the size limit in bytes of its data, whatever came before it.
 */
import type { ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { ErrorCode, ProtocolError } from "../../src/jsonrpc/errors.js";
import { JsonRpcSession } from "../../src/jsonrpc/session.js";
import { StreamableHttpClientTransport } from "../../src/transports/http/client.js";
import { MessageTooLargeError } from "../../src/transports/http/client-answers.js";
import type { HttpAnswer } from "../../src/transports/http/client-http.js";
import { type EventSourceMessage, readSse } from "../../src/transports/http/client-sse.js";
import { HTTP_PATHS, type RawPeer, type SeenRequest, startRawPeer } from "./http-client-peer.js";

/** 2 MiB of text mixing 1-, 2-, 3- and 4-byte UTF-8 characters. */
const TEXT = "aé€😀".repeat((2 * 1024 * 1024) / 10);

let peer: RawPeer | undefined;
const sessions: JsonRpcSession[] = [];
afterEach(async () => {
  for (const session of sessions.splice(0)) await session.close();
  await peer?.close();
  peer = undefined;
});

/** Writes `bytes` in pieces of `step` bytes, waiting a turn of the event loop between pieces so that they go out apart. */
async function writeInPieces(res: ServerResponse, bytes: Buffer, step: number): Promise<void> {
  for (let at = 0; at < bytes.length; at += step) {
    res.write(bytes.subarray(at, at + step));
    if ((at / step) % 16 === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  res.end();
}

/** Answers each request with a notification, then its response carrying `TEXT`, CRLF line breaks, in pieces of 997 bytes. */
function answerInPieces(request: SeenRequest, res: ServerResponse): void {
  const { id } = request.body ?? {};
  if (id === undefined) {
    res.writeHead(202).end();
    return;
  }
  res.writeHead(200, { "content-type": "text/event-stream" });
  const note = JSON.stringify({ jsonrpc: "2.0", method: "notifications/message", params: { data: "é" } });
  const response = JSON.stringify({ jsonrpc: "2.0", id, result: { text: TEXT } });
  const stream = `id: 1\r\nevent: message\r\ndata: ${note}\r\n\r\nid: 2\r\ndata: ${response}\r\n\r\n`;
  void writeInPieces(res, Buffer.from(stream, "utf8"), 997);
}

describe.each(HTTP_PATHS)("Streamable HTTP client (%s): an SSE answer in many pieces", (http) => {
  it("reads a 2 MiB event cut into pieces of 997 bytes, through split characters and CRLFs, whole", async () => {
    peer = await startRawPeer(answerInPieces);
    const session = new JsonRpcSession();
    sessions.push(session);
    const errors: Error[] = [];
    const notes: unknown[] = [];
    session.onerror = (error) => errors.push(error);
    session.setNotificationHandler("notifications/message", (params) => {
      notes.push(params);
    });
    await session.connect(new StreamableHttpClientTransport(peer.url, { http }));
    const result = (await session.request("big", {}, { timeoutMs: 20_000 })) as { text: string };
    expect(result.text.length).toBe(TEXT.length);
    expect(result.text === TEXT).toBe(true);
    expect(notes).toEqual([{ data: "é" }]);
    expect(errors).toEqual([]);
  });

  it("fails the request naming the limit when that event is one byte over maxMessageBytes", async () => {
    peer = await startRawPeer(answerInPieces);
    const response = JSON.stringify({ jsonrpc: "2.0", id: 0, result: { text: TEXT } });
    const session = new JsonRpcSession();
    sessions.push(session);
    session.onerror = () => {};
    const maxMessageBytes = Buffer.byteLength(response) - 1;
    await session.connect(new StreamableHttpClientTransport(peer.url, { http, maxMessageBytes }));
    const refused = await session.request("big", {}, { timeoutMs: 20_000 }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ProtocolError);
    expect(refused).toMatchObject({ code: ErrorCode.ConnectionClosed, data: { maxMessageBytes } });
  });
});

/** An answer whose body arrives as the given pieces of text, each with its UTF-8 length. */
function answerOf(pieces: readonly string[]): HttpAnswer {
  return {
    status: 200,
    statusText: "OK",
    header: () => null,
    read: () => Promise.reject(new Error("read as bytes")),
    async readText(onText) {
      for (const piece of pieces) onText(piece, Buffer.byteLength(piece));
    },
    cancel: async () => {},
  };
}

/** `text` cut every `step` characters. */
function cut(text: string, step: number): string[] {
  const pieces: string[] = [];
  for (let at = 0; at < text.length; at += step) pieces.push(text.slice(at, at + step));
  return pieces;
}

async function eventsOf(pieces: readonly string[], maxEventBytes: number): Promise<EventSourceMessage[] | Error> {
  const events: EventSourceMessage[] = [];
  const read = readSse(answerOf(pieces), { onEvent: (event) => events.push(event), onRetry: () => {} }, maxEventBytes);
  return read.then(
    () => events,
    (error: Error) => error,
  );
}

describe("readSse: the size limit", () => {
  const limit = 3000;
  /** Data of exactly `limit` bytes in three-byte characters: 1,000 characters. */
  const atLimit = "€".repeat(limit / 3);

  it("accepts events of exactly the limit one after another, in one piece or in many", async () => {
    const body = `data: small\n\ndata: ${atLimit}\n\ndata: ${atLimit}\n\n`;
    for (const pieces of [[body], cut(body, 7), cut(body, 1)]) {
      expect(await eventsOf(pieces, limit)).toEqual([
        { id: undefined, event: undefined, data: "small" },
        { id: undefined, event: undefined, data: atLimit },
        { id: undefined, event: undefined, data: atLimit },
      ]);
    }
  });

  it("refuses an event one byte over the limit after events within it, in one piece or in many", async () => {
    const body = `data: small\n\ndata: ${atLimit}\n\ndata: ${atLimit}a\n\n`;
    for (const pieces of [[body], cut(body, 7), cut(body, 1)]) {
      const outcome = await eventsOf(pieces, limit);
      expect(outcome).toBeInstanceOf(MessageTooLargeError);
      expect((outcome as MessageTooLargeError).maxMessageBytes).toBe(limit);
    }
  });

  it("counts the data's bytes, not the characters: 1,001 three-byte characters are over 3,000 bytes", async () => {
    // 1,001 characters are well within 3,000 characters: only a count in bytes finds the event too large.
    const outcome = await eventsOf([`data: ${atLimit}€\n\n`], limit);
    expect(outcome).toBeInstanceOf(MessageTooLargeError);
  });
});
