/**
 * Timeouts for the `node:http` server in front of `toNodeHandler`. A handler runs only once the
 * request's headers are in, so only the server can bound how long a client takes to send them;
 * Node's own defaults (60 s for headers, 300 s for the whole request, checked every 30 s) let a
 * slow-loris client hold a connection for minutes.
 */
import type { ServerOptions } from "node:http";
import { MAX_TIMER_MS } from "./constants.js";

/** Options of `nodeServerOptions`, all in ms. */
export interface NodeServerTimeouts {
  /** Until the request's headers are in; then Node answers 408 and closes. Default 10,000. */
  headersTimeoutMs?: number;
  /**
   * Until the whole request (headers and body) is in; a backstop behind the endpoint's own
   * `bodyTimeoutMs`, which answers with a JSON-RPC error first. It does not limit responses, so
   * SSE streams are not cut. Default 60,000; at least `headersTimeoutMs`.
   */
  requestTimeoutMs?: number;
  /** An idle keep-alive connection is closed after this. Default 5,000 (Node's). */
  keepAliveTimeoutMs?: number;
  /** How often Node checks the two timeouts above, so how late it may enforce them. Default 1,000. */
  checkIntervalMs?: number;
}

/**
 * Options for `http.createServer` (or `https.createServer`) that bound how long a client may take
 * to send a request: `createServer(nodeServerOptions(), toNodeHandler(endpoint))`. An Express app
 * is a request listener too: `createServer(nodeServerOptions(), app).listen(port)`.
 * @throws TypeError for a value that is not an integer from 1 to 2,147,483,647, or a
 *   `requestTimeoutMs` shorter than `headersTimeoutMs` (Node refuses that).
 */
export function nodeServerOptions(timeouts: NodeServerTimeouts = {}): ServerOptions {
  const headers = checked("headersTimeoutMs", timeouts.headersTimeoutMs ?? 10_000);
  const request = checked("requestTimeoutMs", timeouts.requestTimeoutMs ?? Math.max(60_000, headers));
  if (request < headers) {
    throw new TypeError(`requestTimeoutMs (${request}) must not be shorter than headersTimeoutMs (${headers})`);
  }
  return {
    headersTimeout: headers,
    requestTimeout: request,
    keepAliveTimeout: checked("keepAliveTimeoutMs", timeouts.keepAliveTimeoutMs ?? 5_000),
    connectionsCheckingInterval: checked("checkIntervalMs", timeouts.checkIntervalMs ?? 1_000),
  };
}

function checked(name: string, value: number): number {
  if (!(Number.isSafeInteger(value) && value >= 1 && value <= MAX_TIMER_MS)) {
    throw new TypeError(`${name} must be an integer from 1 to ${MAX_TIMER_MS}, got ${value}`);
  }
  return value;
}
