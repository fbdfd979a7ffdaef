/**
 * Bounds of our own on how long a client may take to send its request: `bodyTimeoutMs` for the
 * body (both paths, a 408 with a JSON-RPC error), and `nodeServerOptions` for the headers on
 * `node:http`, so that a slow-loris client does not hold a connection for Node's 60 s / 300 s.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { connect } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { toNodeHandler } from "../../src/transports/http/node.js";
import { nodeServerOptions } from "../../src/transports/http/node-server.js";
import { StreamableHttpServer, type StreamableHttpServerOptions } from "../../src/transports/http/server.js";
import { BOTH, connectEcho, initializeRequest } from "./support.js";

const cleanups: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  vi.useRealTimers();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** `toNodeHandler` on 127.0.0.1, on an `http.Server` made with `serverOptions`. */
async function serve(options: Partial<StreamableHttpServerOptions> = {}, serverOptions = {}) {
  const endpoint = new StreamableHttpServer({ onsession: (t) => connectEcho(t), ...options });
  const handler = toNodeHandler(endpoint);
  const http: Server = createServer(serverOptions, (req, res) => void handler(req, res));
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  cleanups.push(async () => {
    await endpoint.close();
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
  });
  return { port: (http.address() as AddressInfo).port, endpoint };
}

/** A raw connection that writes `text` and then nothing; what it received, once the server closes it. */
function stall(port: number, text: string) {
  const state = { received: "", closed: false };
  const socket = connect(port, "127.0.0.1", () => socket.write(text));
  socket.setEncoding("utf8");
  socket.on("data", (chunk: string) => {
    state.received += chunk;
  });
  socket.on("error", () => {});
  const closed = new Promise<void>((resolve) =>
    socket.on("close", () => {
      state.closed = true;
      resolve();
    }),
  );
  cleanups.push(() => socket.destroy());
  return { state, closed };
}

/** Waits, on real I/O turns (`vi.waitFor` would move the fake clock), until `done` holds. */
async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setImmediate(resolve));
}

const body = JSON.stringify(initializeRequest(1));
const head = (length: number) =>
  `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: ${BOTH}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;

describe("bodyTimeoutMs", () => {
  it("over node:http, answers a body still arriving after 30 s by default with 408 and a JSON-RPC error, and closes", async () => {
    const { port } = await serve();
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    const loris = stall(port, `${head(body.length)}${body.slice(0, 10)}`);
    await until(() => vi.getTimerCount() > 0);
    await vi.advanceTimersByTimeAsync(29_999);
    expect(loris.state.received).toBe("");
    await vi.advanceTimersByTimeAsync(1);
    await loris.closed;
    const [status, ...rest] = loris.state.received.split("\r\n");
    expect(status).toBe("HTTP/1.1 408 Request Timeout");
    expect(rest).toContain("connection: close");
    expect(JSON.parse(loris.state.received.slice(loris.state.received.indexOf("\r\n\r\n") + 4))).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: {
        code: -32000,
        message: "Request Timeout: the body did not arrive within 30000 ms",
        data: { timeoutMs: 30_000 },
      },
    });
  });

  it("over node:http, ends each of two slow bodies at its own deadline, not at the first one's", async () => {
    const endpoint = new StreamableHttpServer({ onsession: (t) => connectEcho(t), bodyTimeoutMs: 5_000 });
    const handler = toNodeHandler(endpoint);
    let seen = 0;
    const http = createServer((req, res) => {
      seen += 1;
      void handler(req, res);
    });
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    cleanups.push(async () => {
      await endpoint.close();
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    });
    const port = (http.address() as AddressInfo).port;
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    const first = stall(port, `${head(body.length)}${body.slice(0, 10)}`);
    await until(() => vi.getTimerCount() > 0);
    await vi.advanceTimersByTimeAsync(2_000);
    const second = stall(port, `${head(body.length)}${body.slice(0, 10)}`);
    await until(() => seen === 2);
    for (let turn = 0; turn < 10; turn += 1) await new Promise((resolve) => setImmediate(resolve));
    await vi.advanceTimersByTimeAsync(2_999);
    expect(first.state.received).toBe("");
    await vi.advanceTimersByTimeAsync(1);
    await first.closed;
    expect(first.state.received.split("\r\n")[0]).toBe("HTTP/1.1 408 Request Timeout");
    expect(second.state.received).toBe("");
    await vi.advanceTimersByTimeAsync(1_999);
    expect(second.state.received).toBe("");
    await vi.advanceTimersByTimeAsync(1);
    await second.closed;
    expect(second.state.received.split("\r\n")[0]).toBe("HTTP/1.1 408 Request Timeout");
  });

  it("over node:http, serves a body that arrives in parts within the bound", async () => {
    const { port, endpoint } = await serve({ bodyTimeoutMs: 1_000 });
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    const socket = connect(port, "127.0.0.1");
    cleanups.push(() => socket.destroy());
    let received = "";
    socket.setEncoding("utf8").on("data", (chunk: string) => {
      received += chunk;
    });
    await new Promise((resolve) => socket.once("connect", resolve));
    socket.write(`${head(body.length)}${body.slice(0, 10)}`);
    await until(() => vi.getTimerCount() > 0);
    await vi.advanceTimersByTimeAsync(999);
    socket.write(body.slice(10));
    await until(() => received.includes('"serverInfo"'));
    expect(received.split("\r\n")[0]).toBe("HTTP/1.1 200 OK");
    expect(endpoint.sessionCount).toBe(1);
  });

  it("through handle(), answers a body that does not end within the bound with 408", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    const endpoint = new StreamableHttpServer({ onsession: (t) => connectEcho(t), bodyTimeoutMs: 5_000 });
    cleanups.push(() => endpoint.close());
    let cancelled = false;
    const trickle = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(body.slice(0, 10)));
      },
      cancel() {
        cancelled = true;
      },
    });
    const answer = endpoint.handle(
      new Request("http://127.0.0.1/mcp", {
        method: "POST",
        headers: { accept: BOTH, "content-type": "application/json" },
        body: trickle,
        duplex: "half",
      } as RequestInit),
    );
    await until(() => vi.getTimerCount() > 0);
    await vi.advanceTimersByTimeAsync(4_999);
    expect(cancelled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const response = await answer;
    expect(response.status).toBe(408);
    expect((await response.json()).error).toMatchObject({ code: -32000, data: { timeoutMs: 5_000 } });
    expect(cancelled).toBe(true);
    expect(endpoint.sessionCount).toBe(0);
  });

  it("refuses a bodyTimeoutMs a timer cannot wait", () => {
    for (const bad of [0, -1, 1.5, Number.NaN, 2 ** 31]) {
      expect(() => new StreamableHttpServer({ onsession: () => undefined, bodyTimeoutMs: bad }), String(bad)).toThrow(
        TypeError,
      );
    }
  });
});

describe("nodeServerOptions", () => {
  it("gives an http.Server that answers headers still arriving after headersTimeoutMs with 408 and closes", async () => {
    const { port } = await serve({}, nodeServerOptions({ headersTimeoutMs: 200, checkIntervalMs: 20 }));
    const loris = stall(port, "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: ");
    await loris.closed;
    expect(loris.state.received.split("\r\n")[0]).toBe("HTTP/1.1 408 Request Timeout");
  });

  it("leaves requests that arrive in time, and their SSE answers, to the endpoint", async () => {
    const { port } = await serve({}, nodeServerOptions({ headersTimeoutMs: 200, checkIntervalMs: 20 }));
    const answer = await fetch(`http://127.0.0.1:${port}/mcp`, {
      method: "POST",
      headers: { accept: BOTH, "content-type": "application/json" },
      body,
    });
    expect(answer.status).toBe(200);
    expect(await answer.text()).toContain('"serverInfo"');
  });

  it("has defaults shorter than Node's, in the order Node requires", () => {
    expect(nodeServerOptions()).toEqual({
      headersTimeout: 10_000,
      requestTimeout: 60_000,
      keepAliveTimeout: 5_000,
      connectionsCheckingInterval: 1_000,
    });
    expect(() => nodeServerOptions({ headersTimeoutMs: 2_000, requestTimeoutMs: 1_000 })).toThrow(TypeError);
  });
});
