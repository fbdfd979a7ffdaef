/**
 * Serves the local connect pages on `node:http` at a loopback address. The body is read with the
 * Streamable HTTP server's bounded reader; the listener and its connections are unref'd, so a stdio
 * server still exits when its client closes stdin.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { readNodeBody } from "../../transports/http/node-body.js";

/** A form post is a few hundred bytes; anything much larger is not one of ours. */
const MAX_FORM_BYTES = 64 * 1024;
const BODY_TIMEOUT_MS = 30_000;

export interface LocalListener {
  /** `http://127.0.0.1:<port>` (or the address asked for). */
  readonly origin: string;
  readonly port: number;
  /** Stops listening and closes every connection. */
  close(): Promise<void>;
}

function toRequest(req: IncomingMessage, origin: string, body: string | undefined): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === "string") headers.set(name, value);
    else if (Array.isArray(value)) for (const one of value) headers.append(name, one);
  }
  const method = req.method ?? "GET";
  // The URL's own host is the listener's; the handler judges the request by its Host header.
  return new Request(new URL(req.url ?? "/", origin), { method, headers, body: body ?? null });
}

async function write(response: Response, res: ServerResponse): Promise<void> {
  const head: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") head[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) head["set-cookie"] = cookies;
  res.writeHead(response.status, head).end(Buffer.from(await response.arrayBuffer()));
}

/**
 * Listens at `host`:`port` (default 127.0.0.1, a free port) and answers with `handler`.
 * @param handler gets `port` once it is known, and returns the web-standard handler to serve.
 * @throws Error when the address cannot be listened on.
 */
export async function listenLocal(
  handler: (port: number) => (request: Request) => Promise<Response>,
  options: { host?: string; port?: number } = {},
): Promise<LocalListener> {
  const host = options.host ?? "127.0.0.1";
  const server = createServer({ requireHostHeader: true });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  server.unref();
  server.on("connection", (socket) => socket.unref());
  const port = (server.address() as AddressInfo).port;
  const origin = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  const handle = handler(port);
  server.on("request", (req, res) => {
    void (async () => {
      try {
        const method = req.method ?? "GET";
        let body: string | undefined;
        if (method !== "GET" && method !== "HEAD") {
          const read = await readNodeBody(req, MAX_FORM_BYTES, BODY_TIMEOUT_MS);
          if (!read.ok) {
            res.writeHead(read.reason === "too-large" ? 413 : 400, { connection: "close" }).end();
            return;
          }
          body = read.text;
        }
        await write(await handle(toRequest(req, origin, body)), res);
      } catch (error) {
        console.error(`A local connect page failed: ${error instanceof Error ? error.message : String(error)}`);
        if (res.headersSent) res.destroy();
        else res.writeHead(500).end();
      }
    })();
  });
  return {
    origin,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
