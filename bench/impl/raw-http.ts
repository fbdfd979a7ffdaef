/**
 * HTTP as plainly as Node does it, for the bare baseline's client and the raw session opener:
 * `node:http` with one keep-alive agent, each answer read whole into a string. No fetch, no web
 * streams, no SSE parser: an SSE answer is split into its `data:` lines once it has ended.
 */
import { Agent, type IncomingHttpHeaders, type IncomingMessage, request } from "node:http";

/** The bench process's kept-alive connections, shared by every raw client as fetch shares its own. */
const agent = new Agent({ keepAlive: true });

export interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * One request; resolves with the whole answer once it has ended. A request that went out on a
 * kept-alive connection the server closed as it was reused (ECONNRESET before any answer) is sent
 * once more, as Node's documentation advises: the server never saw it.
 */
export function rawRequest(
  url: URL,
  method: "GET" | "POST" | "DELETE",
  headers: Record<string, string>,
  body?: string,
  mayRetry = true,
): Promise<RawAnswer> {
  return new Promise<RawAnswer>((resolve, reject) => {
    const sent = body === undefined ? headers : { ...headers, "content-length": String(Buffer.byteLength(body)) };
    const req = request(url, { method, headers: sent, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => {
        const whole = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: whole.toString("utf8") });
      });
      res.on("error", reject);
      // A connection cut before the answer ended rejects (once ended, the promise is settled already).
      res.on("close", () => reject(new Error(`The connection closed before the answer to ${method} ${url} ended`)));
    });
    req.on("error", (error: NodeJS.ErrnoException) => {
      if (mayRetry && req.reusedSocket && error.code === "ECONNRESET") {
        rawRequest(url, method, headers, body, false).then(resolve, reject);
      } else reject(error);
    });
    req.end(body);
  });
}

/** A GET stream held open: its events are read and dropped until `close()`. */
export interface OpenStream {
  status: number;
  close(): void;
}

/** Opens a GET with `accept: text/event-stream` on a connection of its own, as SSE clients keep one. */
export function openStream(url: URL, headers: Record<string, string>): Promise<OpenStream> {
  return new Promise<OpenStream>((resolve, reject) => {
    const req = request(url, { method: "GET", headers: { ...headers, accept: "text/event-stream" }, agent });
    req.once("response", (res: IncomingMessage) => {
      res.resume();
      res.on("error", () => {});
      resolve({ status: res.statusCode ?? 0, close: () => res.destroy() });
    });
    req.on("error", reject);
    req.end();
  });
}

type Message = Record<string, unknown>;

/**
 * The JSON-RPC message of an answer that answers request `id`: the body of a JSON answer, or the
 * data of the SSE event that holds it (events without data, as a server with an event store
 * primes its streams, are passed over).
 * @throws Error when there is none.
 */
export function answerTo(answer: RawAnswer, id: number): Message {
  if (!(answer.headers["content-type"] ?? "").startsWith("text/event-stream"))
    return JSON.parse(answer.body) as Message;
  let data: string[] = [];
  for (const line of answer.body.split("\n")) {
    if (line.startsWith("data:")) data.push(line.slice(line.charCodeAt(5) === 32 ? 6 : 5));
    else if (line === "" || line === "\r") {
      // An event without data is a priming event (its id is where to resume), no message.
      if (data.length > 0 && (data.length > 1 || data[0] !== "")) {
        const message = JSON.parse(data.join("\n")) as Message;
        if (message.id === id && message.method === undefined) return message;
      }
      data = [];
    }
  }
  throw new Error(`the SSE answer (HTTP ${answer.status}) held no response to request ${id}`);
}

/** The `result` of a JSON-RPC response. @throws Error naming the error it carried instead. */
export function resultOf(message: Message): Message {
  if (message.error !== undefined) throw new Error(JSON.stringify(message.error));
  return message.result as Message;
}
