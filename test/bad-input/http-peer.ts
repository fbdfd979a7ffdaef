/**
 * A raw Streamable HTTP peer for bad-input tests: a real `node:http` server on 127.0.0.1 in front
 * of the echo `McpServer`, and requests written by hand so that each header and byte is the
 * test's choice.
 */
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createParser } from "eventsource-parser";
import type { JsonRpcMessage, RequestId } from "../../src/jsonrpc/messages.js";
import {
  StreamableHttpServer,
  type StreamableHttpServerOptions,
  toNodeHandler,
} from "../../src/transports/http/index.js";
import { createEchoServer, type EchoServer, initializeParams } from "./echo-server.js";
import type { ErrorBody } from "./line-peer.js";

export type Received = JsonRpcMessage & { id?: RequestId | null; result?: Record<string, unknown>; error?: ErrorBody };

export const ACCEPT_BOTH = "application/json, text/event-stream";
export const VERSION = "2025-11-25";

export interface HttpWire {
  echo: EchoServer;
  url: URL;
  close(): Promise<void>;
}

export async function startHttp(options: Partial<StreamableHttpServerOptions> = {}): Promise<HttpWire> {
  const echo = createEchoServer();
  const http = new StreamableHttpServer({
    onsession: (transport) => void echo.server.connect(transport),
    ...options,
  });
  const server: Server = createServer(toNodeHandler(http));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    echo,
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    async close() {
      await echo.server.close();
      await http.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Headers of a request on an initialized session. */
export function sessionHeaders(sessionId: string): Record<string, string> {
  return {
    accept: ACCEPT_BOTH,
    "content-type": "application/json",
    "mcp-session-id": sessionId,
    "mcp-protocol-version": VERSION,
  };
}

export function post(url: URL, body: unknown, headers: Record<string, string>): Promise<Response> {
  return fetch(url, { method: "POST", headers, body: typeof body === "string" ? body : JSON.stringify(body) });
}

/** Runs the handshake and returns the new session's id. */
export async function initialize(url: URL): Promise<string> {
  const answer = await post(
    url,
    { jsonrpc: "2.0", id: "init", method: "initialize", params: initializeParams() },
    { accept: ACCEPT_BOTH, "content-type": "application/json" },
  );
  const sessionId = answer.headers.get("mcp-session-id");
  const [result] = await messagesOf(answer);
  if (sessionId === null || result?.result?.protocolVersion !== VERSION) {
    throw new Error(`initialize failed: HTTP ${answer.status}`);
  }
  const initialized = await post(
    url,
    { jsonrpc: "2.0", method: "notifications/initialized" },
    sessionHeaders(sessionId),
  );
  await initialized.body?.cancel();
  if (initialized.status !== 202) throw new Error(`notifications/initialized got HTTP ${initialized.status}`);
  return sessionId;
}

/** Every JSON-RPC message of an answer that ends: one JSON body or an SSE stream. */
export async function messagesOf(response: Response): Promise<Received[]> {
  const stream = new SseReader(response);
  await stream.ended;
  return stream.messages;
}

/** Reads an answer in the background, keeping each message as it arrives. */
export class SseReader {
  readonly messages: Received[] = [];
  /** Resolves when the server ends the answer. */
  readonly ended: Promise<void>;
  #waiters = new Set<() => void>();

  constructor(readonly response: Response) {
    this.ended = this.#read();
  }

  /** The first message `match` accepts; waits for it. */
  async next(match: (message: Received) => boolean): Promise<Received> {
    for (;;) {
      const found = this.messages.find(match);
      if (found !== undefined) return found;
      let finished = false;
      await Promise.race([
        new Promise<void>((resolve) => this.#waiters.add(resolve)),
        this.ended.then(() => {
          finished = true;
        }),
      ]);
      if (finished && this.messages.find(match) === undefined) throw new Error("The answer ended first");
    }
  }

  #push(text: string): void {
    this.messages.push(JSON.parse(text) as Received);
    for (const wake of this.#waiters) wake();
    this.#waiters.clear();
  }

  async #read(): Promise<void> {
    const type = this.response.headers.get("content-type") ?? "";
    if (!type.startsWith("text/event-stream")) {
      const text = await this.response.text();
      if (text !== "") this.#push(text);
      return;
    }
    const parser = createParser({ onEvent: (event) => event.data !== "" && this.#push(event.data) });
    const decoder = new TextDecoder();
    const reader = this.response.body?.getReader();
    for (;;) {
      const chunk = await reader?.read().catch(() => undefined);
      if (chunk === undefined || chunk.done) return;
      parser.feed(decoder.decode(chunk.value, { stream: true }));
    }
  }
}

/**
 * One request with exactly these headers (fetch would add `Accept: *\/*` and others), for the
 * header checks. Resolves with the status and the parsed JSON body.
 */
export function rawPost(
  url: URL,
  body: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: Received }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method: "POST", headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => {
        try {
          resolve({ status: response.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString("utf8")) });
        } catch (error) {
          reject(error);
        }
      });
    });
    request.on("error", reject);
    request.end(body);
  });
}
