/**
 * Streamable HTTP client: what the server answers is read within bounds. A message over
 * `maxMessageBytes` (an SSE event or a JSON body) fails its request with an error naming the
 * limit, and a JSON answer that cannot be read fails its request at once; either way the
 * transport goes on serving other requests.
 */
import type { ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { ErrorCode, ProtocolError } from "../../src/jsonrpc/errors.js";
import { JsonRpcSession } from "../../src/jsonrpc/session.js";
import { StreamableHttpClientTransport } from "../../src/transports/http/client.js";
import { answerJson, answerSse, HTTP_PATHS, type RawPeer, type SeenRequest, startRawPeer } from "./http-client-peer.js";

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
