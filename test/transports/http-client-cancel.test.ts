/**
 * Streamable HTTP client: a request the client itself gave up on (a timeout, an aborted signal)
 * is not a transport failure. When the server then ends that request's SSE stream without a
 * response, as it should, nothing reaches `onerror`; a stream the server cuts short still does.
 */
import { afterEach, describe, expect, it } from "vitest";
import { ErrorCode } from "../../src/jsonrpc/errors.js";
import { JsonRpcSession } from "../../src/jsonrpc/session.js";
import { StreamableHttpClientTransport } from "../../src/transports/http/client.js";
import { type EchoServer, startEchoServer } from "./http-fixtures.js";

let echo: EchoServer | undefined;
const sessions: JsonRpcSession[] = [];
afterEach(async () => {
  for (const session of sessions.splice(0)) await session.close();
  await echo?.close();
  echo = undefined;
});

/**
 * A fetch that tells when the answer to the `progress` request arrived and when its body
 * ended (or its fetch was aborted), and holds a cancellation until then (so that the server
 * has the request it is told to cancel, whatever the timing).
 */
function watchingFetch() {
  let answered!: () => void;
  const arrived = new Promise<void>((resolve) => {
    answered = resolve;
  });
  let finish!: () => void;
  const ended = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const fetchFn: typeof fetch = async (input, init) => {
    const body = String(init?.body ?? "");
    if (body.includes('"notifications/cancelled"')) await arrived;
    if (!body.includes('"progress"')) return fetch(input, init);
    let response: Response;
    try {
      response = await fetch(input, init);
    } catch (error) {
      // The client gave up before the answer came: nothing more will arrive.
      answered();
      finish();
      throw error;
    }
    answered();
    if (response.body === null) return response;
    const reader = response.body.getReader();
    const watched = new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const { done, value } = await reader.read();
          if (done) {
            finish();
            controller.close();
          } else controller.enqueue(value);
        } catch (error) {
          finish();
          controller.error(error);
        }
      },
      cancel(reason) {
        finish();
        return reader.cancel(reason);
      },
    });
    return new Response(watched, { status: response.status, headers: response.headers });
  };
  return { fetchFn, arrived, ended };
}

async function openSession(fetchFn: typeof fetch) {
  echo = await startEchoServer();
  const transport = new StreamableHttpClientTransport(echo.url, { fetch: fetchFn });
  const session = new JsonRpcSession();
  sessions.push(session);
  const errors: Error[] = [];
  session.onerror = (error) => errors.push(error);
  await session.connect(transport);
  await session.request("initialize", { protocolVersion: "2025-11-25", capabilities: {} });
  transport.setProtocolVersion("2025-11-25");
  await session.notify("notifications/initialized");
  return { session, errors };
}

/** Lets the transport finish with a stream that ended: a few turns of the event loop. */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
}

describe("Streamable HTTP client: requests the client gave up on", () => {
  it("an aborted request is not reported when the server ends its stream", async () => {
    const { fetchFn, arrived, ended } = watchingFetch();
    const { session, errors } = await openSession(fetchFn);
    const abort = new AbortController();
    const outcome = session.request("progress", { key: "a" }, { signal: abort.signal }).catch((e: unknown) => e);
    await arrived;
    abort.abort();
    expect(await outcome).toMatchObject({ code: "REQUEST_CANCELLED" });
    await ended;
    await settle();
    expect(errors).toEqual([]);
    expect(await session.request("echo", { n: 1 })).toEqual({ echo: { n: 1 } });
  });

  it("a request that timed out is not reported when the server ends its stream", async () => {
    const { fetchFn, ended } = watchingFetch();
    const { session, errors } = await openSession(fetchFn);
    const outcome = await session.request("progress", { key: "t" }, { timeoutMs: 1 }).catch((e: unknown) => e);
    expect(outcome).toMatchObject({ code: "REQUEST_TIMEOUT" });
    await ended;
    await settle();
    expect(errors).toEqual([]);
    expect(await session.request("echo", { n: 2 })).toEqual({ echo: { n: 2 } });
  });

  it("a stream the server ends without the response still fails the request and is reported", async () => {
    const { fetchFn, arrived } = watchingFetch();
    const { session, errors } = await openSession(fetchFn);
    const outcome = session.request("progress", { key: "cut" }).catch((e: unknown) => e);
    await arrived;
    await echo?.sessions[0]?.close();
    expect(await outcome).toMatchObject({ code: ErrorCode.ConnectionClosed });
    expect(errors.map((e) => e.message)).toEqual(["The SSE stream ended before all responses arrived"]);
  });
});
