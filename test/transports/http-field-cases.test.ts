/**
 * Requests that other implementations were found to answer wrongly, each on both paths
 * (`toNodeHandler` and `handle()`): a refused batch, a body past the limit, unusual `Accept`
 * headers, and a sessionless notification of revision 2026-07-28.
 */
import { request as httpRequest } from "node:http";
import { connect } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { McpServer } from "../../src/server/index.js";
import type { StreamableHttpServerOptions } from "../../src/transports/http/server.js";
import { bothSides, type Side } from "./http-sides.js";
import { BOTH, initializeRequest } from "./support.js";

let opened: Side[] = [];
afterEach(async () => {
  await Promise.all(opened.map((side) => side.close()));
  opened = [];
});

async function sides(options: () => Partial<StreamableHttpServerOptions> = () => ({})): Promise<Side[]> {
  opened = await bothSides(options);
  return opened;
}

const MiB = 1024 * 1024;
const JSON_HEADERS = { accept: BOTH, "content-type": "application/json" };

/** A real `McpServer` on every session and stateless request, with one tool. */
function mcpOptions(extra: Partial<StreamableHttpServerOptions> = {}): () => Partial<StreamableHttpServerOptions> {
  return () => {
    const mcp = new McpServer({ name: "field", version: "1" });
    mcp.registerTool("hi", { description: "Says hi", inputSchema: { type: "object" } }, () => ({
      content: [{ type: "text", text: "hi" }],
    }));
    return { onsession: (t) => mcp.connect(t), onrequest: (t) => mcp.connect(t), ...extra };
  };
}

/** Initializes an `McpServer` session in `version` and sends `notifications/initialized`. */
async function mcpSession(side: Side, version: string): Promise<Record<string, string>> {
  const init = await side.send({
    method: "POST",
    headers: JSON_HEADERS,
    body: JSON.stringify(initializeRequest(1, version)),
  });
  await init.text();
  const headers = {
    ...JSON_HEADERS,
    "mcp-session-id": init.headers.get("mcp-session-id") ?? "",
    "mcp-protocol-version": version,
  };
  const initialized = { jsonrpc: "2.0", method: "notifications/initialized" };
  await (await side.send({ method: "POST", headers, body: JSON.stringify(initialized) })).text();
  return headers;
}

const toolCall = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "hi", arguments: {} } });

describe("a JSON-RPC batch on a revision without batches", () => {
  for (const [mode, extra] of [
    ["SSE", {}],
    ["JSON", { enableJsonResponse: true }],
  ] as const) {
    for (const version of ["2025-06-18", "2025-11-25"]) {
      it(`gets HTTP 400 and -32600 on ${version} (${mode} answers), and the session still serves`, async () => {
        for (const side of await sides(mcpOptions(extra))) {
          const headers = await mcpSession(side, version);
          for (const batch of [[toolCall(2), toolCall(3)], [{ jsonrpc: "2.0", method: "notifications/x" }]]) {
            const refused = await side.send({ method: "POST", headers, body: JSON.stringify(batch) });
            expect(refused.status, side.name).toBe(400);
            expect(refused.headers.get("content-type"), side.name).toBe("application/json");
            expect(await refused.json(), side.name).toMatchObject({
              jsonrpc: "2.0",
              id: null,
              error: { code: -32600, message: expect.stringContaining("batches") },
            });
          }
          const served = await side.send({ method: "POST", headers, body: JSON.stringify(toolCall(4)) });
          expect(served.status, side.name).toBe(200);
          expect(await served.text(), side.name).toContain('"text":"hi"');
        }
      });
    }
  }

  it("is served on 2025-03-26, which has batches", async () => {
    for (const side of await sides(mcpOptions())) {
      const headers = await mcpSession(side, "2025-03-26");
      const answer = await side.send({ method: "POST", headers, body: JSON.stringify([toolCall(2), toolCall(3)]) });
      expect(answer.status, side.name).toBe(200);
      const text = await answer.text();
      expect(text, side.name).toContain('"id":2');
      expect(text, side.name).toContain('"id":3');
    }
  });
});

/**
 * A POST of `size` bytes over node:http with a declared length: the status and body the client
 * read, and whether its upload went out whole or failed (EPIPE, a reset).
 */
function bigPost(url: string, size: number, headers: Record<string, string>) {
  return new Promise<{ status: number; body: string; uploaded: boolean; error: string | undefined }>((resolve) => {
    const seen = { status: 0, body: "", uploaded: false, error: undefined as string | undefined };
    const req = httpRequest(url, { method: "POST", headers: { ...headers, "content-length": String(size) } }, (res) => {
      seen.status = res.statusCode ?? 0;
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        seen.body += chunk;
      });
    });
    req.on("finish", () => {
      seen.uploaded = true;
    });
    req.on("error", (error: NodeJS.ErrnoException) => {
      seen.error = error.code ?? error.message;
    });
    req.on("close", () => resolve(seen));
    req.end(Buffer.alloc(size, 0x20));
  });
}

describe("a body past the limit", () => {
  it("gets 413 with a JSON-RPC error naming the limit in bytes, over node:http with a real 4 MiB POST", async () => {
    const [node] = await sides();
    const url = (await node?.send({ method: "OPTIONS" }))?.url ?? "";
    const answer = await bigPost(url, 4 * MiB + 1, JSON_HEADERS);
    expect(answer).toMatchObject({ status: 413, uploaded: true, error: undefined });
    expect(JSON.parse(answer.body)).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: {
        code: -32600,
        message: `Payload Too Large: the body exceeds ${4 * MiB} bytes`,
        data: { maxBytes: 4 * MiB },
      },
    });
  });

  it("gets the same 413 body through handle(), declared or streamed", async () => {
    for (const side of await sides(() => ({ maxBodyBytes: 1000 }))) {
      for (const chunked of [false, true]) {
        const body = chunked ? streamOf(3, 600).stream : "x".repeat(2000);
        const answer = await side.send({ method: "POST", headers: JSON_HEADERS, body, duplex: "half" } as RequestInit);
        expect(answer.status, side.name).toBe(413);
        expect((await answer.json()).error, side.name).toEqual({
          code: -32600,
          message: "Payload Too Large: the body exceeds 1000 bytes",
          data: { maxBytes: 1000 },
        });
      }
    }
  });

  it("through handle(), is read to its end rather than cancelled, so the client's upload completes", async () => {
    const [, web] = await sides(() => ({ maxBodyBytes: 1000 }));
    const body = streamOf(8, 1000);
    const answer = await web?.send({
      method: "POST",
      headers: JSON_HEADERS,
      body: body.stream,
      duplex: "half",
    } as RequestInit);
    expect(answer?.status).toBe(413);
    await answer?.text();
    await body.done;
    expect(body.state).toEqual({ pulled: 8, cancelled: false });
  });

  it("through handle(), is read no further than 16 MiB past the limit; then it is cancelled", async () => {
    const [, web] = await sides(() => ({ maxBodyBytes: 1000 }));
    const body = streamOf(64, MiB);
    const answer = await web?.send({
      method: "POST",
      headers: JSON_HEADERS,
      body: body.stream,
      duplex: "half",
    } as RequestInit);
    expect(answer?.status).toBe(413);
    await answer?.text();
    await body.done;
    expect(body.state.cancelled).toBe(true);
    expect(body.state.pulled).toBeLessThanOrEqual(18);
  });

  it("over node:http, closes a connection whose body goes on past 16 MiB over the limit, after the 413", async () => {
    const [node] = await sides(() => ({ maxBodyBytes: 1000 }));
    const url = new URL((await node?.send({ method: "OPTIONS" }))?.url ?? "");
    // A raw socket, so that nothing but the server decides when the upload stops.
    const seen = await new Promise<{ received: string; written: number }>((resolve) => {
      const result = { received: "", written: 0 };
      const socket = connect(Number(url.port), "127.0.0.1");
      socket.setEncoding("utf8");
      socket.on("data", (text: string) => {
        result.received += text;
      });
      socket.on("error", () => {});
      socket.on("close", () => resolve(result));
      const head = `POST /mcp HTTP/1.1\r\nHost: ${url.host}\r\nAccept: ${BOTH}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`;
      const chunk = Buffer.concat([
        Buffer.from(`${MiB.toString(16)}\r\n`),
        Buffer.alloc(MiB, 0x20),
        Buffer.from("\r\n"),
      ]);
      const pump = () => {
        // At most 64 MiB: the server must have let go of the connection long before.
        while (result.written < 64 && !socket.destroyed) {
          result.written++;
          if (!socket.write(chunk)) return;
        }
        if (result.written >= 64) socket.end("0\r\n\r\n");
      };
      socket.on("drain", pump);
      socket.write(head);
      pump();
    });
    expect(seen.received).toMatch(/^HTTP\/1.1 413 /);
    expect(seen.received).toContain('"data":{"maxBytes":1000}');
    expect(seen.written).toBeLessThan(64);
  });
});

/** A request body of `chunks` chunks of `size` bytes, recording how far the server read it. */
function streamOf(chunks: number, size: number) {
  const state = { pulled: 0, cancelled: false };
  let finish!: () => void;
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (state.pulled === chunks) {
          controller.close();
          finish();
          return;
        }
        state.pulled++;
        controller.enqueue(new Uint8Array(size).fill(0x20));
      },
      cancel() {
        state.cancelled = true;
        finish();
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, state, done };
}

describe("Accept", () => {
  const post = (side: Side, accept: string) =>
    side.send({
      method: "POST",
      headers: { accept, "content-type": "application/json" },
      body: JSON.stringify(initializeRequest(1)),
    });

  for (const [accept, type] of [
    ["text/event-stream", "text/event-stream"],
    ["application/json", "application/json"],
    ["*/*", "text/event-stream"],
    ["application/*, text/*", "text/event-stream"],
    ["application/json;q=0, text/event-stream", "text/event-stream"],
    ["text/event-stream;q=0, application/json", "application/json"],
    ["application/json;q=0.5, text/html", "application/json"],
  ] as const) {
    it(`answers a POST with Accept "${accept}" with ${type}`, async () => {
      for (const side of await sides()) {
        const answer = await post(side, accept);
        expect(answer.status, side.name).toBe(200);
        expect(answer.headers.get("content-type"), side.name).toBe(type);
        expect(await answer.text(), side.name).toContain('"serverInfo"');
      }
    });
  }

  it('answers "*/*" with JSON when the server prefers JSON, and "text/event-stream" alone still with SSE', async () => {
    for (const side of await sides(() => ({ enableJsonResponse: true }))) {
      const any = await post(side, "*/*");
      expect(any.headers.get("content-type"), side.name).toBe("application/json");
      await any.text();
      const sse = await post(side, "text/event-stream");
      expect(sse.headers.get("content-type"), side.name).toBe("text/event-stream");
      await sse.text();
    }
  });

  for (const accept of ["text/html", "application/json;q=0, text/event-stream;q=0", "*/*;q=0"]) {
    it(`answers 406 to a POST with Accept "${accept}", where neither is acceptable`, async () => {
      for (const side of await sides()) {
        const answer = await post(side, accept);
        expect(answer.status, side.name).toBe(406);
        expect((await answer.json()).error.code, side.name).toBe(-32600);
        expect(side.server.sessionCount, side.name).toBe(0);
      }
    });
  }

  it('opens a GET stream for Accept "*/*", and answers 406 to "text/event-stream;q=0"', async () => {
    for (const side of await sides()) {
      const init = await post(side, BOTH);
      await init.text();
      const sessionId = init.headers.get("mcp-session-id") ?? "";
      const refused = await side.send({ headers: { accept: "text/event-stream;q=0", "mcp-session-id": sessionId } });
      expect(refused.status, side.name).toBe(406);
      await refused.text();
      const stream = await side.send({ headers: { accept: "*/*", "mcp-session-id": sessionId } });
      expect(stream.status, side.name).toBe(200);
      expect(stream.headers.get("content-type"), side.name).toBe("text/event-stream");
      await stream.body?.cancel();
    }
  });
});

describe("revision 2026-07-28: a notification without a session", () => {
  it("gets 202 with no body, and the endpoint goes on serving", async () => {
    for (const side of await sides(mcpOptions())) {
      const headers = {
        ...JSON_HEADERS,
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "notifications/cancelled",
      };
      const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28" };
      const answer = await side.send({
        method: "POST",
        headers,
        body: JSON.stringify({
          jsonrpc: "2.0",
          method: "notifications/cancelled",
          params: { requestId: 1, _meta: meta },
        }),
      });
      expect(answer.status, side.name).toBe(202);
      expect(await answer.text(), side.name).toBe("");
      expect(side.server.sessionCount, side.name).toBe(0);
    }
  });
});
