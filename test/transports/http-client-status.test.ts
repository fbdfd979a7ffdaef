/**
 * Streamable HTTP client against statuses servers in the field answer: 413 for a body over
 * their limit, and 400, 404 or 406 instead of 405 for the optional GET stream.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { JsonRpcMessage } from "../../src/jsonrpc/messages.js";
import { StreamableHttpClientTransport } from "../../src/transports/http/client.js";
import type { HttpPath } from "../../src/transports/http/client-http.js";
import { StreamableHttpError } from "../../src/transports/http/errors.js";
import { type Answer, answerJson, HTTP_PATHS, type RawPeer, settle, startRawPeer } from "./http-client-peer.js";
import { Inbox } from "./transport.contract.js";

let peer: RawPeer | undefined;
const clients: StreamableHttpClientTransport[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  await peer?.close();
  peer = undefined;
});

async function open(http: HttpPath, answer: Answer) {
  peer = await startRawPeer(answer);
  const client = new StreamableHttpClientTransport(peer.url, {
    http,
    reconnect: { maxRetries: 0, initialDelayMs: 1, maxDelayMs: 1 },
  });
  clients.push(client);
  const inbox = new Inbox(client);
  await client.start();
  return { client, inbox, peer };
}

const request = (id: number, method: string, params: Record<string, unknown> = {}): JsonRpcMessage => ({
  jsonrpc: "2.0",
  id,
  method,
  params,
});

/** Answers every request with its method, in a session "s-1"; DELETE with 405. */
function inSession(getStatus: number): Answer {
  return (seen, res) => {
    if (seen.method === "GET") {
      res.writeHead(getStatus, { "content-type": "text/plain" }).end("no stream here");
      return;
    }
    if (seen.method === "DELETE") {
      res.writeHead(405).end();
      return;
    }
    const { id, method } = seen.body ?? {};
    if (id === undefined) res.writeHead(202).end();
    else answerJson(res, { jsonrpc: "2.0", id, result: { method } }, { "mcp-session-id": "s-1" });
  };
}

describe.each(HTTP_PATHS)("Streamable HTTP client (%s): the optional GET stream", (http) => {
  for (const status of [400, 404, 405, 406]) {
    it(`takes ${status} to its GET as "no stream offered" and carries on with the session`, async () => {
      const { client, inbox, peer } = await open(http, inSession(status));
      await client.send(request(1, "initialize"));
      await client.send({ jsonrpc: "2.0", method: "notifications/initialized" });
      await peer.answered(3);
      expect(peer.seen.map((r) => r.method)).toEqual(["POST", "POST", "GET"]);
      await settle();
      expect(inbox.errors).toEqual([]);
      expect(client.sessionId).toBe("s-1");

      await client.send(request(2, "tools/list"));
      await inbox.until((i) => i.messages.length === 2);
      expect(inbox.messages[1]).toEqual({ jsonrpc: "2.0", id: 2, result: { method: "tools/list" } });
      expect(peer.seen.at(-1)?.headers["mcp-session-id"]).toBe("s-1");
    });
  }

  it("a POST's 404 on the session still ends it (positive control)", async () => {
    const { client } = await open(http, (seen, res) => {
      if (seen.body?.method === "initialize")
        answerJson(res, { jsonrpc: "2.0", id: 1, result: {} }, { "mcp-session-id": "s-1" });
      else res.writeHead(404).end();
    });
    await client.send(request(1, "initialize"));
    const error = await client.send(request(2, "tools/list")).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 404, sessionExpired: true });
    expect(client.sessionId).toBeUndefined();
  });
});

describe.each(HTTP_PATHS)("Streamable HTTP client (%s): a request over the server's limit (413)", (http) => {
  it("names the server's limit when its JSON-RPC error gives it, and the size of the request", async () => {
    const { client, inbox } = await open(http, (seen, res) => {
      if (seen.body?.method === "tools/call") {
        const body = {
          jsonrpc: "2.0",
          id: null,
          error: { code: -32600, message: "Body too large", data: { maxBytes: 1024 } },
        };
        res.writeHead(413, { "content-type": "application/json" }).end(JSON.stringify(body));
      } else answerJson(res, { jsonrpc: "2.0", id: seen.body?.id, result: {} });
    });
    const big = request(1, "tools/call", { name: "echo", arguments: { text: "x".repeat(4000) } });
    const size = Buffer.byteLength(JSON.stringify(big));
    const error = await client.send(big).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StreamableHttpError);
    expect(error).toMatchObject({ status: 413, sessionExpired: false });
    expect((error as Error).message).toBe(
      `Request too large (HTTP 413): the server accepts at most 1024 bytes and this request has ${size}: Body too large`,
    );
    await client.send(request(2, "ping"));
    await inbox.until((i) => i.messages.length === 1);
    expect(inbox.messages[0]).toEqual({ jsonrpc: "2.0", id: 2, result: {} });
  });

  it('says "request too large (HTTP 413)" when the server gives no limit', async () => {
    const { client } = await open(http, (_seen, res) => res.writeHead(413).end());
    const error = await client.send(request(1, "tools/call", { name: "echo" })).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 413 });
    expect((error as Error).message).toMatch(/^Request too large \(HTTP 413\): the server refused \d+ bytes/);
  });
});

describe.each(HTTP_PATHS)("Streamable HTTP client (%s): a server that never answers", (http) => {
  it("close() fails a POST still waiting for its answer, and send does not wait on", async () => {
    const { client, peer } = await open(http, () => {});
    const sent = client.send(request(1, "tools/list")).catch((error: unknown) => error);
    while (peer.seen.length === 0) await settle();
    await client.close();
    expect(await sent).toBeInstanceOf(StreamableHttpError);
  });
});

describe.each(HTTP_PATHS)("Streamable HTTP client (%s): redirects", (http) => {
  /** Answers requests to `/mcp/` with their method, in session "s-1"; `/mcp` redirects there with `status`. */
  const movedTo =
    (status: number, location: string): Answer =>
    (seen, res) => {
      if (seen.url === "/mcp") {
        res.writeHead(status, { location }).end();
        return;
      }
      const { id, method } = seen.body ?? {};
      if (id === undefined) res.writeHead(202).end();
      else answerJson(res, { jsonrpc: "2.0", id, result: { method } }, { "mcp-session-id": "s-1" });
    };

  for (const status of [307, 308]) {
    it(`follows a ${status} from /mcp to /mcp/ with the same POST, as servers mounted at /mcp/ answer`, async () => {
      const { client, inbox, peer } = await open(http, movedTo(status, "/mcp/"));
      await client.send(request(1, "initialize"));
      await inbox.until((i) => i.messages.length === 1);
      expect(inbox.messages[0]).toEqual({ jsonrpc: "2.0", id: 1, result: { method: "initialize" } });
      expect(peer.seen.map((r) => `${r.method} ${r.url}`)).toEqual(["POST /mcp", "POST /mcp/"]);
      expect(peer.seen[1]?.body).toEqual(peer.seen[0]?.body);
      expect(client.sessionId).toBe("s-1");
    });
  }

  it("gives up on a server that keeps redirecting, naming why", async () => {
    const { client } = await open(http, (_seen, res) => res.writeHead(307, { location: "/mcp" }).end());
    await expect(client.send(request(1, "initialize"))).rejects.toThrow(/redirect count exceeded/);
  });

  /** A client of `peer` in session "s-1" (so it sends `Mcp-Session-Id`), with an `Authorization`. */
  async function credentialed(peer: RawPeer) {
    const client = new StreamableHttpClientTransport(peer.url, {
      http,
      headers: { authorization: "Bearer secret-token" },
      sessionId: "s-1",
      reconnect: { maxRetries: 0, initialDelayMs: 1, maxDelayMs: 1 },
    });
    clients.push(client);
    const inbox = new Inbox(client);
    return { client, inbox };
  }

  it("refuses a redirect to another origin, naming it, and sends that origin nothing: no Authorization, no session id", async () => {
    const other = await startRawPeer((seen, res) => answerJson(res, { jsonrpc: "2.0", id: seen.body?.id, result: {} }));
    try {
      peer = await startRawPeer(movedTo(307, new URL("/mcp/", other.url).href));
      const { client, inbox } = await credentialed(peer);
      const error = await client.send(request(1, "tools/list")).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StreamableHttpError);
      expect((error as Error).message).toContain(
        `refused a redirect (HTTP 307) to another origin, ${other.url.origin}`,
      );
      expect((error as Error).message).not.toContain("secret-token");
      expect(inbox.messages).toEqual([]);
      expect(other.seen).toEqual([]);
      expect(peer.seen.map((r) => `${r.method} ${r.url}`)).toEqual(["POST /mcp"]);
    } finally {
      await other.close();
    }
  });

  it("refuses a GET stream's redirect to another origin, reporting it, without retrying or sending it there", async () => {
    const other = await startRawPeer((_seen, res) => res.writeHead(200, { "content-type": "text/event-stream" }).end());
    try {
      peer = await startRawPeer(movedTo(302, new URL("/mcp/", other.url).href));
      const { client, inbox } = await credentialed(peer);
      await client.start();
      await inbox.until((i) => i.errors.length > 0);
      await settle();
      expect(inbox.errors).toHaveLength(1);
      expect(inbox.errors[0]?.message).toContain(`to another origin, ${other.url.origin}`);
      expect(other.seen).toEqual([]);
      expect(peer.seen.map((r) => `${r.method} ${r.url}`)).toEqual(["GET /mcp"]);
    } finally {
      await other.close();
    }
  });

  it("follows a redirect within the origin with the Authorization and the session id (positive control)", async () => {
    peer = await startRawPeer(movedTo(307, "/mcp/"));
    const { client, inbox } = await credentialed(peer);
    await client.send(request(1, "tools/list"));
    await inbox.until((i) => i.messages.length === 1);
    expect(inbox.messages[0]).toEqual({ jsonrpc: "2.0", id: 1, result: { method: "tools/list" } });
    expect(peer.seen.map((r) => `${r.method} ${r.url}`)).toEqual(["POST /mcp", "POST /mcp/"]);
    expect(peer.seen[1]?.headers.authorization).toBe("Bearer secret-token");
    expect(peer.seen[1]?.headers["mcp-session-id"]).toBe("s-1");
  });

  it("follows an absolute redirect to its own origin as well (positive control)", async () => {
    peer = await startRawPeer((seen, res) => {
      if (seen.url === "/mcp") {
        res.writeHead(308, { location: `http://${seen.headers.host}/mcp/` }).end();
        return;
      }
      answerJson(res, { jsonrpc: "2.0", id: seen.body?.id, result: { via: seen.url } });
    });
    const { client, inbox } = await credentialed(peer);
    await client.send(request(1, "tools/list"));
    await inbox.until((i) => i.messages.length === 1);
    expect(inbox.messages[0]).toEqual({ jsonrpc: "2.0", id: 1, result: { via: "/mcp/" } });
    expect(peer.seen[1]?.headers.authorization).toBe("Bearer secret-token");
  });
});

describe.each(HTTP_PATHS)("Streamable HTTP client (%s): a GET stream the server cannot resume (410)", (http) => {
  /** A session "s-1" whose GET stream sends `notifications/first` with id e-1 and ends; a resume gets `resumeStatus`. */
  function resumable(resumeStatus: number): Answer {
    let gets = 0;
    return (seen, res) => {
      if (seen.method === "DELETE") {
        res.writeHead(405).end();
        return;
      }
      if (seen.method === "GET") {
        gets++;
        if (seen.headers["last-event-id"] !== undefined) {
          const body = { jsonrpc: "2.0", id: null, error: { code: -32000, message: "Gone: events were dropped" } };
          res.writeHead(resumeStatus, { "content-type": "application/json" }).end(JSON.stringify(body));
          return;
        }
        const method = gets === 1 ? "notifications/first" : "notifications/again";
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.end(`id: e-${gets}\ndata: ${JSON.stringify({ jsonrpc: "2.0", method })}\n\n`);
        return;
      }
      const { id, method } = seen.body ?? {};
      if (id === undefined) res.writeHead(202).end();
      else answerJson(res, { jsonrpc: "2.0", id, result: { method } }, { "mcp-session-id": "s-1" });
    };
  }

  async function openResumable(resumeStatus: number) {
    peer = await startRawPeer(resumable(resumeStatus));
    const client = new StreamableHttpClientTransport(peer.url, {
      http,
      reconnect: { maxRetries: 1, initialDelayMs: 1, maxDelayMs: 1 },
    });
    clients.push(client);
    const inbox = new Inbox(client);
    await client.start();
    await client.send(request(1, "initialize"));
    await client.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    return { client, inbox, peer };
  }

  const gets = (seen: RawPeer["seen"]) =>
    seen.filter((r) => r.method === "GET").map((r) => r.headers["last-event-id"] ?? null);
  const methods = (inbox: Inbox) =>
    inbox.messages.map((m) => (!Array.isArray(m) && "method" in m ? m.method : undefined));

  it("opens a fresh GET stream, without Last-Event-ID, and reports that events were lost", async () => {
    const { inbox, peer } = await openResumable(410);
    await inbox.until((i) => methods(i).includes("notifications/again"));
    expect(gets(peer.seen).slice(0, 3)).toEqual([null, "e-1", null]);
    expect(methods(inbox)).toEqual([undefined, "notifications/first", "notifications/again"]);
    expect(inbox.errors).toHaveLength(1);
    expect(inbox.errors[0]).toMatchObject({ status: 410 });
    expect(inbox.errors[0]?.message).toContain("could not be resumed");
  });

  it("stops the GET stream on another refusal to resume, reporting it (positive control)", async () => {
    const { inbox, peer } = await openResumable(403);
    await inbox.until((i) => i.errors.length > 0);
    await settle();
    expect(gets(peer.seen)).toEqual([null, "e-1"]);
    expect(inbox.errors[0]).toMatchObject({ status: 403 });
  });
});

describe.each(HTTP_PATHS)(
  "Streamable HTTP client (%s): a GET refused 409 (the server still holds a lost stream)",
  (http) => {
    /** Session "s-1": the first GET sends e-1 and drops; resumptions get 409 `conflicts` times, then the stream again. */
    function holding(conflicts: number): Answer {
      let refused = 0;
      return (seen, res) => {
        if (seen.method === "DELETE") {
          res.writeHead(405).end();
          return;
        }
        if (seen.method === "GET") {
          const resumed = seen.headers["last-event-id"] !== undefined;
          if (resumed && refused < conflicts) {
            refused++;
            const body = {
              jsonrpc: "2.0",
              id: null,
              error: { code: -32000, message: "An SSE stream is already open" },
            };
            res.writeHead(409, { "content-type": "application/json" }).end(JSON.stringify(body));
            return;
          }
          const method = resumed ? "notifications/again" : "notifications/first";
          res.writeHead(200, { "content-type": "text/event-stream" });
          // The first connection is lost at once; the one after the conflicts stays open.
          res.write(`id: e-${resumed ? 2 : 1}\ndata: ${JSON.stringify({ jsonrpc: "2.0", method })}\n\n`);
          if (!resumed) res.end();
          return;
        }
        const { id, method } = seen.body ?? {};
        if (id === undefined) res.writeHead(202).end();
        else answerJson(res, { jsonrpc: "2.0", id, result: { method } }, { "mcp-session-id": "s-1" });
      };
    }

    async function openHolding(conflicts: number) {
      peer = await startRawPeer(holding(conflicts));
      const client = new StreamableHttpClientTransport(peer.url, {
        http,
        reconnect: { maxRetries: 3, initialDelayMs: 1, maxDelayMs: 4 },
      });
      clients.push(client);
      const inbox = new Inbox(client);
      await client.start();
      await client.send(request(1, "initialize"));
      await client.send({ jsonrpc: "2.0", method: "notifications/initialized" });
      return { inbox, peer };
    }

    const gets = (seen: RawPeer["seen"]) =>
      seen.filter((r) => r.method === "GET").map((r) => r.headers["last-event-id"] ?? null);
    const methods = (inbox: Inbox) =>
      inbox.messages.map((m) => (!Array.isArray(m) && "method" in m ? m.method : undefined));

    it("tries the GET again after a back-off, and gets its notifications back once the server lets go", async () => {
      const { inbox, peer } = await openHolding(2);
      await inbox.until((i) => methods(i).includes("notifications/again"));
      expect(gets(peer.seen)).toEqual([null, "e-1", "e-1", "e-1"]);
      expect(methods(inbox)).toEqual([undefined, "notifications/first", "notifications/again"]);
      expect(inbox.errors).toEqual([]);
    });

    it("gives up after maxRetries answers of 409, reporting it (positive control: the retries are bounded)", async () => {
      const { inbox, peer } = await openHolding(Number.POSITIVE_INFINITY);
      await inbox.until((i) => i.errors.length > 0);
      await settle();
      expect(gets(peer.seen)).toEqual([null, "e-1", "e-1", "e-1"]);
      expect(inbox.errors).toHaveLength(1);
      expect(inbox.errors[0]?.message).toMatch(/Gave up reconnecting the SSE stream after 3 attempts/);
    });
  },
);
