/**
 * How the Streamable HTTP client reads what a server answers, within bounds: a JSON body no
 * larger than the client's `maxMessageBytes`, and what an error status means (the server's
 * JSON-RPC answer, an ended session, a request too large).
 */
import { ErrorCode } from "../../jsonrpc/errors.js";
import { decodeFrame } from "../../jsonrpc/frame.js";
import { isResponse, type JsonRpcMessage, type RequestId } from "../../jsonrpc/messages.js";
import { cutText } from "../../jsonrpc/text.js";
import type { HttpAnswer } from "./client-http.js";
import { StreamableHttpError } from "./errors.js";

/**
 * 16 MiB: the default largest message the client accepts from a server, in bytes (an SSE event's
 * data or a JSON body). Larger than any answer an MCP server sends in practice, small enough
 * that a remote server cannot make the client buffer without bound.
 */
export const DEFAULT_MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

/** A message from the server was over `maxMessageBytes`: it was dropped, unread past the limit. */
export class MessageTooLargeError extends StreamableHttpError {
  constructor(
    status: number | undefined,
    readonly maxMessageBytes: number,
    what: string,
  ) {
    super(
      status,
      `The server sent ${what} over the limit of ${maxMessageBytes} bytes (maxMessageBytes); it was dropped`,
    );
  }
}

/** Non-streaming decoding keeps no state between calls, so one decoder serves every answer. */
const UTF8 = new TextDecoder();

/**
 * The body as text, read to at most `maxBytes`.
 * @throws MessageTooLargeError when `Content-Length` or the bytes read pass `maxBytes`; the body is given up.
 */
export async function readBoundedText(answer: HttpAnswer, maxBytes: number): Promise<string> {
  const declared = Number(answer.header("content-length") ?? Number.NaN);
  if (declared > maxBytes) {
    await answer.cancel();
    throw new MessageTooLargeError(answer.status, maxBytes, "a JSON answer");
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  let over = false;
  await answer.read((chunk) => {
    if (over) return;
    size += chunk.byteLength;
    if (size <= maxBytes) chunks.push(chunk);
    else {
      over = true;
      void answer.cancel();
    }
  });
  if (over) throw new MessageTooLargeError(answer.status, maxBytes, "a JSON answer");
  const [first] = chunks;
  if (first === undefined) return "";
  if (chunks.length === 1) return UTF8.decode(first);
  // Joined once and decoded once, as `Response.text()` does; no Node API, so any runtime serves.
  const joined = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    joined.set(chunk, at);
    at += chunk.byteLength;
  }
  return UTF8.decode(joined);
}

/** The runtime's own UTF-8 length of a string (Node, Bun and Deno have `Buffer`), when there is one. */
const nativeUtf8Length = (globalThis as { Buffer?: { byteLength(text: string, encoding: "utf8"): number } }).Buffer
  ?.byteLength;

/**
 * Whether `text` takes more than `maxBytes` in UTF-8. Each UTF-16 code unit takes at most 3
 * bytes, so a text of at most `maxBytes / 3` units needs no count; else the runtime counts
 * natively where it can (a loop in JavaScript costs several ns per character, which a 32 MiB
 * event made the largest cost of reading it), or the code units are counted: below U+0080 1
 * byte, below U+0800 2, a surrogate (half of a pair) 2, any other 3.
 */
export function exceedsUtf8Bytes(text: string, maxBytes: number): boolean {
  if (text.length * 3 <= maxBytes) return false;
  if (text.length > maxBytes) return true;
  if (nativeUtf8Length !== undefined) return nativeUtf8Length(text, "utf8") > maxBytes;
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    bytes += unit < 0x80 ? 1 : unit < 0x800 || (unit >= 0xd800 && unit <= 0xdfff) ? 2 : 3;
    if (bytes > maxBytes) return true;
  }
  return false;
}

/** The JSON-RPC error that requests fail with when the answer owing their responses cannot give them. */
export interface AnswerFailure {
  code: number;
  message: string;
  data?: unknown;
}

/** A stream or an exchange ended before the response came. */
export const CONNECTION_CLOSED: AnswerFailure = {
  code: ErrorCode.ConnectionClosed,
  message: "The connection closed before the response arrived",
};

/** The failure for requests whose answer was over `maxMessageBytes`: -32000, naming the limit. */
export function tooLargeFailure(error: MessageTooLargeError): AnswerFailure {
  return { code: ErrorCode.ConnectionClosed, message: error.message, data: { maxMessageBytes: error.maxMessageBytes } };
}

/**
 * Reads a JSON answer within `maxBytes` and decodes it. When that fails, says what the requests
 * it owed fail with (-32700 or -32600 carrying `data.status` when it does not parse, -32000 when
 * it is too large) and what to report.
 */
export async function readJsonAnswer(
  answer: HttpAnswer,
  maxBytes: number,
): Promise<
  { frame: { messages: JsonRpcMessage[]; batch: boolean } } | { failure: AnswerFailure; problem: StreamableHttpError }
> {
  const { status } = answer;
  let text: string;
  try {
    text = await readBoundedText(answer, maxBytes);
  } catch (error) {
    if (!(error instanceof MessageTooLargeError)) throw error;
    return { failure: tooLargeFailure(error), problem: error };
  }
  const frame = decodeFrame(text);
  if (frame.ok) return { frame };
  const { code, message } = frame.error.error;
  const reason = `${message} (the server's answer, HTTP ${status})`;
  return {
    failure: { code, message: reason, data: { status } },
    problem: new StreamableHttpError(status, `The server sent a malformed message: ${reason}`),
  };
}

/** What `send` does with a POST's error status: deliver the server's answer, or reject. */
export type Refusal = { answer: JsonRpcMessage } | { error: StreamableHttpError };

/**
 * What a POST's error status means. A JSON-RPC error answering this very request (400, or 404
 * outside a session) is the server's answer, not a transport failure: the stateless era reports
 * -32022 and -32601 so. A 404 on a session means that it ended (`sessionExpired`); a 413 names
 * the server's limit when its JSON-RPC error gives one in `data.maxBytes`.
 */
export async function refusalOf(
  answer: HttpAnswer,
  post: { url: URL; requestId: RequestId | undefined; sentSession: string | undefined; body: string; maxBytes: number },
): Promise<Refusal> {
  const { status } = answer;
  const text = await readBoundedText(answer, post.maxBytes).catch(() => "");
  if (post.requestId !== undefined && (status === 400 || (status === 404 && post.sentSession === undefined))) {
    const found = errorAnswer(text, post.requestId);
    if (found !== undefined) return { answer: found };
  }
  const detail = errorDetail(text, answer.statusText);
  if (status === 413) return { error: tooLargeError(new TextEncoder().encode(post.body).byteLength, detail) };
  return { error: httpFailure(status, detail, post.url, post.sentSession !== undefined) };
}

/**
 * The error for a non-2xx answer, with what its body says. With `onSession`, a 404 means the
 * session ended (`sessionExpired`); a GET passes false, since a 404 to it may only mean "no
 * stream here".
 */
function httpFailure(status: number, detail: { text: string }, url: URL, onSession: boolean): StreamableHttpError {
  if (status === 404 && onSession) {
    return new StreamableHttpError(404, `The session has ended or expired: ${detail.text}`, { sessionExpired: true });
  }
  return new StreamableHttpError(status, `HTTP ${status} from ${url}: ${detail.text}`);
}

/**
 * Statuses of a GET that mean "no standalone stream here": 405 as the spec says, and 400, 404
 * and 406, which servers in the field answer instead.
 */
const NO_STREAM_STATUSES: ReadonlySet<number> = new Set([400, 404, 405, 406]);

/**
 * Statuses of a GET worth another try, after the reconnection back-off (`ReconnectOptions`,
 * bounded by its `maxRetries`): 5xx and 429, and 409, which a server answers while it still holds
 * the stream that the client lost without the server noticing (until it times that one out).
 */
function isTransientGetStatus(status: number): boolean {
  return status >= 500 || status === 429 || status === 409;
}

/**
 * What a GET's answer other than an SSE stream means: "retry" (5xx, 429, 409), else the stream stops,
 * with the error to report or `undefined`. The standalone stream is optional, so a status saying
 * the server offers none is no error; once the stream had been open, a refusal to reopen it is
 * reported, nothing more. A GET's 404 ends no session: only a POST's does.
 */
export async function streamRefusalOf(
  answer: HttpAnswer,
  stream: { url: URL; standalone: boolean; wasOpen: boolean; maxBytes: number },
): Promise<"retry" | StreamableHttpError | undefined> {
  const { status } = answer;
  const transient = isTransientGetStatus(status);
  if (transient || (stream.standalone && !stream.wasOpen && NO_STREAM_STATUSES.has(status))) {
    await answer.cancel();
    return transient ? "retry" : undefined;
  }
  if (!isOk(status)) {
    const text = await readBoundedText(answer, stream.maxBytes).catch(() => "");
    return httpFailure(status, errorDetail(text, answer.statusText), stream.url, false);
  }
  await answer.cancel();
  return new StreamableHttpError(status, "The server answered a GET without an SSE stream");
}

/** The news that the GET stream was opened again without `lastEventId`, after a 410 to its resumption. */
export function resumeGoneError(lastEventId: string): StreamableHttpError {
  return new StreamableHttpError(
    410,
    `The GET stream could not be resumed after event "${lastEventId}" (HTTP 410: the server no longer has the events since); it was opened again, and what the server sent meanwhile is lost`,
  );
}

/** A 2xx status, as `Response.ok` says. */
export function isOk(status: number): boolean {
  return status >= 200 && status <= 299;
}

/** The body as the JSON-RPC error response to request `id`, or `undefined`. */
function errorAnswer(text: string, id: RequestId): JsonRpcMessage | undefined {
  const frame = decodeFrame(text);
  const message = frame.ok && !frame.batch ? frame.messages[0] : undefined;
  return message !== undefined && isResponse(message) && "error" in message && message.id === id ? message : undefined;
}

/** What an error body says: its JSON-RPC error's message and `data`, or the start of its text. */
function errorDetail(text: string, statusText: string): { text: string; data?: unknown } {
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown; data?: unknown } };
    if (typeof body.error?.message === "string") return { text: body.error.message, data: body.error.data };
  } catch {
    // Not JSON: fall through to the raw text.
  }
  return { text: cutText(text, 200) || statusText };
}

/**
 * The error for a 413 answer to a request of `bodyBytes` bytes: with the server's limit when its
 * JSON-RPC error names one in `data.maxBytes`, else saying only that the request was too large.
 */
function tooLargeError(bodyBytes: number, detail: { text: string; data?: unknown }): StreamableHttpError {
  const data = detail.data as { maxBytes?: unknown } | undefined;
  const limit = typeof data?.maxBytes === "number" ? data.maxBytes : undefined;
  const said = detail.text === "" ? "" : `: ${detail.text}`;
  const message =
    limit === undefined
      ? `Request too large (HTTP 413): the server refused ${bodyBytes} bytes${said}`
      : `Request too large (HTTP 413): the server accepts at most ${limit} bytes and this request has ${bodyBytes}${said}`;
  return new StreamableHttpError(413, message);
}
