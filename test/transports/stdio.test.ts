import { spawn } from "node:child_process";
import { PassThrough } from "node:stream";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { ProtocolError } from "../../src/jsonrpc/errors.js";
import type { JsonRpcMessage } from "../../src/jsonrpc/messages.js";
import { InvalidLineError, StdioServerTransport, StdioStreamTransport } from "../../src/transports/stdio/index.js";
import { Inbox, runTransportContract } from "./transport.contract.js";

runTransportContract("stdio", () => {
  const toServer = new PassThrough();
  const toClient = new PassThrough();
  return [new StdioStreamTransport(toClient, toServer), new StdioServerTransport(toServer, toClient)];
});

/** A server whose stdin and stdout the test holds: it writes raw bytes and reads raw lines. */
async function rawServer(options: { maxLineBytes?: number } = {}) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const server = new StdioServerTransport(stdin, stdout, options);
  const inbox = new Inbox(server);
  await server.start();
  const lines: string[] = [];
  let pending = "";
  stdout.on("data", (chunk: Buffer) => {
    pending += chunk.toString("utf8");
    const parts = pending.split("\n");
    pending = parts.pop() ?? "";
    lines.push(...parts);
  });
  const replies = async (count: number): Promise<unknown[]> => {
    while (lines.length < count) await new Promise((resolve) => setImmediate(resolve));
    return lines.slice(0, count).map((line) => JSON.parse(line));
  };
  return { server, stdin, stdout, inbox, replies };
}

const ping = (id: number | string): JsonRpcMessage => ({ jsonrpc: "2.0", id, method: "ping" });

describe("stdio server framing", () => {
  it("reads a message split at every byte boundary", async () => {
    const { stdin, inbox } = await rawServer();
    const bytes = Buffer.from(`${JSON.stringify({ ...ping(1), params: { note: "ünïcødé ✓" } })}\n`);
    for (let i = 0; i < bytes.length; i++) stdin.write(bytes.subarray(i, i + 1));
    expect(await inbox.take(1)).toEqual([{ ...ping(1), params: { note: "ünïcødé ✓" } }]);
  });

  it("reads an emoji whose bytes arrive in separate chunks", async () => {
    const { stdin, inbox } = await rawServer();
    const bytes = Buffer.from(`${JSON.stringify({ ...ping(1), params: { text: "a😀b" } })}\n`);
    const emoji = bytes.indexOf(Buffer.from("😀"));
    stdin.write(bytes.subarray(0, emoji + 1));
    stdin.write(bytes.subarray(emoji + 1, emoji + 3));
    stdin.write(bytes.subarray(emoji + 3));
    expect(await inbox.take(1)).toEqual([{ ...ping(1), params: { text: "a😀b" } }]);
    expect(inbox.errors).toEqual([]);
  });

  it("reads an 8 MiB message arriving in 64 KiB chunks", async () => {
    const { stdin, inbox } = await rawServer();
    const blob = "x".repeat(8 * 1024 * 1024);
    const bytes = Buffer.from(`${JSON.stringify({ ...ping(1), params: { blob } })}\n`);
    for (let i = 0; i < bytes.length; i += 64 * 1024) stdin.write(bytes.subarray(i, i + 64 * 1024));
    const [message] = await inbox.take(1);
    expect((message as unknown as { params: { blob: string } }).params.blob.length).toBe(blob.length);
  });

  it("accepts \\r\\n line endings, ignores blank lines and reads several messages in one chunk", async () => {
    const { stdin, inbox } = await rawServer();
    stdin.write(`\n${JSON.stringify(ping(1))}\r\n   \r\n\n${JSON.stringify(ping(2))}\n`);
    expect(await inbox.take(2)).toEqual([ping(1), ping(2)]);
    expect(inbox.errors).toEqual([]);
  });

  it("delivers a batch as the array it arrived as", async () => {
    const { stdin, inbox } = await rawServer();
    stdin.write(`${JSON.stringify([ping(1), ping(2)])}\n`);
    expect(await inbox.take(1)).toEqual([[ping(1), ping(2)]]);
  });

  it("answers malformed JSON with -32700 and id null, then serves the next message", async () => {
    const { stdin, inbox, replies } = await rawServer();
    stdin.write('{"jsonrpc":"2.0","id":1,"method":\n');
    stdin.write(`${JSON.stringify(ping(2))}\n`);
    expect(await inbox.take(1)).toEqual([ping(2)]);
    expect(await replies(1)).toEqual([
      { jsonrpc: "2.0", id: null, error: { code: -32700, message: expect.any(String) } },
    ]);
    expect(inbox.errors[0]).toBeInstanceOf(ProtocolError);
    expect((inbox.errors[0] as ProtocolError).code).toBe(-32700);
  });

  it("tells onerror which line could not be read and how it began, blank lines not counted", async () => {
    const { stdin, inbox } = await rawServer();
    stdin.write(`${JSON.stringify(ping(1))}\n\nStarting server on port 3000\n`);
    stdin.write(`${JSON.stringify({ hello: "x".repeat(300) })}\n${JSON.stringify(ping(2))}\n`);
    expect(await inbox.take(2)).toEqual([ping(1), ping(2)]);
    expect(inbox.errors).toHaveLength(2);
    const [banner, shape] = inbox.errors as InvalidLineError[];
    expect(banner).toBeInstanceOf(InvalidLineError);
    expect(banner).toMatchObject({ code: -32700, lineNumber: 2, text: "Starting server on port 3000" });
    expect(shape).toMatchObject({ code: -32600, lineNumber: 3 });
    expect(shape?.text).toBe(JSON.stringify({ hello: "x".repeat(300) }).slice(0, 200));
  });

  it('answers a wrong "jsonrpc" with -32600 carrying the request id', async () => {
    const { stdin, inbox, replies } = await rawServer();
    stdin.write(`${JSON.stringify({ jsonrpc: "1.0", id: 5, method: "ping" })}\n`);
    stdin.write(`${JSON.stringify(ping(6))}\n`);
    expect(await replies(1)).toEqual([{ jsonrpc: "2.0", id: 5, error: { code: -32600, message: expect.any(String) } }]);
    expect(await inbox.take(1)).toEqual([ping(6)]);
  });

  it("answers invalid UTF-8 with -32700", async () => {
    const { stdin, replies } = await rawServer();
    stdin.write(
      Buffer.concat([
        Buffer.from('{"jsonrpc":"2.0","method":"x","params":{"a":"'),
        Buffer.from([0xff]),
        Buffer.from('"}}\n'),
      ]),
    );
    expect(await replies(1)).toMatchObject([{ id: null, error: { code: -32700 } }]);
  });

  it("drops a line over maxLineBytes with -32600 and keeps the connection", async () => {
    const { stdin, inbox, replies } = await rawServer({ maxLineBytes: 100 });
    const long = `${JSON.stringify({ ...ping(1), params: { pad: "y".repeat(500) } })}\n`;
    for (let i = 0; i < long.length; i += 30) stdin.write(long.slice(i, i + 30));
    stdin.write(`${JSON.stringify(ping(2))}\n`);
    expect(await inbox.take(1)).toEqual([ping(2)]);
    const [reply] = await replies(1);
    expect(reply).toMatchObject({ id: null, error: { code: -32600 } });
    expect((reply as { error: { message: string } }).error.message).toMatch(/exceeds the limit of 100 bytes/);
    expect(inbox.closes).toBe(0);
  });

  it("accepts a line of exactly maxLineBytes, with or without \\r", async () => {
    const line = JSON.stringify({ ...ping(1), params: { pad: "" } });
    const { stdin, inbox } = await rawServer({ maxLineBytes: line.length });
    stdin.write(`${line}\r\n${line}\n`);
    expect(await inbox.take(2)).toHaveLength(2);
    expect(inbox.errors).toEqual([]);
  });

  it("closes on EOF of stdin once it answered a last line without newline; onclose fires once", async () => {
    const { stdin, inbox, server, replies } = await rawServer();
    stdin.end(JSON.stringify(ping(1)));
    await inbox.take(1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(inbox.closes).toBe(0);
    await server.send({ jsonrpc: "2.0", id: 1, result: {} });
    await inbox.until((i) => i.closes > 0);
    expect(inbox.messages).toEqual([ping(1)]);
    expect(await replies(1)).toEqual([{ jsonrpc: "2.0", id: 1, result: {} }]);
    await server.close();
    expect(inbox.closes).toBe(1);
  });

  it("closes on EOF of stdin at once when no request waits for its answer", async () => {
    const { stdin, inbox } = await rawServer();
    stdin.end(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
    await inbox.until((i) => i.closes > 0);
    expect(inbox.messages).toHaveLength(1);
  });

  it("closes on EOF of stdin without waiting for a request that was cancelled", async () => {
    const { stdin, inbox } = await rawServer();
    const cancel = { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } };
    stdin.end(`${JSON.stringify(ping(1))}\n${JSON.stringify(cancel)}`);
    await inbox.until((i) => i.closes > 0);
    expect(inbox.messages).toHaveLength(2);
  });

  it("gives up on answers still owed endGraceMs after EOF of stdin, and closes", async () => {
    const stdin = new PassThrough();
    const server = new StdioServerTransport(stdin, new PassThrough(), { endGraceMs: 10 });
    const inbox = new Inbox(server);
    await server.start();
    stdin.end(JSON.stringify(ping(1)));
    await inbox.until((i) => i.closes > 0);
    expect(inbox.messages).toEqual([ping(1)]);
    await expect(server.send({ jsonrpc: "2.0", id: 1, result: {} })).rejects.toMatchObject({
      code: "CONNECTION_CLOSED",
    });
  });

  it("answers a last line without newline from a client that then closes the server's stdin (a real process)", async () => {
    const fixture = fileURLToPath(new URL("./fixtures/ping-server.ts", import.meta.url));
    const child = spawn(process.execPath, ["--import", "tsx", fixture], {
      cwd: fileURLToPath(new URL("../..", import.meta.url)),
      stdio: ["pipe", "pipe", "inherit"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
    });
    const exited = new Promise((resolve) => child.once("close", (code) => resolve(code)));
    child.stdin.end('{"jsonrpc":"2.0","id":1,"method":"ping"}');
    expect(await exited).toBe(0);
    expect(output).toBe('{"jsonrpc":"2.0","id":1,"result":{}}\n');
  });

  it("writes the messages sent in one tick as whole lines in order, a long one among them", async () => {
    const { server, stdout, replies } = await rawServer();
    const long = "y".repeat(200_000);
    const sends = [
      server.send({ jsonrpc: "2.0", id: 1, result: { n: 1 } }),
      server.send({ jsonrpc: "2.0", id: 2, result: { n: 2 } }),
      server.send({ jsonrpc: "2.0", id: 3, result: { long } }),
      server.send({ jsonrpc: "2.0", id: 4, result: { n: 4 } }),
    ];
    await Promise.all(sends);
    expect(await replies(4)).toEqual([
      { jsonrpc: "2.0", id: 1, result: { n: 1 } },
      { jsonrpc: "2.0", id: 2, result: { n: 2 } },
      { jsonrpc: "2.0", id: 3, result: { long } },
      { jsonrpc: "2.0", id: 4, result: { n: 4 } },
    ]);
    await server.close();
    expect(stdout.writableEnded).toBe(true);
  });

  it("sends the messages of the tick in which it closes before ending stdout", async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const server = new StdioServerTransport(stdin, stdout);
    await server.start();
    let output = "";
    stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
    });
    const ended = new Promise((resolve) => stdout.once("end", resolve));
    void server.send({ jsonrpc: "2.0", id: 1, result: {} });
    void server.send({ jsonrpc: "2.0", id: 2, result: {} });
    await server.close();
    await ended;
    expect(output).toBe('{"jsonrpc":"2.0","id":1,"result":{}}\n{"jsonrpc":"2.0","id":2,"result":{}}\n');
  });

  it("waits for drain before resolving a send to a full stdout", async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough({ highWaterMark: 16 });
    const server = new StdioServerTransport(stdin, stdout);
    await server.start();
    let sent = false;
    const sending = server.send({ ...ping(1), params: { pad: "z".repeat(1000) } }).then(() => {
      sent = true;
    });
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(sent).toBe(false);
    stdout.resume();
    await sending;
    expect(sent).toBe(true);
    await server.close();
  });
});
