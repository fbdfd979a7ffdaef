/**
 * What carries the Streamable HTTP client's requests: Node's own `node:http` / `node:https`
 * with a keep-alive agent when the code runs on Node.js, else `fetch`. The transport sees both
 * through the small interfaces below, so that neither web streams nor `Headers` objects are made
 * per request on Node.
 */

/** Which HTTP machinery a client transport uses; see `StreamableHttpClientOptions.http`. */
export type HttpPath = "node" | "fetch";

/** One HTTP request: header names lower-case, the body already encoded as JSON. */
export interface HttpRequest {
  method: "GET" | "POST" | "DELETE";
  url: URL;
  headers: Record<string, string>;
  body?: string;
}

/** The answer to one request; its body is read (or given up) once. */
export interface HttpAnswer {
  readonly status: number;
  readonly statusText: string;
  /** A header's value (several joined with ", "), or `null`; `name` lower-case. */
  header(name: string): string | null;
  /**
   * Calls `onChunk` with each piece of the body. Resolves at its end, or once `cancel()` was
   * called; rejects when the connection breaks or the exchange is aborted.
   */
  read(onChunk: (chunk: Uint8Array) => void): Promise<void>;
  /**
   * As `read`, with the body decoded as UTF-8 (a character cut between chunks is kept whole):
   * `onText` gets each piece's text and the number of bytes read with it. With `holdBytes`
   * (default 0), a path may hold the chunks of a long line that end no line (no CR, no LF), up
   * to that many bytes in all, and decode them with the next chunk that does, or at the end of
   * the body: the bulk of a line of tens of MiBs (an SSE event's data) is then decoded once, as
   * one string, rather than chunk by chunk into pieces that outgrow V8's young generation before
   * the line ends. The Node path holds (past its first 4 MiB); `fetch` decodes each chunk as it comes.
   */
  readText(onText: (text: string, bytes: number) => void, holdBytes?: number): Promise<void>;
  /** Gives the body up: what is left is dropped (a short, complete body is drained so its connection is kept). */
  cancel(): Promise<void>;
}

/** One request on its way: the answer's head, and a way to end the exchange early. */
export interface HttpExchange {
  /** Rejects when no answer came (a network failure, an abort), with the underlying error. */
  readonly answer: Promise<HttpAnswer>;
  /** Ends the exchange now: the request, or the reading of its body, is aborted. */
  abort(): void;
}

export interface HttpCarrier {
  readonly path: HttpPath;
  send(request: HttpRequest): HttpExchange;
}

/**
 * Whether this is Node.js itself: other runtimes that also define `process.versions.node` (Bun,
 * Deno) implement `node:http` on top of their `fetch`, so they take the `fetch` path.
 */
export function isNodeJs(): boolean {
  const versions = (globalThis as { process?: { versions?: Record<string, string | undefined> } }).process?.versions;
  return versions?.node !== undefined && versions.bun === undefined && versions.deno === undefined;
}

/**
 * `HeadersInit` as a record with lower-case names, made once per transport rather than a
 * `Headers` object per request. @throws TypeError for a name or value `Headers` refuses.
 */
export function headerRecord(init: HeadersInit | undefined): Record<string, string> {
  const record: Record<string, string> = {};
  if (init === undefined) return record;
  new Headers(init).forEach((value, name) => {
    record[name] = value;
  });
  return record;
}

/** What an authorization layer needs of an answer: its status, its `WWW-Authenticate`, dropping it. */
export interface AuthorizableAnswer {
  readonly status: number;
  header(name: string): string | null;
  cancel(): Promise<void>;
}

/**
 * An authorization layer for the client transport's requests, on either HTTP path:
 * `McpAuthorization` (mcp-handoff/auth) is one (spec: basic/authorization).
 */
export interface RequestAuthorization {
  /**
   * Sends one request to `url` under authorization: calls `send` with the `Authorization`
   * header value to put on it (`undefined`: none), and again with a new one after an answer it
   * could do something about (a 401, a 403 `insufficient_scope`), once it gave that answer up.
   * @returns the answer to go on with.
   */
  authorizeRequest<A extends AuthorizableAnswer>(
    url: URL,
    send: (authorization: string | undefined) => Promise<A>,
  ): Promise<A>;
}
