/**
 * Streamable HTTP client: which HTTP machinery carries the requests. On Node.js the default is
 * `node:http` with keep-alive connections, not `fetch`; `http: "fetch"` or a `fetch` option
 * takes the portable path. On the Node path a kept-alive connection is reused, and a request
 * that meets a connection the server closed meanwhile goes out again on a new one.
 */
import { createServer as createTcpServer, type Socket } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { StreamableHttpClientTransport } from "../../src/transports/http/client.js";
import { answerJson, type RawPeer, startRawPeer } from "./http-client-peer.js";
import { Inbox } from "./transport.contract.js";

let peer: RawPeer | undefined;
const clients: StreamableHttpClientTransport[] = [];
afterEach(async () => {
  vi.unstubAllGlobals();
  for (const client of clients.splice(0)) await client.close();
  await peer?.close();
  peer = undefined;
});

/** Answers every request with its method as the result; notifications with 202. */
async function methodEcho(): Promise<RawPeer> {
  peer = await startRawPeer((seen, res) => {
    const { id, method } = seen.body ?? {};
    if (seen.method !== "POST") res.writeHead(405).end();
    else if (id === undefined) res.writeHead(202).end();
    else answerJson(res, { jsonrpc: "2.0", id, result: { method } });
  });
  return peer;
}

async function open(url: URL, options: ConstructorParameters<typeof StreamableHttpClientTransport>[1] = {}) {
  const client = new StreamableHttpClientTransport(url, options);
  clients.push(client);
  const inbox = new Inbox(client);
  await client.start();
  return { client, inbox };
}

async function call(client: StreamableHttpClientTransport, inbox: Inbox, id: number): Promise<unknown> {
  await client.send({ jsonrpc: "2.0", id, method: `m${id}` });
  await inbox.until((i) => i.messages.some((m) => "id" in m && m.id === id));
  return inbox.messages.find((m) => "id" in m && m.id === id);
}

/** A global `fetch` that fails the test's request and counts its calls. */
function stubFetch(): { calls: number } {
  const seen = { calls: 0 };
  vi.stubGlobal("fetch", async () => {
    seen.calls++;
    throw new TypeError("the global fetch was used");
  });
  return seen;
}

describe("Streamable HTTP client: the HTTP path", () => {
  it("on Node.js, sends through node:http by default, never through the global fetch", async () => {
    const { url } = await methodEcho();
    const global = stubFetch();
    const { client, inbox } = await open(url);
    expect(client.http).toBe("node");
    expect(await call(client, inbox, 1)).toEqual({ jsonrpc: "2.0", id: 1, result: { method: "m1" } });
    expect(global.calls).toBe(0);
  });

  it('takes the global fetch with http: "fetch" (positive control: the stub is what fails the request)', async () => {
    const { url } = await methodEcho();
    const global = stubFetch();
    const { client } = await open(url, { http: "fetch" });
    expect(client.http).toBe("fetch");
    await expect(client.send({ jsonrpc: "2.0", id: 1, method: "m1" })).rejects.toThrow(/the global fetch was used/);
    expect(global.calls).toBe(1);
  });

  it("takes the fetch path when given a fetch, and that fetch carries every request", async () => {
    const { url } = await methodEcho();
    const methods: string[] = [];
    const own: typeof fetch = (input, init) => {
      methods.push(init?.method ?? "GET");
      return fetch(input, init);
    };
    const { client, inbox } = await open(url, { fetch: own });
    expect(client.http).toBe("fetch");
    expect(await call(client, inbox, 1)).toMatchObject({ result: { method: "m1" } });
    expect(methods).toEqual(["POST"]);
  });

  it('refuses http: "node" together with a fetch option, at construction', () => {
    expect(() => new StreamableHttpClientTransport(new URL("http://127.0.0.1:9/mcp"), { http: "node", fetch })).toThrow(
      TypeError,
    );
  });

  it("sends the headers of the options, lower-cased, with the session's own on top", async () => {
    const { url, seen } = await methodEcho();
    const { client, inbox } = await open(url, { headers: [["X-Trace", "t-1"]] });
    await client.send({ jsonrpc: "2.0", id: 1, method: "m1" }, { headers: { "Mcp-Method": "m1" } });
    await inbox.until((i) => i.messages.length === 1);
    expect(seen[0]?.headers).toMatchObject({
      "x-trace": "t-1",
      "mcp-method": "m1",
      accept: "application/json, text/event-stream",
      "content-type": "application/json",
    });
  });

  for (const http of ["node", "fetch"] as const) {
    it(`announces a POST body by its Content-Length in UTF-8 bytes, not chunked (${http})`, async () => {
      const { url, seen } = await methodEcho();
      const { client, inbox } = await open(url, { http });
      const message = { jsonrpc: "2.0" as const, id: 1, method: "m1", params: { text: "é€😀" } };
      await client.send(message);
      await inbox.until((i) => i.messages.length === 1);
      expect(seen[0]?.headers["content-length"]).toBe(String(Buffer.byteLength(JSON.stringify(message))));
      expect(seen[0]?.headers["transfer-encoding"]).toBeUndefined();
      expect(seen[0]?.body).toEqual(message);
    });
  }
});

describe("Streamable HTTP client: kept-alive connections (node)", () => {
  it("sends one request after another over one connection", async () => {
    const { url, server } = await countingPeer();
    const { client, inbox } = await open(url, { http: "node" });
    for (let id = 1; id <= 20; id++) await call(client, inbox, id);
    expect(server.connections).toBe(1);
  });

  it("sends a request again on a new connection when the server closed the kept-alive one as it went out", async () => {
    // The first connection answers once with keep-alive, then is closed by the server at the
    // next request's first bytes, unanswered, as a server whose idle timeout just ran out does.
    const sockets: Socket[] = [];
    const tcp = createTcpServer((socket) => {
      const index = sockets.push(socket) - 1;
      let requests = 0;
      socket.on("data", (data) => {
        for (const [, id] of data.toString("latin1").matchAll(/"id":(\d+)/g)) {
          requests++;
          if (index === 0 && requests === 2) {
            socket.destroy();
            return;
          }
          const body = JSON.stringify({ jsonrpc: "2.0", id: Number(id), result: { connection: index } });
          socket.write(
            `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\nconnection: keep-alive\r\n\r\n${body}`,
          );
        }
      });
    });
    await new Promise<void>((resolve) => tcp.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = tcp.address() as { port: number };
      const { client, inbox } = await open(new URL(`http://127.0.0.1:${port}/mcp`), { http: "node" });
      expect(await call(client, inbox, 1)).toMatchObject({ result: { connection: 0 } });
      expect(await call(client, inbox, 2)).toMatchObject({ result: { connection: 1 } });
      expect(sockets).toHaveLength(2);
      expect(inbox.errors).toEqual([]);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => tcp.close(resolve));
    }
  });
});

/** `methodEcho`, counting the TCP connections it accepted. */
async function countingPeer(): Promise<RawPeer & { server: { connections: number } }> {
  const echo = await methodEcho();
  const server = { connections: 0 };
  echo.onConnection(() => {
    server.connections++;
  });
  return { ...echo, server };
}
