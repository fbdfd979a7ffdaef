/**
 * Streamable HTTP client: a request the client itself gave up on (a timeout, an aborted signal)
 * is not a transport failure. When the server then ends that request's SSE stream without a
 * response, as it should, nothing reaches `onerror`; a stream the server cuts short still does.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { ErrorCode } from "../../src/jsonrpc/errors.js";
import { JsonRpcSession } from "../../src/jsonrpc/session.js";
import { StreamableHttpClientTransport } from "../../src/transports/http/client.js";
import type { HttpPath } from "../../src/transports/http/client-http.js";
import { HTTP_PATHS } from "./http-client-peer.js";
import { type HttpProxy, startProxy } from "./http-client-proxy.js";
import { type EchoServer, startEchoServer } from "./support.js";

let echo: EchoServer | undefined;
let proxy: HttpProxy | undefined;
const sessions: JsonRpcSession[] = [];
afterEach(async () => {
  for (const session of sessions.splice(0)) await session.close();
  await proxy?.close();
  proxy = undefined;
  await echo?.close();
  echo = undefined;
});

/**
 * A session through a proxy that tells when the answer to the `progress` request reached the
 * client and when the client's end of it closed (read to its end or given up), and holds a
 * cancellation until the answer is there (so that the server has the request it is told to
 * cancel, whatever the timing).
 */
async function openSession(http: HttpPath) {
  let answered!: () => void;
  const arrived = new Promise<void>((resolve) => {
    answered = resolve;
  });
  let finish!: () => void;
  const ended = new Promise<void>((resolve) => {
    finish = resolve;
  });
  echo = await startEchoServer();
  proxy = await startProxy(echo.url, {
    before: (request) => (request.body.includes('"notifications/cancelled"') ? arrived : undefined),
    answered: (request) => {
      if (request.body.includes('"progress"')) answered();
    },
    ended: (request) => {
      if (request.body.includes('"progress"')) finish();
    },
  });
  const transport = new StreamableHttpClientTransport(proxy.url, { http });
  const session = new JsonRpcSession();
  sessions.push(session);
  const errors: Error[] = [];
  session.onerror = (error) => errors.push(error);
  await session.connect(transport);
  await session.request("initialize", { protocolVersion: "2025-11-25", capabilities: {} });
  transport.setProtocolVersion("2025-11-25");
  await session.notify("notifications/initialized");
  return { session, errors, arrived, ended };
}

/** Lets the transport finish with a stream that ended: a few turns of the event loop. */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
}

describe.each(HTTP_PATHS)("Streamable HTTP client (%s): requests the client gave up on", (http) => {
  it("an aborted request is not reported when the server ends its stream", async () => {
    const { session, errors, arrived, ended } = await openSession(http);
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
    const { session, errors, arrived, ended } = await openSession(http);
    // The request times out once the server has it, whatever the timing of the machine.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      const outcome = session.request("progress", { key: "t" }, { timeoutMs: 1_000 }).catch((e: unknown) => e);
      await arrived;
      vi.advanceTimersByTime(1_000);
      expect(await outcome).toMatchObject({ code: "REQUEST_TIMEOUT" });
    } finally {
      vi.useRealTimers();
    }
    await ended;
    await settle();
    expect(errors).toEqual([]);
    expect(await session.request("echo", { n: 2 })).toEqual({ echo: { n: 2 } });
  });

  it("a stream the server ends without the response still fails the request and is reported", async () => {
    const { session, errors, arrived } = await openSession(http);
    const outcome = session.request("progress", { key: "cut" }).catch((e: unknown) => e);
    await arrived;
    await echo?.sessions[0]?.close();
    expect(await outcome).toMatchObject({ code: ErrorCode.ConnectionClosed });
    expect(errors.map((e) => e.message)).toEqual(["The SSE stream ended before all responses arrived"]);
  });
});
