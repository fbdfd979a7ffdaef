import {
  Agent,
  createServer,
  type IncomingMessage,
  type RequestListener,
  request,
  type ServerResponse,
} from "node:http";
import { connect as connectHttp2, createServer as createHttp2Server } from "node:http2";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { McpServer } from "../../src/server/index.js";
import { toNodeHandler } from "../../src/transports/http/node.js";
import { StreamableHttpServer } from "../../src/transports/http/server.js";
import type { StreamableHttpSessionTransport } from "../../src/transports/http/session-transport.js";
import {
  BOTH,
  connectEcho,
  initialize,
  initializeRequest,
  nextMessage,
  post,
  sseEvents,
  sseMessages,
  statelessToolCall,
} from "./support.js";

interface Raw {
  status: number;
  headers: IncomingMessage["headers"];
  body: string;
  /** Whether the request went over a connection an earlier request had used. */
  reusedSocket: boolean;
}

/** One request over `agent`, its body sent in the given chunks (chunked encoding unless a length is set). */
function raw(url: URL, agent: Agent, headers: Record<string, string>, chunks: string[]): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: "POST", agent, headers }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        body += chunk;
      });
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, reusedSocket: req.reusedSocket }),
      );
    });
    req.on("error", reject);
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

let running: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(running.map((stop) => stop()));
  running = [];
});

/** `listener` served by node:http on 127.0.0.1 until the test ends, when `endpoint` closes too; the URL of its /mcp. */
async function serveHttp(endpoint: StreamableHttpServer, listener: RequestListener): Promise<URL> {
  const http = createServer(listener);
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  running.push(async () => {
    await endpoint.close();
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
  });
  return new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`);
}

/**
 * `handle`, called when a test's own listener gets to it: `handled` settles as that call's
 * promise does, so a test can wait for a handler it reaches late.
 */
function deferredHandle(handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>) {
  let reach!: (handling: Promise<void>) => void;
  const handled = new Promise<void>((resolve) => {
    reach = resolve;
  });
  return { run: (req: IncomingMessage, res: ServerResponse) => reach(handle(req, res)), handled };
}

/** `toNodeHandler` on 127.0.0.1, behind `middleware` when given, with the echo protocol on each session. */
async function start(
  options: Partial<ConstructorParameters<typeof StreamableHttpServer>[0]> = {},
  middleware?: (req: IncomingMessage, res: ServerResponse, next: () => void) => void,
) {
  const sessions: StreamableHttpSessionTransport[] = [];
  const errors: Error[] = [];
  const endpoint = new StreamableHttpServer({
    onsession: (transport) => {
      sessions.push(transport);
      connectEcho(transport);
    },
    onerror: (error) => errors.push(error),
    ...options,
  });
  const handle = toNodeHandler(endpoint);
  const url = await serveHttp(endpoint, (req, res) => {
    if (middleware) middleware(req, res, () => void handle(req, res));
    else void handle(req, res);
  });
  return { url, endpoint, sessions, errors };
}

const jsonHeaders = { accept: BOTH, "content-type": "application/json" };

/** `toNodeHandler(endpoint)` served over HTTP/2 on 127.0.0.1, with a client connected to it. */
async function startHttp2(endpoint: StreamableHttpServer) {
  const handle = toNodeHandler(endpoint);
  const h2 = createHttp2Server((req, res) => {
    void handle(req as unknown as IncomingMessage, res as unknown as ServerResponse);
  });
  await new Promise<void>((resolve) => h2.listen(0, "127.0.0.1", resolve));
  const authority = `127.0.0.1:${(h2.address() as AddressInfo).port}`;
  const client = connectHttp2(`http://${authority}`);
  running.push(async () => {
    client.close();
    await endpoint.close();
    await new Promise((resolve) => h2.close(resolve));
  });
  return { authority, client };
}

/**
 * A server with one tool, `wait`, that runs until its request is cancelled: `started` resolves
 * when the handler begins, `aborted` when it sees its signal abort.
 */
function waitingServer() {
  let begin!: () => void;
  const started = new Promise<void>((resolve) => {
    begin = resolve;
  });
  let stop!: () => void;
  const aborted = new Promise<void>((resolve) => {
    stop = resolve;
  });
  const mcp = new McpServer({ name: "s", version: "1" });
  mcp.registerTool("wait", { description: "Waits until cancelled", inputSchema: { type: "object" } }, (_args, ctx) => {
    begin();
    return new Promise((resolve) => {
      ctx.signal.addEventListener("abort", () => {
        stop();
        resolve({ content: [] });
      });
    });
  });
  return { mcp, started, aborted };
}

const waitCall = statelessToolCall("wait");

/** What express.json() does: the body parsed into `req.body` before the handler runs. */
function jsonBodyParser(req: IncomingMessage, _res: ServerResponse, next: () => void): void {
  let text = "";
  req.setEncoding("utf8");
  req.on("data", (chunk: string) => {
    text += chunk;
  });
  req.on("end", () => {
    (req as IncomingMessage & { body?: unknown }).body = JSON.parse(text);
    next();
  });
}

describe("toNodeHandler", () => {
  it("answers 413 to a streamed body past the limit, and serves the next request on the same connection", async () => {
    const { url } = await start({ maxBodyBytes: 1024 });
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const sessionId = await initialize(url);
      const headers = { ...jsonHeaders, "mcp-session-id": sessionId };
      const big = await raw(url, agent, headers, [
        '{"jsonrpc":"2.0","id":2,"method":"echo","params":{"t":"',
        "x".repeat(4000),
        '"}}',
      ]);
      expect(big.status).toBe(413);
      expect(JSON.parse(big.body)).toMatchObject({ id: null, error: { code: -32600 } });
      expect(JSON.parse(big.body).error.message).toContain("1024 bytes");

      const next = await raw(url, agent, headers, [
        JSON.stringify({ jsonrpc: "2.0", id: 3, method: "echo", params: { t: "y" } }),
      ]);
      expect(next.reusedSocket).toBe(true);
      expect(next.status).toBe(200);
      expect(next.body).toContain('"echo":{"t":"y"}');
    } finally {
      agent.destroy();
    }
  });

  it("answers JSON with a Content-Length, in one piece", async () => {
    const { url } = await start({ enableJsonResponse: true });
    const agent = new Agent({ keepAlive: true });
    try {
      const answer = await raw(url, agent, jsonHeaders, [JSON.stringify(initializeRequest())]);
      expect(answer.status).toBe(200);
      expect(answer.headers["transfer-encoding"]).toBeUndefined();
      expect(Number(answer.headers["content-length"])).toBe(Buffer.byteLength(answer.body));
      expect(JSON.parse(answer.body)).toMatchObject({ id: 1, result: { serverInfo: { name: "echo" } } });
    } finally {
      agent.destroy();
    }
  });

  it("sends an SSE answer that is ready at once as one body with a Content-Length; a stream still open goes chunked", async () => {
    const { url } = await start();
    const sessionId = await initialize(url);
    const agent = new Agent({ keepAlive: true });
    try {
      const headers = { ...jsonHeaders, "mcp-session-id": sessionId };
      const echo = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "echo", params: { t: "x" } });
      const answer = await raw(url, agent, headers, [echo]);
      expect(answer.status).toBe(200);
      expect(answer.headers["content-type"]).toBe("text/event-stream");
      expect(answer.headers["transfer-encoding"]).toBeUndefined();
      expect(Number(answer.headers["content-length"])).toBe(Buffer.byteLength(answer.body));
      expect(answer.body).toMatch(/^event: message\ndata: .*"echo":\{"t":"x"\}.*\n\n$/);
      // The GET stream has nothing to say yet and never ends by itself: its headers come at once, chunked.
      const stream = await new Promise<IncomingMessage>((resolve, reject) => {
        const req = request(url, { headers: { accept: "text/event-stream", "mcp-session-id": sessionId } }, resolve);
        req.on("error", reject).end();
      });
      expect(stream.statusCode).toBe(200);
      expect(stream.headers["transfer-encoding"]).toBe("chunked");
      expect(stream.headers["content-length"]).toBeUndefined();
      stream.destroy();
    } finally {
      agent.destroy();
    }
  });

  it("serves a body that express.json() already parsed, and still refuses one past the limit", async () => {
    const { url } = await start({ maxBodyBytes: 1024 }, jsonBodyParser);
    const sessionId = await initialize(url);
    const echoed = await post(
      url,
      { jsonrpc: "2.0", id: 2, method: "echo", params: { t: "é" } },
      { "mcp-session-id": sessionId },
    );
    expect(echoed.status).toBe(200);
    const events = sseEvents(echoed);
    expect(await nextMessage(events)).toEqual({ jsonrpc: "2.0", id: 2, result: { echo: { t: "é" } } });
    await events.return(undefined);

    const big = await post(
      url,
      { jsonrpc: "2.0", id: 3, method: "echo", params: { t: "x".repeat(4000) } },
      { "mcp-session-id": sessionId },
    );
    expect(big.status).toBe(413);
    await big.text();
  });

  it("serves a body that middleware kept as text or bytes, and reads the request when middleware only left a placeholder", async () => {
    const keep =
      (convert: (bytes: Buffer) => unknown) => (req: IncomingMessage, _res: ServerResponse, next: () => void) => {
        const chunks: Buffer[] = [];
        req.on("data", (chunk: Buffer) => chunks.push(chunk));
        req.on("end", () => {
          (req as IncomingMessage & { body?: unknown }).body = convert(Buffer.concat(chunks));
          next();
        });
      };
    // As express.text() and express.raw() (or serverless-http) leave it: a string, a Buffer.
    const asText = await start(
      {},
      keep((bytes) => bytes.toString("utf8")),
    );
    const asBytes = await start(
      {},
      keep((bytes) => bytes),
    );
    // As Express 4's body parsers leave a request whose type they skip: `{}`, the body still unread.
    const placeholder = await start({}, (req, _res, next) => {
      (req as IncomingMessage & { body?: unknown }).body = {};
      next();
    });
    for (const { url } of [asText, asBytes, placeholder]) {
      const answer = await post(url, initializeRequest());
      expect(answer.status).toBe(200);
      expect(answer.headers.get("mcp-session-id")).not.toBeNull();
      expect(await sseMessages(answer)).toMatchObject([{ id: 1, result: { serverInfo: { name: "echo" } } }]);
    }
    const limited = await start(
      { maxBodyBytes: 1024 },
      keep((bytes) => bytes),
    );
    const refused = await post(limited.url, { ...initializeRequest(), padding: "x".repeat(4000) });
    expect(refused.status).toBe(413);
    await refused.text();
  });

  it("reads a body whose encoding middleware set to text without reading it", async () => {
    const { url } = await start({}, (req, _res, next) => {
      req.setEncoding("utf8");
      next();
    });
    const answer = await post(url, { ...initializeRequest(), padding: "é".repeat(100_000) });
    expect(answer.status).toBe(200);
    expect(await sseMessages(answer)).toMatchObject([{ id: 1, result: { serverInfo: { name: "echo" } } }]);
  });

  it("reads a body that middleware paused while it did its own work", async () => {
    const { url } = await start({}, (req, _res, next) => {
      req.pause();
      setImmediate(next);
    });
    const answer = await post(url, initializeRequest());
    expect(answer.status).toBe(200);
    expect(await sseMessages(answer)).toMatchObject([{ id: 1, result: { serverInfo: { name: "echo" } } }]);
  });

  it("answers a body that middleware read without keeping it with -32700 instead of waiting for ever", async () => {
    const { url } = await start({}, (req, _res, next) => {
      req.resume();
      req.once("end", next);
    });
    const answer = await post(url, initializeRequest());
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ id: null, error: { code: -32700 } });
  });

  it("lets a client that dropped its GET stream open a new one, and the session keeps serving", async () => {
    const { url, sessions, errors } = await start();
    const sessionId = await initialize(url);
    const headers = { accept: "text/event-stream", "mcp-session-id": sessionId };
    const first = await fetch(url, { headers });
    expect(first.status).toBe(200);
    await first.body?.cancel();
    const second = await fetch(url, { headers });
    expect(second.status).toBe(200);
    const announce = await post(
      url,
      { jsonrpc: "2.0", id: 2, method: "announce", params: { count: 1 } },
      { "mcp-session-id": sessionId },
    );
    const events = sseEvents(second);
    expect(await nextMessage(events)).toMatchObject({ method: "notifications/announced", params: { n: 0 } });
    await events.return(undefined);
    await announce.text();
    expect(sessions[0]?.isClosed).toBe(false);
    expect(errors).toEqual([]);
  });

  it("notices a client that drops its GET stream: the session is no longer busy, so idle expiry can end it", async () => {
    let dropped!: () => void;
    const gone = new Promise<void>((resolve) => {
      dropped = resolve;
    });
    // Runs before the adapter's own close listener, added later; the next turn comes after both.
    const { url, sessions } = await start({}, (req, res, next) => {
      if (req.method === "GET") res.once("close", () => setImmediate(dropped));
      next();
    });
    const sessionId = await initialize(url);
    const stream = await fetch(url, { headers: { accept: "text/event-stream", "mcp-session-id": sessionId } });
    expect(stream.status).toBe(200);
    expect(sessions[0]?.busy).toBe(true);
    await stream.body?.cancel();
    await gone;
    expect(sessions[0]?.busy).toBe(false);
    expect(sessions[0]?.isClosed).toBe(false);
  });

  it("keeps the session serving after a client drops a POST's stream before the answer", async () => {
    const { url, errors } = await start();
    const sessionId = await initialize(url);
    const held = await post(
      url,
      { jsonrpc: "2.0", id: 2, method: "progress", params: { key: "a" } },
      { "mcp-session-id": sessionId },
    );
    const events = sseEvents(held);
    expect(await nextMessage(events)).toMatchObject({ method: "notifications/progress" });
    await events.return(undefined);
    // Answering the dropped request now writes to nothing, and breaks nothing.
    const release = await post(
      url,
      { jsonrpc: "2.0", id: 3, method: "release", params: { key: "a" } },
      { "mcp-session-id": sessionId },
    );
    expect(await release.text()).toContain('"id":3');
    const echo = await post(
      url,
      { jsonrpc: "2.0", id: 4, method: "echo", params: {} },
      { "mcp-session-id": sessionId },
    );
    expect(await echo.text()).toContain('"id":4');
    expect(errors).toEqual([]);
  });

  it("stops a stateless 2026 request's handler when its client goes away before the answer", async () => {
    const { mcp, started, aborted } = waitingServer();
    const { url } = await start({ onrequest: (transport) => mcp.connect(transport) });
    const req = request(url, { method: "POST", headers: waitCall.headers });
    req.on("error", () => {});
    req.end(waitCall.body);
    await started;
    req.destroy();
    await aborted;
  });

  it("on HTTP/2 takes :authority as the Host: a same-origin request passes, a foreign name on loopback is refused", async () => {
    const endpoint = new StreamableHttpServer({ onsession: (transport) => connectEcho(transport) });
    const { authority, client } = await startHttp2(endpoint);
    const send = (headers: Record<string, string>) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const stream = client.request({ ":method": "POST", ":path": "/mcp", ...jsonHeaders, ...headers });
        let status = 0;
        let body = "";
        stream.on("response", (answer) => {
          status = Number(answer[":status"]);
        });
        stream.setEncoding("utf8");
        stream.on("data", (chunk: string) => {
          body += chunk;
        });
        stream.on("end", () => resolve({ status, body }));
        stream.on("error", reject);
        stream.end(JSON.stringify(initializeRequest()));
      });

    const sameOrigin = await send({ origin: `http://${authority}` });
    expect(sameOrigin.status).toBe(200);
    expect(sameOrigin.body).toContain('"serverInfo":{"name":"echo"');
    const rebound = await send({ ":authority": "attacker.example" });
    expect(rebound.status).toBe(403);
    expect(JSON.parse(rebound.body)).toMatchObject({ error: { message: expect.stringContaining("attacker.example") } });
  });

  it("drops a GET stream whose client stops reading once too much waits unread, and the session keeps serving", async () => {
    const { url, sessions, errors } = await start();
    const sessionId = await initialize(url);
    const headers = { accept: "text/event-stream", "mcp-session-id": sessionId };
    const stalled = request(url, { headers });
    const closed = new Promise<void>((resolve) => {
      stalled.on("response", (answer) => {
        answer.pause();
        answer.on("close", resolve);
      });
      stalled.on("error", () => resolve());
    });
    stalled.end();
    await new Promise((resolve) => stalled.once("response", resolve));
    // 32 MiB of notifications that the client never reads.
    const data = "x".repeat(64 * 1024);
    for (let i = 0; i < 512; i++) {
      await sessions[0]?.send({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data } });
    }
    // The server has let go of the stalled stream and closed its connection.
    const next = await fetch(url, { headers });
    expect(next.status).toBe(200);
    await next.body?.cancel();
    await closed;
    expect(sessions[0]?.isClosed).toBe(false);
    expect(errors).toEqual([]);
  });

  it("does not report a client that goes away in the middle of its body as a server failure", async () => {
    const errors: Error[] = [];
    const endpoint = new StreamableHttpServer({
      onsession: (transport) => connectEcho(transport),
      onerror: (error) => errors.push(error),
    });
    const handle = toNodeHandler(endpoint);
    let handled!: Promise<void>;
    let arrived!: () => void;
    const bodyStarted = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    const url = await serveHttp(endpoint, (req, res) => {
      req.once("readable", arrived);
      handled = handle(req, res);
    });
    const req = request(url, { method: "POST", headers: { ...jsonHeaders, "content-length": "1000" } });
    req.on("error", () => {});
    req.write('{"jsonrpc":"2.0","id":1,');
    await bodyStarted;
    req.destroy();
    await handled;
    expect(errors).toEqual([]);
  });

  it("does not start a stateless 2026 request whose client went away before the handler was reached", async () => {
    let calls = 0;
    const mcp = new McpServer({ name: "s", version: "1" });
    mcp.registerTool("count", { description: "Counts its calls", inputSchema: { type: "object" } }, () => {
      calls++;
      return { content: [] };
    });
    const endpoint = new StreamableHttpServer({ onsession: () => undefined, onrequest: (t) => mcp.connect(t) });
    const handle = toNodeHandler(endpoint);
    const late = deferredHandle(handle);
    // Slow middleware (say, a token check) that reads the body and gets to the handler after the client left.
    const url = await serveHttp(endpoint, (req, res) => {
      jsonBodyParser(req, res, () => {
        res.once("close", () => {
          late.run(req, res);
        });
      });
    });
    const { headers, body } = statelessToolCall("count");
    const req = request(url, { method: "POST", headers });
    req.on("error", () => {});
    req.end(body, () => setImmediate(() => req.destroy()));
    await late.handled;
    expect(calls).toBe(0);
  });

  it("lets go of a GET stream it could not start because middleware had already sent headers", async () => {
    let meddle = true;
    const { url, sessions } = await start({}, (req, res, next) => {
      if (meddle && req.method === "GET") {
        meddle = false;
        res.writeHead(200);
        res.flushHeaders();
      }
      next();
    });
    const sessionId = await initialize(url);
    const headers = { accept: "text/event-stream", "mcp-session-id": sessionId };
    // The connection is dropped: the client gets no stream.
    const broken = await fetch(url, { headers })
      .then((answer) => answer.text())
      .catch(() => "dropped");
    expect(broken).toBe("dropped");
    // Nothing holds the session open (it can expire when idle), and the client can open its stream.
    expect(sessions[0]?.busy).toBe(false);
    const next = await fetch(url, { headers });
    expect(next.status).toBe(200);
    await next.body?.cancel();
  });

  it("never rejects, even for a Host it cannot parse after middleware already sent headers", async () => {
    const endpoint = new StreamableHttpServer({ onsession: (transport) => connectEcho(transport) });
    const handle = toNodeHandler(endpoint);
    const late = deferredHandle(handle);
    const url = await serveHttp(endpoint, (req, res) => {
      res.writeHead(200);
      res.flushHeaders();
      late.run(req, res);
    });
    const req = request({
      host: "127.0.0.1",
      port: Number(url.port),
      path: "/mcp",
      method: "POST",
      headers: { ...jsonHeaders, host: "bad host" },
    });
    req.on("error", () => {});
    req.end("{}");
    await expect(late.handled).resolves.toBeUndefined();
    req.destroy();
  });

  it("reports a failure of its authInfo option to onerror and answers 500", async () => {
    const errors: Error[] = [];
    const endpoint = new StreamableHttpServer({
      onsession: (transport) => connectEcho(transport),
      onerror: (error) => errors.push(error),
    });
    const handle = toNodeHandler(endpoint, {
      authInfo: () => {
        throw new Error("the token cache is down");
      },
    });
    const url = await serveHttp(endpoint, (req, res) => void handle(req, res));
    const answer = await post(url, initializeRequest());
    expect(answer.status).toBe(500);
    expect(await answer.json()).toMatchObject({ id: null, error: { code: -32603 } });
    expect(errors.map((error) => error.message)).toEqual(["the token cache is down"]);
  });

  it("finishes with a request whose client left before the handler began reading its body", async () => {
    const endpoint = new StreamableHttpServer({ onsession: (transport) => connectEcho(transport) });
    const handle = toNodeHandler(endpoint);
    const late = deferredHandle(handle);
    // Slow middleware that gets to the handler only after the client has gone.
    const url = await serveHttp(endpoint, (req, res) => {
      req.once("close", () => {
        late.run(req, res);
      });
    });
    const req = request(url, { method: "POST", headers: { ...jsonHeaders, "content-length": "1000" } });
    req.on("error", () => {});
    req.write('{"jsonrpc":"2.0",', () => setImmediate(() => req.destroy()));
    await expect(late.handled).resolves.toBeUndefined();
  });

  it("on HTTP/2 stops a stateless 2026 request's handler when its client cancels the stream", async () => {
    const { mcp, started, aborted } = waitingServer();
    const endpoint = new StreamableHttpServer({ onsession: () => undefined, onrequest: (t) => mcp.connect(t) });
    const { client } = await startHttp2(endpoint);
    const stream = client.request({ ":method": "POST", ":path": "/mcp", ...waitCall.headers });
    stream.on("error", () => {});
    stream.end(waitCall.body);
    await started;
    stream.close();
    await aborted;
  });

  it("in stateless mode closes a request's transport when its client goes away, as nothing can resume its stream", async () => {
    let closed!: () => void;
    const ended = new Promise<void>((resolve) => {
      closed = resolve;
    });
    const { url } = await start({
      sessionIdGenerator: undefined,
      onsession: (transport) => {
        connectEcho(transport);
        transport.onclose = closed;
      },
    });
    const req = request(url, { method: "POST", headers: jsonHeaders });
    req.on("error", () => {});
    // `progress` sends a notification on the request's stream, then waits for a `release` that never comes.
    const notified = new Promise<void>((resolve) => {
      req.on("response", (answer) => answer.once("data", () => resolve()));
    });
    req.end(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "progress", params: { key: "k" } }));
    await notified;
    req.destroy();
    await ended;
  });
});
