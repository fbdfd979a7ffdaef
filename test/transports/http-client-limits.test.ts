/**
 * Streamable HTTP client: what the server answers is read within bounds. A message over
 * `maxMessageBytes` (an SSE event or a JSON body) fails its request with an error naming the
 * limit (on the GET stream, which owes no response, it is skipped and the stream reads on), and a
 * JSON answer that cannot be read fails its request at once; either way the transport goes on
 * serving other requests.
 */
import type { ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { ErrorCode, ProtocolError } from "../../src/jsonrpc/errors.js";
import { JsonRpcSession } from "../../src/jsonrpc/session.js";
import { StreamableHttpClientTransport } from "../../src/transports/http/client.js";
import { answerJson, answerSse, HTTP_PATHS, type RawPeer, type SeenRequest, startRawPeer } from "./http-client-peer.js";
import { Inbox } from "./transport.contract.js";

const MiB = 1024 * 1024;
const BLOB = "x".repeat(32 * MiB);

let peer: RawPeer | undefined;
const sessions: JsonRpcSession[] = [];
afterEach(async () => {
  for (const session of sessions.splice(0)) await session.close();
  await peer?.close();
  peer = undefined;
});

/** Answers `sse` and `json` with a 32 MiB result in that form, `garbled` with a body that is not JSON. */
function answer(request: SeenRequest, res: ServerResponse): void {
  const { id, method } = request.body ?? {};
  if (id === undefined) {
    res.writeHead(202).end();
    return;
  }
  const big = { jsonrpc: "2.0", id, result: { blob: BLOB } };
  if (method === "sse") answerSse(res, JSON.stringify(big));
  else if (method === "json") answerJson(res, big);
  else if (method === "garbled") res.writeHead(200, { "content-type": "application/json" }).end('{"jsonrpc":"2.0",');
  else if (method === "refused")
    answerJson(res, { jsonrpc: "2.0", id: null, error: { code: -32600, message: "Nope" } });
  else answerJson(res, { jsonrpc: "2.0", id, result: { method } });
}

async function open(
  options: NonNullable<ConstructorParameters<typeof StreamableHttpClientTransport>[1]>,
  answerWith: typeof answer = answer,
) {
  peer = await startRawPeer(answerWith);
  const session = new JsonRpcSession();
  sessions.push(session);
  const errors: Error[] = [];
  session.onerror = (error) => errors.push(error);
  await session.connect(new StreamableHttpClientTransport(peer.url, options));
  return { session, errors };
}

/** The request's outcome: its result, or what it was rejected with. */
function outcome(session: JsonRpcSession, method: string): Promise<unknown> {
  return session.request(method, {}, { timeoutMs: 10_000 }).catch((error: unknown) => error);
}

describe.each(HTTP_PATHS)("Streamable HTTP client (%s): message size", (http) => {
  for (const form of ["sse", "json"] as const) {
    it(`receives a 32 MiB message (${form}) whole under a raised maxMessageBytes`, async () => {
      const { session, errors } = await open({ http, maxMessageBytes: 40 * MiB });
      const result = (await outcome(session, form)) as { blob?: string };
      expect(result.blob?.length).toBe(BLOB.length);
      expect(errors).toEqual([]);
    });

    it(`refuses a 32 MiB message (${form}) over the default limit, naming it, and serves the next request`, async () => {
      const { session, errors } = await open({ http });
      const refused = await outcome(session, form);
      expect(refused).toBeInstanceOf(ProtocolError);
      expect(refused).toMatchObject({ code: ErrorCode.ConnectionClosed, data: { maxMessageBytes: 16 * MiB } });
      expect((refused as Error).message).toMatch(/over the limit of 16777216 bytes \(maxMessageBytes\)/);
      expect(errors.map((e) => e.message)).toEqual([expect.stringMatching(/limit of 16777216 bytes/)]);
      expect(await outcome(session, "echo")).toEqual({ method: "echo" });
    });
  }

  it("counts bytes, not characters: an event of 400 three-byte characters is over a limit of 1000 bytes", async () => {
    const euros = (request: SeenRequest, res: ServerResponse) =>
      answerSse(res, JSON.stringify({ jsonrpc: "2.0", id: request.body?.id, result: { text: "€".repeat(400) } }));
    const { session } = await open({ http, maxMessageBytes: 1000 }, euros);
    expect(await outcome(session, "euros")).toMatchObject({ code: ErrorCode.ConnectionClosed });
  });

  it("accepts an event of exactly maxMessageBytes", async () => {
    const line = (id: unknown, pad: string) => JSON.stringify({ jsonrpc: "2.0", id, result: { pad } });
    const size = Buffer.byteLength(line(1, ""));
    const exact = (request: SeenRequest, res: ServerResponse) =>
      answerSse(res, line(request.body?.id, "€".repeat(100)));
    const { session, errors } = await open({ http, maxMessageBytes: size + 300 }, exact);
    expect(await outcome(session, "exact")).toEqual({ pad: "€".repeat(100) });
    expect(errors).toEqual([]);
  });
});

describe.each(HTTP_PATHS)("Streamable HTTP client (%s): a JSON answer that cannot be read", (http) => {
  it("fails the request at once with -32700 carrying the HTTP status, reports it, and serves the next request", async () => {
    const { session, errors } = await open({ http });
    const refused = await outcome(session, "garbled");
    expect(refused).toBeInstanceOf(ProtocolError);
    expect(refused).toMatchObject({ code: ErrorCode.ParseError, data: { status: 200 } });
    expect((refused as Error).message).toMatch(/HTTP 200/);
    expect(errors).toHaveLength(1);
    expect(await outcome(session, "echo")).toEqual({ method: "echo" });
  });

  it("fails the request at once with the server's error when the answer is an error with id null", async () => {
    const { session, errors } = await open({ http });
    const refused = await outcome(session, "refused");
    expect(refused).toBeInstanceOf(ProtocolError);
    expect(refused).toMatchObject({ code: ErrorCode.InvalidRequest, message: "Nope" });
    expect(errors).toHaveLength(1);
    expect(await outcome(session, "echo")).toEqual({ method: "echo" });
  });
});

describe.each(HTTP_PATHS)("Streamable HTTP client (%s): an event over the limit on the GET stream", (http) => {
  const LIMIT = 1000;
  const note = (method: string, text = "") => JSON.stringify({ jsonrpc: "2.0", method, params: { text } });
  /** How the oversized event e-2 is written: its lines, joined by `eol`. */
  const cases = [
    {
      name: "far over the limit, its id first",
      lines: ["id: e-2", `data: ${note("notifications/big", "x".repeat(50 * LIMIT))}`],
    },
    {
      name: "far over the limit, its id after its data",
      lines: [`data: ${note("notifications/big", "x".repeat(50 * LIMIT))}`, "id: e-2"],
    },
    {
      name: "far over the limit, CRLF line breaks",
      lines: ["id: e-2", `data: ${note("notifications/big", "x".repeat(50 * LIMIT))}`],
      eol: "\r\n",
    },
    {
      name: "over in bytes only (three-byte characters)",
      lines: ["id: e-2", `data: ${note("notifications/big", "€".repeat(400))}`],
    },
  ];

  for (const { name, lines, eol = "\n" } of cases) {
    it(`skips it (${name}), reporting it, reads on, and resumes after its id`, async () => {
      peer = await startRawPeer((seen, res) => {
        if (seen.method === "DELETE") {
          res.writeHead(405).end();
          return;
        }
        res.writeHead(200, { "content-type": "text/event-stream" });
        if (seen.headers["last-event-id"] !== undefined) {
          // The resumption: what follows the id it asks after, and the stream stays open.
          res.write(`id: e-4\ndata: ${note(`notifications/after-${seen.headers["last-event-id"]}`)}\n\n`);
          return;
        }
        res.write(`id: e-1\ndata: ${note("notifications/first")}\n\n`);
        const big = `${lines.join(eol)}${eol}${eol}`;
        for (let at = 0; at < big.length; at += 4096) res.write(big.slice(at, at + 4096));
        res.end(`id: e-3\ndata: ${note("notifications/third")}\n\n`);
      });
      const client = new StreamableHttpClientTransport(peer.url, {
        http,
        sessionId: "s-1",
        maxMessageBytes: LIMIT,
        reconnect: { maxRetries: 1, initialDelayMs: 1, maxDelayMs: 1 },
      });
      const inbox = new Inbox(client);
      try {
        await client.start();
        await inbox.until((i) => i.messages.length === 3);
        const methods = inbox.messages.map((m) => (!Array.isArray(m) && "method" in m ? m.method : undefined));
        expect(methods).toEqual(["notifications/first", "notifications/third", "notifications/after-e-3"]);
        expect(peer.seen.map((r) => r.headers["last-event-id"] ?? null)).toEqual([null, "e-3"]);
        expect(inbox.errors).toHaveLength(1);
        expect(inbox.errors[0]?.message).toBe(
          `The server sent an SSE event (id "e-2") on the GET stream over the limit of ${LIMIT} bytes (maxMessageBytes); it was dropped`,
        );
      } finally {
        await client.close();
      }
    });
  }

  it("keeps the id of a skipped event as the place to resume after, when the stream drops right after it", async () => {
    peer = await startRawPeer((seen, res) => {
      if (seen.method === "DELETE") {
        res.writeHead(405).end();
        return;
      }
      res.writeHead(200, { "content-type": "text/event-stream" });
      const after = seen.headers["last-event-id"];
      if (after === undefined) res.end(`id: e-1\ndata: ${note("notifications/big", "x".repeat(5 * LIMIT))}\n\n`);
      else res.write(`id: e-2\ndata: ${note(`notifications/after-${after}`)}\n\n`);
    });
    const client = new StreamableHttpClientTransport(peer.url, {
      http,
      sessionId: "s-1",
      maxMessageBytes: LIMIT,
      reconnect: { maxRetries: 1, initialDelayMs: 1, maxDelayMs: 1 },
    });
    const inbox = new Inbox(client);
    try {
      await client.start();
      await inbox.until((i) => i.messages.length === 1);
      expect(inbox.messages).toEqual([{ jsonrpc: "2.0", method: "notifications/after-e-1", params: { text: "" } }]);
      expect(inbox.errors.map((e) => e.message)).toEqual([expect.stringContaining('(id "e-1") on the GET stream')]);
    } finally {
      await client.close();
    }
  });
});
