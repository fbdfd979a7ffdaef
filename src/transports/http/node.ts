/**
 * Serves a `StreamableHttpServer` on `node:http` without web objects: the request is read
 * through a small view of `IncomingMessage` (the body straight into a Buffer), a JSON answer
 * leaves in one `res.end`, and SSE events are written to `res` as they are produced.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { ErrorCode } from "../../jsonrpc/errors.js";
import type { AuthInfo } from "../../model/identity.js";
import type { BodyText } from "./body.js";
import type { HttpReply, RequestHeaders, RequestView } from "./exchange.js";
import { readNodeBody } from "./node-body.js";
import { endInSlices } from "./node-slices.js";
import { type WebHandler, type WebNodeHandlerOptions, webNodeHandler } from "./node-web.js";
import { httpError } from "./responses.js";
import type { HandleExtra, StreamableHttpServer } from "./server.js";

/** Options of `toNodeHandler`. */
export interface NodeHandlerOptions {
  /** Reads verified auth from the request; default: `req.auth`, as auth middleware commonly sets it. */
  authInfo?: (req: IncomingMessage) => AuthInfo | undefined;
}

/** A `node:http` request listener; it never rejects (failures become 400 or 500 answers, and go to `onerror`). */
export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/**
 * A `node:http` request listener for `server` (also usable as Express/Connect middleware at the
 * MCP path; a body that middleware read and kept in `req.body`, as `express.json()` does, is
 * used as is). It answers as `server.handle` does, with 400 for a URL or `Host` that cannot be
 * parsed. On `node:http2`'s compatibility API, `:authority` stands for `Host`.
 *
 * Given a web-standard handler instead (`(request: Request) => Promise<Response>`, such as
 * `createConnectHandler(...)`), serves it: the request's URL is built from `Host`, its body streams
 * in, the response streams out with every `Set-Cookie` kept apart; a handler that throws answers
 * 500 and is reported to `options.logger` (default `consoleLogger()`).
 */
export function toNodeHandler(server: StreamableHttpServer, options?: NodeHandlerOptions): NodeHandler;
export function toNodeHandler(handler: WebHandler, options?: WebNodeHandlerOptions): NodeHandler;
export function toNodeHandler(
  target: StreamableHttpServer | WebHandler,
  options: NodeHandlerOptions & WebNodeHandlerOptions = {},
): NodeHandler {
  if (typeof target === "function") return webNodeHandler(target, options);
  const server = target;
  const fail = (error: unknown, res: ServerResponse) => {
    server.reportError(error);
    if (res.headersSent) res.destroy();
    else writeReply(httpError(500, ErrorCode.InternalError, "Internal error"), res);
  };
  // The URL and Host that parsed last: a client sends the same ones request after request.
  let parsedUrl: string | undefined;
  let parsedHost: string | undefined;
  return async (req, res) => {
    try {
      const request = new NodeRequestView(req, res);
      const url = req.url ?? "/";
      const host = request.host();
      if (url !== parsedUrl || host !== parsedHost) {
        if (!URL.canParse(url, `http://${host}`)) {
          writeReply(httpError(400, ErrorCode.InvalidRequest, "Bad Request: invalid URL or Host"), res);
          return;
        }
        parsedUrl = url;
        parsedHost = host;
      }
      const authInfo = options.authInfo ? options.authInfo(req) : (req as IncomingMessage & { auth?: AuthInfo }).auth;
      // The socket's local address is read only if the Host check needs it (`NodeRequestView.localAddress`).
      const extra: HandleExtra = authInfo === undefined ? {} : { authInfo };
      writeReply(await server.serve(request, extra), res, (error) => fail(error, res));
    } catch (error) {
      fail(error, res);
    }
  };
}

/** Each socket's local address, read once: Node asks the operating system each time it is read. */
const localAddresses = new WeakMap<object, string | undefined>();

function localAddressOf(socket: IncomingMessage["socket"] | undefined): string | undefined {
  if (socket === undefined || socket === null) return undefined;
  if (localAddresses.has(socket)) return localAddresses.get(socket);
  const address = socket.localAddress;
  // A socket not connected yet (or any more) has none: read again next time rather than keep that.
  if (address !== undefined) localAddresses.set(socket, address);
  return address;
}

/** An `IncomingMessage` as the server logic reads it; it is its own header lookup. */
class NodeRequestView implements RequestView, RequestHeaders {
  constructor(
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
  ) {}

  get method(): string {
    return this.req.method ?? "GET";
  }

  get headers(): RequestHeaders {
    return this;
  }

  get(name: string): string | null {
    const value = this.req.headers[name];
    if (value === undefined) return null;
    return Array.isArray(value) ? value.join(", ") : value;
  }

  host(): string {
    // HTTP/2 (through node:http2's compatibility API) names the host in :authority instead.
    return this.req.headers.host ?? this.get(":authority") ?? "localhost";
  }

  headerRecord(): Record<string, string> {
    const record: Record<string, string> = {};
    for (const [name, value] of Object.entries(this.req.headers)) {
      // HTTP/2 pseudo-headers (:path, :authority) are not request headers.
      if (value === undefined || name.startsWith(":")) continue;
      record[name] = Array.isArray(value) ? value.join(", ") : value;
    }
    return record;
  }

  readBody(maxBytes: number, timeoutMs: number): Promise<BodyText> {
    return readNodeBody(this.req, maxBytes, timeoutMs);
  }

  localAddress(): string | undefined {
    return localAddressOf(this.req.socket);
  }

  onAbort(listener: () => void): void {
    // Only a client that went away before the answer was complete aborts the request.
    const res = this.res;
    if (isGone(res) && !isComplete(res)) {
      listener();
      return;
    }
    res.once("close", () => {
      if (!isComplete(res)) listener();
    });
  }
}

/**
 * Whether the answer was written to its end. HTTP/2's compatibility layer reports a cancelled
 * stream as `writableFinished` too, so `writableEnded` (our `end` was called) must also hold.
 */
function isComplete(res: ServerResponse): boolean {
  return res.writableEnded && res.writableFinished;
}

/** Whether the connection is gone; HTTP/2's compatibility layer says so of its stream only. */
function isGone(res: ServerResponse): boolean {
  return res.destroyed || (res as { stream?: { destroyed?: boolean } }).stream?.destroyed === true;
}

/** `onError`: a failure writing a stream's headers (already sent by middleware, say), once the reply left `writeReply`. */
function writeReply(reply: HttpReply, res: ServerResponse, onError?: (error: unknown) => void): void {
  const { stream, body } = reply;
  if (stream === undefined) {
    if (body !== undefined) reply.headers["content-length"] = String(Buffer.byteLength(body));
    res.writeHead(reply.status, reply.headers);
    if (body === undefined) res.end();
    else endInSlices(res, body);
    return;
  }
  if (isGone(res)) {
    // The client left while the answer was being prepared: nothing will read the stream.
    stream.cancel();
    return;
  }
  // What is ready within this tick (the answer's event, the end of a POST's stream) leaves with
  // the headers in one write: as one body of known length when the stream has ended by then,
  // else chunked, its later events as they come. A stream with nothing to say yet still gets its
  // headers at the next tick.
  process.nextTick(writeStream, reply, res, onError);
}

function writeStream(reply: HttpReply, res: ServerResponse, onError?: (error: unknown) => void): void {
  const stream = reply.stream as NonNullable<HttpReply["stream"]>;
  if (isGone(res)) {
    stream.cancel();
    return;
  }
  try {
    const whole = stream.takeComplete?.();
    if (whole !== undefined) {
      reply.headers["content-length"] = String(Buffer.byteLength(whole));
      res.writeHead(reply.status, reply.headers);
      endInSlices(res, whole);
      return;
    }
    // (Response objects of other servers, such as HTTP/2's compatibility layer, may not cork.)
    if (typeof res.cork === "function") {
      res.cork();
      process.nextTick(uncork, res);
    }
    res.writeHead(reply.status, reply.headers);
    res.flushHeaders();
  } catch (error) {
    // Headers already sent (by middleware, say): the stream never reaches the client, so the
    // session lets go of it, as when a client leaves.
    stream.cancel();
    if (onError === undefined) throw error;
    onError(error);
    return;
  }
  // `on`, not `once` (a response closes once), and one listener for every stream, which finds its
  // stream on the response: an idle stream, one among thousands, holds no function for it.
  (res as StreamingResponse)[REPLY_STREAM] = stream;
  res.on("close", cancelStreamOf);
  stream.attach(res);
}

/** Where `writeStream` puts the stream a response carries, for `cancelStreamOf`. */
const REPLY_STREAM = Symbol("replyStream");

type StreamingResponse = ServerResponse & { [REPLY_STREAM]?: NonNullable<HttpReply["stream"]> };

/** The `close` listener of every streamed response: the client went away, or the stream ended. */
function cancelStreamOf(this: StreamingResponse): void {
  this[REPLY_STREAM]?.cancel();
}

function uncork(res: ServerResponse): void {
  res.uncork();
}
