/**
 * The server's logger: never dropped by default (stderr on a stdio server, whose stdout carries
 * JSON-RPC; `console` elsewhere), and pino-compatible, so `pino()` is passed as it is.
 */
import { spawn } from "node:child_process";
import { Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import pino from "pino";
import { afterEach, describe, expect, it, vi } from "vitest";
import { McpServer } from "../../src/server/index.js";
import { connectClient } from "./support.js";

const FIXTURE = fileURLToPath(new URL("./fixtures/failing-stdio-server.ts", import.meta.url));

/** A server whose resource `file:///notes` fails with an unexpected error (answered -32603). */
function brokenServer(options: ConstructorParameters<typeof McpServer>[1] = {}) {
  const server = new McpServer({ name: "s", version: "1" }, options);
  server.registerResource("notes", "file:///notes", {}, () => {
    throw new Error("ENOENT: notes");
  });
  return server;
}

const readNotes = { uri: "file:///notes" };

/** A stream that keeps what pino writes, one JSON record per line. */
function lines() {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  const records = () =>
    chunks
      .join("")
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { stream, records };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("McpServer's logger", () => {
  it("takes a pino logger as it is: a failure is one error record with err and sessionId", async () => {
    const { stream, records } = lines();
    const server = brokenServer({ logger: pino(stream) });
    const { client, session } = await connectClient(server);
    await expect(client.request("resources/read", readNotes)).rejects.toMatchObject({ code: -32603 });
    expect(records()).toEqual([
      expect.objectContaining({
        level: 50,
        msg: "resources/read failed",
        sessionId: session.id,
        err: expect.objectContaining({ type: "Error", message: "ENOENT: notes" }),
      }),
    ]);
    await server.close();
  });

  it("defaults to console elsewhere than stdio: a failure is not dropped", async () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const server = brokenServer();
    const { client } = await connectClient(server);
    await expect(client.request("resources/read", readNotes)).rejects.toMatchObject({ code: -32603 });
    expect(error).toHaveBeenCalledWith(
      "resources/read failed",
      expect.objectContaining({ err: expect.objectContaining({ message: "ENOENT: notes" }) }),
    );
    await server.close();
  });

  it("hands its logger to whoever else reports for it (the connect pages): server.logger is the one in use", () => {
    const { stream, records } = lines();
    const server = brokenServer({ logger: pino(stream) });
    server.logger.warn({ page: "connect" }, "a connect page failed");
    expect(records()).toEqual([expect.objectContaining({ level: 40, page: "connect", msg: "a connect page failed" })]);
  });

  it("defaults to stderr on a stdio server: stdout carries JSON-RPC only, a failure and an info line go to stderr", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", FIXTURE], { stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += String(chunk);
    });
    child.stderr.on("data", (chunk) => {
      stderr += String(chunk);
    });
    const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
    send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } },
    });
    const answered = async (id: number) => {
      for (let i = 0; i < 600 && !stdout.includes(`"id":${id},`); i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    await answered(1);
    send({ jsonrpc: "2.0", method: "notifications/initialized" });
    send({ jsonrpc: "2.0", id: 2, method: "resources/read", params: readNotes });
    await answered(2);
    child.stdin.end();
    await new Promise((resolve) => child.once("exit", resolve));
    const out = stdout.split("\n").filter((line) => line !== "");
    expect(out).toHaveLength(2);
    for (const line of out) expect(JSON.parse(line)).toMatchObject({ jsonrpc: "2.0" });
    expect(JSON.parse(out[1] ?? "{}")).toMatchObject({ id: 2, error: { code: -32603 } });
    expect(stderr).toContain("failing server started");
    expect(stderr).toContain("resources/read failed");
    expect(stderr).toContain("ENOENT: notes");
  });
});
