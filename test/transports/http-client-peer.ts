/**
 * A raw `node:http` peer for the Streamable HTTP client tests: each request's body is read
 * whole, then `answer` writes whatever status, headers and bytes the test wants, as servers in
 * the field do. It records every request it saw.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface SeenRequest {
  method: string;
  /** The request target: path and query. */
  url: string;
  headers: IncomingMessage["headers"];
  /** The body parsed as JSON, or `undefined` when it was empty. */
  body: { id?: unknown; method?: string } | undefined;
}

export type Answer = (request: SeenRequest, res: ServerResponse) => void;

export interface RawPeer {
  url: URL;
  seen: SeenRequest[];
  /** Resolves once `count` answers have been written to their end. */
  answered(count: number): Promise<void>;
  /** Calls `listener` for each TCP connection the peer accepts from now on. */
  onConnection(listener: () => void): void;
  close(): Promise<void>;
}

export async function startRawPeer(answer: Answer): Promise<RawPeer> {
  const seen: SeenRequest[] = [];
  let finished = 0;
  const waiters: (() => void)[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const request: SeenRequest = {
        method: req.method ?? "",
        url: req.url ?? "",
        headers: req.headers,
        body: text === "" ? undefined : (JSON.parse(text) as SeenRequest["body"]),
      };
      seen.push(request);
      res.once("finish", () => {
        finished++;
        for (const wake of waiters.splice(0)) wake();
      });
      answer(request, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    seen,
    onConnection(listener) {
      server.on("connection", listener);
    },
    async answered(count) {
      while (finished < count) await new Promise<void>((resolve) => waiters.push(resolve));
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Writes `message` as a JSON answer. */
export function answerJson(res: ServerResponse, message: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(200, { "content-type": "application/json", ...headers }).end(JSON.stringify(message));
}

/** Writes `text` as the only event of an SSE answer, in 1 MiB pieces, and ends it. */
export function answerSse(res: ServerResponse, text: string): void {
  res.writeHead(200, { "content-type": "text/event-stream" });
  const event = `data: ${text}\n\n`;
  const step = 1024 * 1024;
  for (let at = 0; at < event.length; at += step) res.write(event.slice(at, at + step));
  res.end();
}

/** Lets the client finish with what it was answered: a few turns of the event loop. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
}

/** The client transport's two HTTP paths; the client tests run on each. */
export const HTTP_PATHS = ["node", "fetch"] as const;
