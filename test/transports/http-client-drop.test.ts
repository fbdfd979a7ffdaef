import { describe, expect, it } from "vitest";
import { ErrorCode, ProtocolError } from "../../src/jsonrpc/errors.js";
import { JsonRpcSession } from "../../src/jsonrpc/session.js";
import { StreamableHttpClientTransport } from "../../src/transports/http/client.js";

const encoder = new TextEncoder();

/** A server whose answer to every POST is an SSE stream that ends after `chunks`, without the response. */
function droppingFetch(chunks: string[]): typeof fetch {
  return async (_input, init) => {
    if (init?.method !== "POST") return new Response(null, { status: 405 });
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
        controller.close();
      },
    });
    return new Response(body, { status: 200, headers: { "content-type": "text/event-stream" } });
  };
}

async function requestOver(fetchFn: typeof fetch) {
  const transport = new StreamableHttpClientTransport(new URL("http://127.0.0.1:9/mcp"), {
    fetch: fetchFn,
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

describe("Streamable HTTP client: a POST stream that ends without its response", () => {
  it("fails the request with -32000 when the stream cannot be resumed (no event id)", async () => {
    const { outcome, errors } = await requestOver(droppingFetch([": keep-alive\n\n"]));
    expect(outcome).toBeInstanceOf(ProtocolError);
    expect(outcome).toMatchObject({ code: ErrorCode.ConnectionClosed });
    expect(errors.map((e) => e.message)).toEqual(["The SSE stream ended before all responses arrived"]);
  });

  it("fails the request with -32000 once reconnecting gives up", async () => {
    const { outcome } = await requestOver(droppingFetch(["id: 1\ndata: \n\n"]));
    expect(outcome).toBeInstanceOf(ProtocolError);
    expect(outcome).toMatchObject({ code: ErrorCode.ConnectionClosed });
  });
});
