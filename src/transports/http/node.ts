/**
 * Adapts `StreamableHttpServer.handle` to `node:http`. It only converts: the request body is
 * streamed in (so the size limit holds), and the response body is written chunk by chunk,
 * so every SSE event reaches the client as soon as it is produced.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { ErrorCode } from "../../jsonrpc/errors.js";
import type { AuthInfo } from "../transport.js";
import { httpError } from "./responses.js";
import type { StreamableHttpServer } from "./server.js";

/** Options of `toNodeHandler`. */
export interface NodeHandlerOptions {
  /** Reads verified auth from the request; default: `req.auth`, as auth middleware commonly sets it. */
  authInfo?: (req: IncomingMessage) => AuthInfo | undefined;
}

/** A `node:http` request listener; it never rejects (failures become 400 or 500 answers). */
export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/** A `node:http` request listener (also usable as Express/Connect middleware at the MCP path). */
export function toNodeHandler(server: StreamableHttpServer, options: NodeHandlerOptions = {}): NodeHandler {
  return async (req, res) => {
    let request: Request;
    try {
      request = toWebRequest(req, res);
    } catch {
      // An unparsable Host or URL; answering here keeps a bad request from becoming an unhandled rejection.
      await writeWebResponse(httpError(400, ErrorCode.InvalidRequest, "Bad Request: invalid URL or Host"), res);
      return;
    }
    try {
      const authInfo = options.authInfo ? options.authInfo(req) : (req as IncomingMessage & { auth?: AuthInfo }).auth;
      const extra = req.socket.localAddress === undefined ? {} : { localAddress: req.socket.localAddress };
      const response = await server.handle(request, authInfo === undefined ? extra : { ...extra, authInfo });
      await writeWebResponse(response, res);
    } catch {
      if (res.headersSent) res.destroy();
      else await writeWebResponse(httpError(500, ErrorCode.InternalError, "Internal error"), res);
    }
  };
}

function toWebRequest(req: IncomingMessage, res: ServerResponse): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name.startsWith(":")) continue;
    headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  }
  const controller = new AbortController();
  // Only a client that went away before the answer was complete aborts the request.
  res.on("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  const url = new URL(req.url ?? "/", `http://${req.headers.host ?? "localhost"}`);
  const method = req.method ?? "GET";
  const init: RequestInit & { duplex?: "half" } = { method, headers, signal: controller.signal };
  if (method !== "GET" && method !== "HEAD") {
    // A body already parsed by middleware (e.g. express.json()) is used as is.
    const parsed = (req as IncomingMessage & { body?: unknown }).body;
    init.body = parsed !== undefined ? JSON.stringify(parsed) : bodyStream(req);
    init.duplex = "half";
  }
  return new Request(url, init);
}

/** The request body as a web stream with back-pressure; cancelling it discards the rest. */
function bodyStream(req: IncomingMessage): ReadableStream<Uint8Array> {
  let detach = () => {};
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const onData = (chunk: Buffer) => {
        controller.enqueue(new Uint8Array(chunk));
        if ((controller.desiredSize ?? 0) <= 0) req.pause();
      };
      const onEnd = () => controller.close();
      const onError = (error: Error) => controller.error(error);
      req.on("data", onData);
      req.once("end", onEnd);
      req.once("error", onError);
      req.pause();
      detach = () => {
        req.off("data", onData);
        req.off("end", onEnd);
        req.off("error", onError);
      };
    },
    pull() {
      req.resume();
    },
    cancel() {
      // Reading on without keeping the bytes lets the refusal (413) reach the client and the
      // connection be reused, where destroying the request would reset the socket.
      detach();
      req.resume();
    },
  });
}

async function writeWebResponse(response: Response, res: ServerResponse): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  // What is ready within this tick (headers, the answer's event, the end of a POST's stream)
  // leaves in one write; a stream with nothing to say yet still gets its headers at the next tick.
  // (Response objects of other servers, such as HTTP/2's compatibility layer, may not cork.)
  if (typeof res.cork === "function") {
    res.cork();
    process.nextTick(() => res.uncork());
  }
  res.writeHead(response.status, headers);
  if (response.body === null) {
    res.end();
    return;
  }
  res.flushHeaders();
  const reader = response.body.getReader();
  const stop = () => void reader.cancel().catch(() => {});
  res.once("close", stop);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) await drained(res);
    }
  } catch {
    // The client went away mid-stream; nothing is left to write to.
  } finally {
    res.off("close", stop);
    res.end();
  }
}

/** Waits until `res` can take more, or is gone; leaves no listener behind either way. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise<void>((resolve) => {
    if (res.destroyed) {
      resolve();
      return;
    }
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.on("drain", done);
    res.on("close", done);
  });
}
