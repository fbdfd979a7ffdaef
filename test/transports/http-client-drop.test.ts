import { afterEach, describe, expect, it } from "vitest";
import { ErrorCode, ProtocolError } from "../../src/jsonrpc/errors.js";
import { JsonRpcSession } from "../../src/jsonrpc/session.js";
import { StreamableHttpClientTransport } from "../../src/transports/http/client.js";
import type { HttpPath } from "../../src/transports/http/client-http.js";
import { HTTP_PATHS, type RawPeer, startRawPeer } from "./http-client-peer.js";

let peer: RawPeer | undefined;
afterEach(async () => {
  await peer?.close();
  peer = undefined;
});

/** A server whose answer to every POST is an SSE stream that ends after `chunks`, without the response. */
async function droppingServer(chunks: string[]): Promise<URL> {
  peer = await startRawPeer((request, res) => {
    if (request.method !== "POST") {
      res.writeHead(405).end();
      return;
    }
    res.writeHead(200, { "content-type": "text/event-stream" });
    for (const chunk of chunks) res.write(chunk);
    res.end();
  });
  return peer.url;
}

async function requestOver(url: URL, http: HttpPath) {
  const transport = new StreamableHttpClientTransport(url, {
    http,
    reconnect: { maxRetries: 0, initialDelayMs: 1, maxDelayMs: 1 },
  });
  const session = new JsonRpcSession();
  const errors: Error[] = [];
  session.onerror = (error) => errors.push(error);
  await session.connect(transport);
  // Without a timeout: only the transport can end the wait.
  const outcome = await session.request("tools/call", {}, { timeoutMs: Number.POSITIVE_INFINITY }).catch((e) => e);
  await session.close();
  return { outcome, errors };
}

describe.each(HTTP_PATHS)("Streamable HTTP client (%s): a POST stream that ends without its response", (http) => {
  it("fails the request with -32000 when the stream cannot be resumed (no event id)", async () => {
    const { outcome, errors } = await requestOver(await droppingServer([": keep-alive\n\n"]), http);
    expect(outcome).toBeInstanceOf(ProtocolError);
    expect(outcome).toMatchObject({ code: ErrorCode.ConnectionClosed });
    expect(errors.map((e) => e.message)).toEqual(["The SSE stream ended before all responses arrived"]);
  });

  it("fails the request with -32000 once reconnecting gives up", async () => {
    const { outcome } = await requestOver(await droppingServer(["id: 1\ndata: \n\n"]), http);
    expect(outcome).toBeInstanceOf(ProtocolError);
    expect(outcome).toMatchObject({ code: ErrorCode.ConnectionClosed });
  });
});
