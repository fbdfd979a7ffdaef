/**
 * Streamable HTTP for stateless-era requests (revision 2026-07-28: basic/transports/streamable-http):
 * one POST carries one request and its answer, with no session, no `Mcp-Session-Id`, no
 * resumability and no GET stream. The answer is a JSON body whose status follows the error
 * (400 for malformed requests and the -32020/-32021/-32022 errors, 404 for an unknown method), or an
 * SSE stream once something (progress, a log message, a subscription) is sent before it, or once
 * the server holds the answer for a while (`openSseStream`: a retry waiting for a hand-off page),
 * where the server's keep-alive sweep writes `: keep-alive` comments until the answer comes.
 */
import { ErrorCode, SdkError } from "../../../jsonrpc/errors.js";
import {
  isErrorResponse,
  isNotification,
  isRequest,
  isResponse,
  type JsonRpcMessage,
  type JsonRpcRequest,
} from "../../../jsonrpc/messages.js";
import type { MessageExtra, SendOptions, Transport } from "../../../jsonrpc/transport.js";
import {
  isStatelessRequest,
  isStatelessVersion,
  requestedVersion,
  StatelessErrorCode,
} from "../../../revisions/index.js";
import type { SessionIdTransport } from "../../features.js";
import { PROTOCOL_VERSION_HEADER, SESSION_ID_HEADER, SSE_MEDIA_TYPE } from "../constants.js";
import type { HttpReply, RequestHeaders, RequestView } from "../exchange.js";
import { acceptsMediaType } from "../headers.js";
import { jsonResponse } from "../responses.js";
import { SseSink } from "../sinks.js";

/** `Mcp-Method`: the JSON-RPC method of the body. */
export const METHOD_HEADER = "mcp-method";
/** `Mcp-Name`: the tool or prompt name, or the resource URI, of the body. */
export const NAME_HEADER = "mcp-name";

const BAD_REQUEST_CODES = new Set<number>([
  ErrorCode.ParseError,
  ErrorCode.InvalidRequest,
  ErrorCode.InvalidParams,
  StatelessErrorCode.HeaderMismatch,
  StatelessErrorCode.MissingRequiredClientCapability,
  StatelessErrorCode.UnsupportedProtocolVersion,
]);

/**
 * The request of a POST to serve statelessly: no `Mcp-Session-Id`, exactly one request, and either
 * a version in its `_meta` (or `server/discover`) or a stateless `MCP-Protocol-Version` header.
 */
export function statelessRequestOf(
  headers: RequestHeaders,
  messages: readonly JsonRpcMessage[],
): JsonRpcRequest | undefined {
  if (headers.get(SESSION_ID_HEADER) !== null || messages.length !== 1) return undefined;
  const message = messages[0];
  if (message === undefined || !isRequest(message)) return undefined;
  if (isStatelessRequest(message.method, message.params)) return message;
  return isStatelessVersion(headers.get(PROTOCOL_VERSION_HEADER)) ? message : undefined;
}

/**
 * The answer to a sessionless POST that the stateless path takes instead of letting it fall
 * through to sessions (spec 2026-07-28: basic/transports/streamable-http § Sending Messages):
 * - a JSON array while the header or a message names the stateless era: -32600, HTTP 400, since
 *   the body must be a single JSON-RPC message;
 * - a notification under a stateless `MCP-Protocol-Version` or naming a stateless version in
 *   `_meta`: 202 with no body. That revision defines no client notifications over HTTP (cancelling
 *   is closing the request's response stream), so there is nothing to do with it, and a
 *   notification the server accepts gets 202.
 * `undefined` when neither applies.
 */
export function statelessRefusal(
  headers: RequestHeaders,
  messages: readonly JsonRpcMessage[],
  batch: boolean,
): HttpReply | undefined {
  if (headers.get(SESSION_ID_HEADER) !== null) return undefined;
  const statelessHeader = isStatelessVersion(headers.get(PROTOCOL_VERSION_HEADER));
  if (batch) {
    const stateless = statelessHeader || messages.some((m) => isRequest(m) && isStatelessRequest(m.method, m.params));
    if (!stateless) return undefined;
    return jsonResponse(400, {
      jsonrpc: "2.0",
      id: null,
      error: {
        code: ErrorCode.InvalidRequest,
        message: "Invalid Request: the body must be a single JSON-RPC message, not an array",
      },
    });
  }
  const message = messages[0];
  if (message === undefined || !isNotification(message)) return undefined;
  if (!statelessHeader && !isStatelessVersion(requestedVersion(message.params))) return undefined;
  return { status: 202, headers: {} };
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const SENTINEL = /^=\?base64\?(.*)\?=$/s;

/**
 * The value an `Mcp-Name` or `Mcp-Param-*` header stands for: the UTF-8 text of a
 * `=?base64?…?=` value, else the value itself (spec 2026-07-28: basic/transports/streamable-http
 * § Value Encoding). `undefined` for a malformed Base64 value or characters a header may not carry.
 */
export function decodeHeaderValue(value: string): string | undefined {
  if (!/^[\x20-\x7e\t]*$/.test(value)) return undefined;
  const encoded = SENTINEL.exec(value)?.[1];
  if (encoded === undefined) return value;
  if (!BASE64.test(encoded)) return undefined;
  const bytes = Buffer.from(encoded, "base64");
  const text = new TextDecoder("utf-8", { fatal: true });
  try {
    return text.decode(bytes);
  } catch {
    return undefined;
  }
}

/** What `Mcp-Name` must say for `request`, or `undefined` for methods without a name. */
function nameOf(request: JsonRpcRequest): string | undefined {
  const params = request.params ?? {};
  const value = request.method === "resources/read" ? params.uri : params.name;
  if (!["tools/call", "prompts/get", "resources/read"].includes(request.method)) return undefined;
  return typeof value === "string" ? value : undefined;
}

/**
 * The -32020 HeaderMismatch answer (HTTP 400) when a standard header is missing or disagrees with
 * the body: `MCP-Protocol-Version` with `_meta`'s version, `Mcp-Method` with the method, `Mcp-Name`
 * (decoded) with the name or URI. A body naming no version under a stateless header gets -32602.
 */
export function headerMismatch(headers: RequestHeaders, request: JsonRpcRequest): HttpReply | undefined {
  const problems: string[] = [];
  const version = headers.get(PROTOCOL_VERSION_HEADER);
  const inBody = requestedVersion(request.params);
  if (version === null) problems.push("the MCP-Protocol-Version header is missing");
  else if (inBody === undefined) {
    // A stateless request must name its version in _meta; its absence is invalid params (as the
    // official suite checks), not a mismatch between two versions.
    if (isStatelessVersion(version)) return missingVersion(request);
  } else if (version !== inBody) {
    problems.push(`MCP-Protocol-Version "${version}" differs from _meta's "${inBody}"`);
  }
  const method = headers.get(METHOD_HEADER);
  if (method === null) problems.push("the Mcp-Method header is missing");
  else if (method !== request.method) {
    problems.push(`Mcp-Method "${method}" differs from the body's "${request.method}"`);
  }
  const name = headers.get(NAME_HEADER);
  const expected = nameOf(request);
  if (expected !== undefined) {
    const decoded = name === null ? undefined : decodeHeaderValue(name);
    if (name === null) problems.push("the Mcp-Name header is missing");
    else if (decoded !== expected) problems.push(`Mcp-Name "${name}" differs from the body's "${expected}"`);
  }
  if (problems.length === 0) return undefined;
  return jsonResponse(400, {
    jsonrpc: "2.0",
    id: request.id,
    error: { code: StatelessErrorCode.HeaderMismatch, message: `Header mismatch: ${problems.join("; ")}` },
  });
}

/** -32602 (HTTP 400): a request under a stateless `MCP-Protocol-Version` whose `_meta` names no version. */
function missingVersion(request: JsonRpcRequest): HttpReply {
  return jsonResponse(400, {
    jsonrpc: "2.0",
    id: request.id,
    error: {
      code: ErrorCode.InvalidParams,
      message: "Invalid params: _meta must carry io.modelcontextprotocol/protocolVersion on this protocol version",
    },
  });
}

/** The HTTP status of a JSON-RPC answer sent as a JSON body. */
function statusOf(message: JsonRpcMessage): number {
  if (!isErrorResponse(message)) return 200;
  if (message.error.code === ErrorCode.MethodNotFound) return 404;
  return BAD_REQUEST_CODES.has(message.error.code) ? 400 : 200;
}

/**
 * What the client's `Accept` allows for one stateless POST: one JSON body, an SSE stream, or
 * either (then JSON unless something precedes the answer).
 */
export type StatelessAnswer = "json" | "sse" | "either";

/**
 * The transport of one stateless POST: it delivers the request once started and closes after
 * the answer. Handed to `StreamableHttpServerOptions.onrequest`.
 */
export class StatelessRequestTransport implements Transport, SessionIdTransport {
  onmessage?: (message: JsonRpcMessage | JsonRpcMessage[], extra?: MessageExtra) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  readonly sessionId = undefined;
  /** @internal The answer to the POST: a JSON body, 202, or an SSE stream once something precedes the answer. */
  readonly reply: Promise<HttpReply>;
  #resolve!: (reply: HttpReply) => void;
  #stream: SseSink | undefined;
  #answered = false;
  #closed = false;

  /**
   * `signal` aborting (the client went away) closes the transport. With `answer: "json"` what the
   * server sends before the answer has no stream to travel on and is dropped. `onended` runs once
   * on close, before `onclose`, so the HTTP server forgets the transport.
   */
  constructor(
    private readonly request: JsonRpcRequest,
    private readonly extra: MessageExtra,
    signal?: AbortSignal,
    private readonly answer: StatelessAnswer = "either",
    private readonly onended?: (transport: StatelessRequestTransport) => void,
  ) {
    this.reply = new Promise((resolve) => {
      this.#resolve = resolve;
    });
    signal?.addEventListener("abort", () => void this.close(), { once: true });
  }

  async start(): Promise<void> {}

  /**
   * Hands the request to the protocol layer (after `start`); not once closed, as when its client
   * already left. A client that accepts SSE can have the answer streamed before it is ready
   * (`openSseStream`), so that a server waiting on the user keeps the response alive.
   */
  deliver(): void {
    if (this.#closed) return;
    // The extra belongs to this POST alone, and its headers are read through a getter: set, not spread.
    if (acceptsMediaType(this.extra.headers?.accept ?? null, SSE_MEDIA_TYPE)) {
      this.extra.openSseStream = () => this.#streamEarly();
    }
    this.onmessage?.(this.request, this.extra);
  }

  /** Opens the SSE stream before the answer, unless the exchange already ended or was answered. */
  #streamEarly(): void {
    if (!this.#closed && !this.#answered) this.#openStream();
  }

  async send(message: JsonRpcMessage, _options?: SendOptions): Promise<void> {
    if (this.#closed) throw new SdkError("CONNECTION_CLOSED", "The request's HTTP exchange has ended");
    const final = isResponse(message) && message.id === this.request.id;
    if (this.#stream === undefined && final && this.answer !== "sse") {
      this.#answered = true;
      this.#resolve(jsonResponse(statusOf(message), message));
      await this.close();
      return;
    }
    if (!final && this.answer === "json") return;
    this.#openStream().write(message);
    if (final) {
      this.#answered = true;
      await this.close();
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#stream?.end();
    if (this.#stream === undefined && !this.#answered) this.#resolve({ status: 202, headers: {} });
    this.onended?.(this);
    this.onclose?.();
  }

  #openStream(): SseSink {
    if (this.#stream !== undefined) return this.#stream;
    const stream = new SseSink(() => void this.close());
    this.#stream = stream;
    this.#resolve(stream.reply({}, "no-cache"));
    return stream;
  }
}

/**
 * Serves one stateless POST through `connect` (the application's `onrequest`). Its transport is in
 * `open` until it closes, so that the server can end it when the server closes.
 */
export async function serveStatelessPost(
  request: RequestView,
  message: JsonRpcRequest,
  extra: MessageExtra,
  connect: (transport: Transport) => unknown,
  answer: StatelessAnswer = "either",
  open?: Set<StatelessRequestTransport>,
): Promise<HttpReply> {
  const mismatch = headerMismatch(request.headers, message);
  if (mismatch) return mismatch;
  const transport = new StatelessRequestTransport(message, extra, undefined, answer, (ended) => open?.delete(ended));
  open?.add(transport);
  request.onAbort(() => void transport.close());
  try {
    await connect(transport);
  } catch (error) {
    await transport.close();
    throw error;
  }
  transport.deliver();
  return transport.reply;
}
