/**
 * Serves any web-standard handler (`(request: Request) => Promise<Response>`, such as the connect
 * pages of `createConnectHandler`) on `node:http`, through `@remix-run/node-fetch-server`: the
 * request body streams in, the response streams out with each `Set-Cookie` kept apart, and a
 * client that leaves aborts `request.signal`. Loaded on the first request, so an MCP endpoint
 * served by `toNodeHandler(server)` never loads it.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { consoleLogger, type Logger } from "../../jsonrpc/logger.js";

/** A web-standard request handler, as `fetch` servers of every runtime take. */
export type WebHandler = (request: Request) => Promise<Response> | Response;

/** Options of `toNodeHandler(handler)`. */
export interface WebNodeHandlerOptions {
  /**
   * Where a handler that throws (or rejects) is reported, as `logger.error({ err }, "A request
   * handler failed")`; the client gets a bare 500 "Internal Server Error". Default `consoleLogger()`.
   */
  logger?: Logger;
}

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

/** A `node:http` request listener for `handler`; it never rejects. */
export function webNodeHandler(
  handler: WebHandler,
  options: WebNodeHandlerOptions = {},
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const logger = options.logger ?? consoleLogger();
  let listener: Promise<Listener> | undefined;
  const load = async (): Promise<Listener> => {
    const { createRequestListener } = await import("@remix-run/node-fetch-server");
    return createRequestListener((request: Request) => handler(request), {
      onError: (error: unknown) => {
        try {
          logger.error({ err: error }, "A request handler failed");
        } catch {
          // A logger that throws must not keep the client from its 500.
        }
      },
    });
  };
  return async (req, res) => {
    try {
      listener ??= load();
      (await listener)(req, res);
    } catch (error) {
      listener = undefined;
      logger.error({ err: error }, "The node:http adapter could not be loaded");
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
      res.end("Internal Server Error");
    }
  };
}
