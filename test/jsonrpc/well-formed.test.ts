/**
 * What goes on the wire is well-formed Unicode: a string with a lone UTF-16 surrogate (half of a
 * pair, as a string cut inside an emoji has) is sent with U+FFFD in its place, on stdio and on
 * Streamable HTTP, by the server and by the client. JSON.stringify would write it as a `\udXXX`
 * escape, which strict JSON readers refuse and which no UTF-8 can carry. Texts we shorten are cut
 * between code points.
 */
import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { encodeFrame } from "../../src/jsonrpc/frame.js";
import { JsonRpcSession, type Params } from "../../src/jsonrpc/session.js";
import { cutText } from "../../src/jsonrpc/text.js";
import { McpServer } from "../../src/server/index.js";
import { StreamableHttpClientTransport, StreamableHttpServer } from "../../src/transports/http/index.js";
import { StdioServerTransport } from "../../src/transports/stdio/index.js";
import { StdioStreamTransport } from "../../src/transports/stdio/stream.js";

/** `\ud800`-`\udfff` as JSON writes an unpaired surrogate; an escaped backslash before it does not count. */
const SURROGATE_ESCAPE = /(?<!\\)(?:\\\\)*\\ud[89a-f][0-9a-f]{2}/i;
/** An unpaired surrogate in a string itself. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const HIGH = "\ud83d";
const LOW = "\ude00";

/** A server whose `echo` tool returns its text argument with a lone surrogate on each side. */
function echoServer(): McpServer {
  const server = new McpServer({ name: "echo", version: "1" });
  server.registerTool(
    "echo",
    { inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } as const },
    ({ text }) => ({ content: [{ type: "text", text: `${HIGH}${text}${LOW}` }] }),
  );
  return server;
}

async function initialize(client: JsonRpcSession): Promise<void> {
  await client.request("initialize", {
    protocolVersion: "2025-11-25",
    capabilities: {},
    clientInfo: { name: `half ${HIGH}`, version: "1" },
  });
  await client.notify("notifications/initialized");
}

const echo = (client: JsonRpcSession) =>
  client.request("tools/call", { name: "echo", arguments: { text: `a${LOW}b${HIGH}😀` } });

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

describe("encodeFrame", () => {
  it("writes U+FFFD for a lone high or low surrogate, and keeps pairs as they are", () => {
    const message = { jsonrpc: "2.0", id: 1, result: { text: `${HIGH}x${LOW} ${HIGH}${LOW} 😀 ${LOW}${HIGH}` } };
    const text = encodeFrame(message);
    expect(text).not.toMatch(SURROGATE_ESCAPE);
    expect(JSON.parse(text)).toEqual({ jsonrpc: "2.0", id: 1, result: { text: "\ufffdx\ufffd 😀 😀 \ufffd\ufffd" } });
  });

  it("leaves text that only looks like an escape alone, and a message without one exactly as JSON.stringify writes it", () => {
    const literal = { jsonrpc: "2.0", method: "m", params: { path: "C:\\ud800\\\\udfff", key: "\\\\\\ud83d" } };
    expect(JSON.parse(encodeFrame(literal))).toEqual(literal);
    const plain = { jsonrpc: "2.0", id: "x", result: { text: "plain ✓ 😀", list: [1, 2] } };
    expect(encodeFrame(plain)).toBe(JSON.stringify(plain));
  });
});

describe("cutText", () => {
  it("cuts at most the given number of UTF-16 units, never between the halves of a pair", () => {
    expect(cutText("abc😀def", 4)).toBe("abc");
    expect(cutText("abc😀def", 5)).toBe("abc😀");
    expect(cutText("short", 200)).toBe("short");
    expect(cutText(`ab${LOW}cd`, 3)).toBe(`ab${LOW}`);
  });
});

describe("lone surrogates over stdio", () => {
  it("reach neither side's pipe: the server's answer and the client's request carry U+FFFD", async () => {
    const toServer = new PassThrough();
    const toClient = new PassThrough();
    const written = { toServer: "", toClient: "" };
    toServer.on("data", (chunk: Buffer) => {
      written.toServer += chunk.toString("utf8");
    });
    toClient.on("data", (chunk: Buffer) => {
      written.toClient += chunk.toString("utf8");
    });
    const server = echoServer();
    await server.connect(new StdioServerTransport(toServer, toClient));
    const client = new JsonRpcSession();
    await client.connect(new StdioStreamTransport(toClient, toServer));
    closers.push(
      () => client.close(),
      () => server.close(),
    );
    await initialize(client);
    const result = await echo(client);
    expect(result.content).toEqual([{ type: "text", text: "\ufffda\ufffdb\ufffd😀\ufffd" }]);
    expect(written.toServer).toContain("tools/call");
    expect(written.toServer).not.toMatch(SURROGATE_ESCAPE);
    expect(written.toClient).not.toMatch(SURROGATE_ESCAPE);
  });
});

describe("lone surrogates over Streamable HTTP", () => {
  it("reach neither request bodies nor response bodies", async () => {
    const server = echoServer();
    const http = new StreamableHttpServer({ onsession: (transport) => void server.connect(transport) });
    const bodies: Promise<string>[] = [];
    const transport = new StreamableHttpClientTransport(new URL("http://127.0.0.1/mcp"), {
      fetch: async (input, init) => {
        const request = new Request(input, init);
        if (request.method !== "POST") return http.handle(request);
        bodies.push(request.clone().text());
        const response = await http.handle(request);
        bodies.push(response.clone().text());
        return response;
      },
    });
    const client = new JsonRpcSession();
    await client.connect(transport);
    closers.push(
      () => client.close(),
      () => server.close(),
      () => http.close(),
    );
    await initialize(client);
    const result: Params = await echo(client);
    expect(result.content).toEqual([{ type: "text", text: "\ufffda\ufffdb\ufffd😀\ufffd" }]);
    const texts = await Promise.all(bodies);
    expect(texts.some((text) => text.includes("tools/call"))).toBe(true);
    for (const text of texts) expect(text).not.toMatch(SURROGATE_ESCAPE);
  });

  it("a long error body is quoted in the client's error cut between code points", async () => {
    const transport = new StreamableHttpClientTransport(new URL("http://127.0.0.1/mcp"), {
      fetch: async () => new Response(`${"x".repeat(199)}😀 and more`, { status: 500 }),
    });
    const client = new JsonRpcSession();
    await client.connect(transport);
    closers.push(() => client.close());
    const error = (await client.request("ping").catch((e: unknown) => e)) as Error;
    expect(error.message).toContain("x".repeat(199));
    expect(error.message).not.toMatch(LONE_SURROGATE);
  });
});
