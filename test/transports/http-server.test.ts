import { afterEach, describe, expect, it } from "vitest";
import { StreamableHttpServer } from "../../src/transports/http/server.js";
import {
  BOTH,
  connectEcho,
  type EchoServer,
  initialize,
  initializeRequest,
  nextMessage,
  post,
  sseEvents,
  sseMessages,
  startEchoServer,
} from "./support.js";

let echo: EchoServer | undefined;
afterEach(async () => {
  await echo?.close();
  echo = undefined;
});

async function start(options: Parameters<typeof startEchoServer>[0] = {}): Promise<EchoServer> {
  echo = await startEchoServer(options);
  return echo;
}

const echoRequest = (id: number | string, params: Record<string, unknown> = {}) => ({
  jsonrpc: "2.0" as const,
  id,
  method: "echo",
  params,
});

describe("Streamable HTTP server: sessions", () => {
  it("assigns a session id on initialize and answers on an SSE stream that then ends", async () => {
    const { url } = await start();
    const response = await post(url, initializeRequest(1));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    expect(response.headers.get("mcp-session-id")).toMatch(/^[\x21-\x7e]+$/);
    expect(await sseMessages(response)).toEqual([
      {
        jsonrpc: "2.0",
        id: 1,
        result: { protocolVersion: "2025-11-25", capabilities: {}, serverInfo: { name: "echo", version: "1" } },
      },
    ]);
  });

  it("serves a request carrying the session id and hands the protocol layer the session and headers", async () => {
    const { url, extras } = await start();
    const sessionId = await initialize(url);
    const response = await post(url, echoRequest(2, { text: "hi" }), { "mcp-session-id": sessionId });
    expect(response.headers.get("mcp-session-id")).toBe(sessionId);
    expect(await sseMessages(response)).toEqual([{ jsonrpc: "2.0", id: 2, result: { echo: { text: "hi" } } }]);
    expect(extras.at(-1)).toMatchObject({ sessionId, headers: { "mcp-session-id": sessionId } });
  });

  it("answers 400 when a request after initialize has no session id", async () => {
    const { url } = await start();
    await initialize(url);
    const response = await post(url, echoRequest(2));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32600 } });
  });

  it("answers 404 for an unknown session id", async () => {
    const { url } = await start();
    const response = await post(url, echoRequest(2), { "mcp-session-id": "no-such-session" });
    expect(response.status).toBe(404);
    expect((await response.json()).error.message).toMatch(/Session not found/);
  });

  it("ends the session on DELETE, closing its transport; the id then gets 404", async () => {
    const { url, server, sessions } = await start();
    const sessionId = await initialize(url);
    const closed = new Promise<void>((resolve) => {
      const transport = sessions[0];
      if (transport) transport.onclose = resolve;
    });
    const deleted = await fetch(url, { method: "DELETE", headers: { "mcp-session-id": sessionId } });
    expect(deleted.status).toBe(204);
    await closed;
    expect(server.sessionCount).toBe(0);
    expect((await post(url, echoRequest(2), { "mcp-session-id": sessionId })).status).toBe(404);
  });

  it("closes every session on server close", async () => {
    const { url, server } = await start();
    await initialize(url);
    await initialize(url);
    expect(server.sessionCount).toBe(2);
    await server.close();
    expect(server.sessionCount).toBe(0);
  });

  it("answers 503 to an initialize whose body arrives after server close, and keeps no session", async () => {
    const opened: unknown[] = [];
    const server = new StreamableHttpServer({
      onsession: (t) => {
        opened.push(t);
        connectEcho(t);
      },
    });
    let finish!: () => void;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        finish = () => {
          controller.enqueue(new TextEncoder().encode(JSON.stringify(initializeRequest(1))));
          controller.close();
        };
      },
    });
    const answer = server.handle(
      new Request("http://127.0.0.1/mcp", {
        method: "POST",
        headers: { accept: BOTH, "content-type": "application/json" },
        body,
        duplex: "half",
      } as RequestInit),
    );
    // The body is being read when the server closes.
    await new Promise((resolve) => setImmediate(resolve));
    await server.close();
    finish();
    const response = await answer;
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ id: null, error: { code: -32000 } });
    expect(opened).toEqual([]);
    expect(server.sessionCount).toBe(0);
  });
});

describe("Streamable HTTP server: refusals", () => {
  it("answers 406 with a JSON-RPC error when Accept allows neither JSON nor an event stream", async () => {
    const { url } = await start();
    const response = await post(url, initializeRequest(), { accept: "text/html" });
    expect(response.status).toBe(406);
    const body = await response.json();
    expect(body).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32600 } });
    expect(body.error.message).toMatch(/application\/json or text\/event-stream/);
  });

  it("through handle(), answers a body cut off by its client with 400, not as a server failure", async () => {
    const errors: Error[] = [];
    const server = new StreamableHttpServer({ onsession: (t) => connectEcho(t), onerror: (e) => errors.push(e) });
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"jsonrpc":"2.0",'));
        controller.error(new Error("The client went away"));
      },
    });
    const response = await server.handle(
      new Request("http://127.0.0.1/mcp", {
        method: "POST",
        headers: { accept: BOTH, "content-type": "application/json" },
        body,
        duplex: "half",
      } as RequestInit),
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ id: null, error: { code: -32600 } });
    expect(errors).toEqual([]);
    await server.close();
  });

  it("through handle(), answers a request whose body was already read with -32700, as toNodeHandler does", async () => {
    const errors: Error[] = [];
    const server = new StreamableHttpServer({ onsession: (t) => connectEcho(t), onerror: (e) => errors.push(e) });
    const request = new Request("http://127.0.0.1/mcp", {
      method: "POST",
      headers: { accept: BOTH, "content-type": "application/json" },
      body: JSON.stringify(initializeRequest()),
    });
    // As middleware of a web framework may have done before handing the request on.
    await request.json();
    const response = await server.handle(request);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ id: null, error: { code: -32700 } });
    expect(errors).toEqual([]);
    await server.close();
  });

  it("answers 415 for a body that is not application/json", async () => {
    const { url } = await start();
    const response = await post(url, initializeRequest(), { "content-type": "text/plain" });
    expect(response.status).toBe(415);
  });

  it("answers 403 to a foreign Origin and to a foreign Host on a loopback server", async () => {
    const { url } = await start();
    const foreignOrigin = await post(url, initializeRequest(), { origin: "http://evil.example" });
    expect(foreignOrigin.status).toBe(403);
    expect((await foreignOrigin.json()).error.message).toMatch(/Origin "http:\/\/evil.example" is not allowed/);

    const { request } = await import("node:http");
    const rebound = await new Promise<number>((resolve, reject) => {
      const req = request(url, { method: "POST", headers: { host: "evil.example", accept: BOTH } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on("error", reject);
      req.end(JSON.stringify(initializeRequest()));
    });
    expect(rebound).toBe(403);

    const sameOrigin = await post(url, initializeRequest(), { origin: url.origin });
    expect(sameOrigin.status).toBe(200);
    await sameOrigin.text();
  });

  it("answers 400 to an unparsable Host and keeps running", async () => {
    const { url } = await start();
    const { connect } = await import("node:net");
    const statusLine = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(url.port), "127.0.0.1", () => {
        socket.write("GET /mcp HTTP/1.1\r\nHost: a b\r\nConnection: close\r\n\r\n");
      });
      let received = "";
      socket.on("data", (chunk) => {
        received += String(chunk);
      });
      socket.on("error", reject);
      socket.on("close", () => resolve(received.split("\r\n")[0] ?? ""));
    });
    expect(statusLine).toBe("HTTP/1.1 400 Bad Request");
    const next = await post(url, initializeRequest());
    expect(next.status).toBe(200);
    await next.text();
  });

  it("lets through an Origin listed in allowedOrigins", async () => {
    const { url } = await start({ allowedOrigins: ["http://localhost:6274"] });
    const response = await post(url, initializeRequest(), { origin: "http://localhost:6274" });
    expect(response.status).toBe(200);
    await response.text();
  });

  it("answers 413 naming the limit for an oversized body, and keeps serving", async () => {
    const { url } = await start({ maxBodyBytes: 1024 });
    const sessionId = await initialize(url);
    const big = await post(url, echoRequest(2, { text: "x".repeat(5000) }), { "mcp-session-id": sessionId });
    expect(big.status).toBe(413);
    const body = await big.json();
    expect(body).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32600 } });
    expect(body.error.message).toContain("1024 bytes");

    const next = await post(url, echoRequest(3, { text: "small" }), { "mcp-session-id": sessionId });
    expect(await sseMessages(next)).toEqual([{ jsonrpc: "2.0", id: 3, result: { echo: { text: "small" } } }]);
  });

  it("answers 413 to a streamed (chunked) body that passes the limit", async () => {
    const { url } = await start({ maxBodyBytes: 1024 });
    const chunk = new TextEncoder().encode(" ".repeat(512));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 8) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const response = await fetch(url, {
      method: "POST",
      headers: { accept: BOTH, "content-type": "application/json" },
      body,
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(413);
    await response.text();
  });

  it("answers malformed JSON with 400 and -32700, a wrong shape with 400 and -32600", async () => {
    const { url } = await start();
    const malformed = await post(url, '{"jsonrpc": "2.0", "id": 1, "method": ');
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ id: null, error: { code: -32700 } });

    const wrongShape = await post(url, { jsonrpc: "1.0", id: 5, method: "echo" });
    expect(wrongShape.status).toBe(400);
    expect(await wrongShape.json()).toMatchObject({ id: 5, error: { code: -32600 } });
  });

  it("answers 400 to an unsupported MCP-Protocol-Version and to one that differs from the negotiated", async () => {
    const { url } = await start();
    const unsupported = await post(url, initializeRequest(), { "mcp-protocol-version": "1999-01-01" });
    expect(unsupported.status).toBe(400);
    expect((await unsupported.json()).error.message).toMatch(/unsupported MCP-Protocol-Version "1999-01-01"/);

    const sessionId = await initialize(url, "2025-06-18");
    const headers = { "mcp-session-id": sessionId };
    const mismatch = await post(url, echoRequest(2), { ...headers, "mcp-protocol-version": "2025-11-25" });
    expect(mismatch.status).toBe(400);
    expect((await mismatch.json()).error.message).toMatch(/differs from the negotiated "2025-06-18"/);

    const matching = await post(url, echoRequest(3), { ...headers, "mcp-protocol-version": "2025-06-18" });
    expect(matching.status).toBe(200);
    await matching.text();
  });

  it("answers 405 with Allow for other methods", async () => {
    const { url } = await start();
    const response = await fetch(url, { method: "PUT" });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, POST, DELETE");
  });
});

describe("Streamable HTTP server: messages", () => {
  it("answers 202 with no body to a notification", async () => {
    const { url } = await start();
    const sessionId = await initialize(url);
    const response = await post(
      url,
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { "mcp-session-id": sessionId },
    );
    expect(response.status).toBe(202);
    expect(await response.text()).toBe("");
  });

  it("puts a related server-to-client request on the request's stream before the response", async () => {
    const { url } = await start();
    const sessionId = await initialize(url);
    const headers = { "mcp-session-id": sessionId };
    const response = await post(url, { jsonrpc: "2.0", id: 7, method: "ask", params: { question: "why?" } }, headers);
    const events = sseEvents(response);
    const serverRequest = await nextMessage(events);
    expect(serverRequest).toEqual({
      jsonrpc: "2.0",
      id: "srv-1",
      method: "sampling/createMessage",
      params: { question: "why?" },
    });
    const answered = await post(url, { jsonrpc: "2.0", id: "srv-1", result: { text: "because" } }, headers);
    expect(answered.status).toBe(202);
    expect(await nextMessage(events)).toEqual({ jsonrpc: "2.0", id: 7, result: { answer: { text: "because" } } });
    expect((await events.next()).done).toBe(true);
  });

  it("answers with one JSON body in JSON response mode", async () => {
    const { url } = await start({ enableJsonResponse: true });
    const init = await post(url, initializeRequest(1));
    expect(init.headers.get("content-type")).toBe("application/json");
    const sessionId = init.headers.get("mcp-session-id") ?? "";
    expect((await init.json()).result.serverInfo).toEqual({ name: "echo", version: "1" });

    const response = await post(url, echoRequest(2, { a: 1 }), { "mcp-session-id": sessionId });
    expect(await response.json()).toEqual({ jsonrpc: "2.0", id: 2, result: { echo: { a: 1 } } });
  });

  it("hands a batch to the protocol layer as one array and answers it on one stream", async () => {
    const { url, extras } = await start();
    const sessionId = await initialize(url, "2025-03-26");
    const batch = [echoRequest(2, { n: 2 }), { jsonrpc: "2.0", method: "notifications/x" }, echoRequest(3, { n: 3 })];
    const response = await post(url, batch, { "mcp-session-id": sessionId });
    expect(await sseMessages(response)).toEqual([
      { jsonrpc: "2.0", id: 2, result: { echo: { n: 2 } } },
      { jsonrpc: "2.0", id: 3, result: { echo: { n: 3 } } },
    ]);
    expect(extras.length).toBe(2);
  });

  it("answers a batch with a JSON array in JSON response mode", async () => {
    const { url } = await start({ enableJsonResponse: true });
    const init = await post(url, initializeRequest(1, "2025-03-26"));
    await init.text();
    const headers = { "mcp-session-id": init.headers.get("mcp-session-id") ?? "" };
    const response = await post(url, [echoRequest("a"), echoRequest("b")], headers);
    expect(await response.json()).toEqual([
      { jsonrpc: "2.0", id: "a", result: { echo: {} } },
      { jsonrpc: "2.0", id: "b", result: { echo: {} } },
    ]);
  });

  it("passes a batch refusal from the protocol layer back as one error object", async () => {
    const { url, sessions } = await start({ enableJsonResponse: true });
    const init = await post(url, initializeRequest(1));
    await init.text();
    const transport = sessions[0];
    if (!transport) throw new Error("no session");
    transport.onmessage = (message) => {
      if (Array.isArray(message)) {
        void transport.send({ jsonrpc: "2.0", id: null, error: { code: -32600, message: "no batches" } });
      }
    };
    const headers = { "mcp-session-id": transport.sessionId ?? "" };
    const response = await post(url, [echoRequest(2), echoRequest(3)], headers);
    expect(await response.json()).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32600, message: "no batches" } });
  });

  it("refuses initialize inside a batch and a request id already in use", async () => {
    const { url } = await start();
    const inBatch = await post(url, [initializeRequest(1), echoRequest(2)]);
    expect(inBatch.status).toBe(400);
    await inBatch.text();

    const sessionId = await initialize(url);
    const headers = { "mcp-session-id": sessionId };
    const held = await post(url, { jsonrpc: "2.0", id: 9, method: "progress", params: { key: "k" } }, headers);
    const duplicate = await post(url, echoRequest(9), headers);
    expect(duplicate.status).toBe(400);
    expect((await duplicate.json()).error.message).toMatch(/already in use/);
    await (await post(url, { jsonrpc: "2.0", id: 10, method: "release", params: { key: "k" } }, headers)).text();
    expect((await sseMessages(held)).at(-1)).toEqual({ jsonrpc: "2.0", id: 9, result: { released: true } });
  });
});
