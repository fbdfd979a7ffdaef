/**
 * Serves the local connect pages on `node:http` at a loopback address, through the package's
 * shared adapter for web-standard handlers (`toNodeHandler`). The listener and its connections are
 * unref'd, so a stdio server still exits when its client closes stdin. The handler judges each
 * request by the `Host` the client sent (the adapter builds the request's URL from it).
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { Logger } from "../../jsonrpc/logger.js";
import { toNodeHandler } from "../../transports/http/node.js";
import { isLoopbackHost } from "./host.js";

export interface LocalListener {
  /** `http://127.0.0.1:<port>` (or the address asked for). */
  readonly origin: string;
  readonly port: number;
  /** Stops listening and closes every connection. */
  close(): Promise<void>;
}

/**
 * Listens at `host`:`port` (default 127.0.0.1, a free port) and answers with `handler`; a handler
 * that throws is answered 500 and reported to `options.logger`.
 * @param handler gets `port` once it is known, and returns the web-standard handler to serve.
 * @throws Error when the address cannot be listened on; whatever `handler` throws (nothing is
 *   left listening then).
 */
export async function listenLocal(
  handler: (port: number) => (request: Request) => Promise<Response>,
  options: { host?: string; port?: number; logger: Logger },
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
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  const port = (server.address() as AddressInfo).port;
  const origin = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  let handle: (request: Request) => Promise<Response>;
  try {
    handle = handler(port);
  } catch (error) {
    await close();
    throw error;
  }
  const serve = toNodeHandler(handle, { logger: options.logger });
  server.on("request", (req, res) => {
    // A Host that is not loopback (and one no URL can hold: "a b", "[::1", user info) is replaced
    // by a name that is not loopback either, so the handler refuses it with its 421 page rather
    // than the adapter failing to build the request.
    if (!isLoopbackHost(req.headers.host, port)) req.headers.host = "not-loopback.invalid";
    void serve(req, res);
  });
  return { origin, port, close };
}
