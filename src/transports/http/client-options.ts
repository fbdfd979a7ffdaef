/**
 * The options of the Streamable HTTP client transport, and the HTTP path they select: Node's own
 * `node:http` on Node.js, `fetch` elsewhere or when asked for.
 */
import type { DEFAULT_MAX_MESSAGE_BYTES } from "./client-answers.js";
import { fetchCarrier } from "./client-fetch.js";
import { type HttpCarrier, type HttpPath, isNodeJs, type RequestAuthorization } from "./client-http.js";
import { nodeCarrier } from "./client-node.js";
import type { ReconnectOptions } from "./client-sse.js";

/**
 * Options of `new StreamableHttpClientTransport(url, options)`. On either HTTP path, redirects
 * (301, 302, 303, 307, 308) are followed within the origin of `url` only: one to another origin
 * fails its request with a `StreamableHttpError` naming that origin, and nothing is sent there,
 * so `Authorization` and `Mcp-Session-Id` never leave it.
 */
export interface StreamableHttpClientOptions {
  /**
   * Which HTTP machinery carries the requests. `"node"`: `node:http` / `node:https` with a
   * keep-alive agent shared by the process's transports, no web streams (Node.js). `"fetch"`:
   * the `fetch` option, else the global `fetch`, for any runtime. Default: `"node"` on Node.js
   * when no `fetch` option is given, else `"fetch"`; the transport's `http` property says which.
   * @throws TypeError from the constructor for `"node"` together with a `fetch` option.
   */
  http?: HttpPath;
  /** The `fetch` of the `"fetch"` path; giving one selects that path. Default: the global `fetch`. */
  fetch?: typeof fetch;
  /**
   * Authorizes every request, on either path, e.g. `McpAuthorization` (mcp-handoff/auth): it
   * adds the access token and answers a 401 or a 403 `insufficient_scope` by authorizing again.
   */
  authorization?: RequestAuthorization;
  /**
   * Sent with every request (e.g. `Authorization`).
   * @throws TypeError from the constructor for a name or value that HTTP does not allow.
   */
  headers?: HeadersInit;
  /** Continue an existing session instead of starting one. */
  sessionId?: string;
  /** How broken SSE streams are resumed; default 3 attempts from 1,000 ms, doubling, at most 30,000 ms apart. */
  reconnect?: Partial<ReconnectOptions>;
  /** Called with each SSE event id, to pass back later as `HttpSendOptions.resumptionToken`. */
  onresumptiontoken?: (token: string) => void;
  /**
   * Largest message accepted from the server, in bytes: an SSE event's data or a JSON answer's
   * body. Default {@link DEFAULT_MAX_MESSAGE_BYTES} (16 MiB). A larger one is dropped unread past
   * the limit, its connection closed, and the requests it owed fail with a -32000 error naming
   * the limit (`data.maxMessageBytes`); it is also reported to `onerror`. On the GET stream, which
   * owes no response, such an event is skipped and reported, and the stream reads on; its id still
   * counts as the last event id, so that a resumption does not ask for it again.
   */
  maxMessageBytes?: number;
}

/**
 * What carries the requests of a transport made with `options`.
 * @throws TypeError for `http: "node"` together with a `fetch` option.
 */
export function carrierFor(options: StreamableHttpClientOptions): HttpCarrier {
  if (options.http === "node" && options.fetch !== undefined) {
    throw new TypeError('The fetch option needs http: "fetch" (or no http option); http: "node" does not use fetch');
  }
  const path = options.http ?? (options.fetch === undefined && isNodeJs() ? "node" : "fetch");
  // The global fetch is looked up per request, so that one installed later (or a test's stub) is used.
  return path === "node" ? nodeCarrier() : fetchCarrier(options.fetch ?? ((input, init) => fetch(input, init)));
}
