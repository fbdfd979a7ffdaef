/**
 * How the Streamable HTTP client reads what a server answers, within bounds: a JSON body no
 * larger than the client's `maxMessageBytes`, and the body of an error status.
 */
import { ErrorCode } from "../../jsonrpc/errors.js";
import { decodeFrame } from "../../jsonrpc/frame.js";
import { isResponse, type JsonRpcMessage, type RequestId } from "../../jsonrpc/messages.js";
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

/**
 * The body as text, read to at most `maxBytes`.
 * @throws MessageTooLargeError when `Content-Length` or the bytes read pass `maxBytes`; the body is cancelled.
 */
export async function readBoundedText(response: Response, maxBytes: number): Promise<string> {
  const body = response.body;
  if (body === null) return "";
  const declared = Number(response.headers.get("content-length") ?? Number.NaN);
  if (declared > maxBytes) {
    await body.cancel().catch(() => {});
    throw new MessageTooLargeError(response.status, maxBytes, "a JSON answer");
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new MessageTooLargeError(response.status, maxBytes, "a JSON answer");
    }
    chunks.push(value);
  }
  // Joined once and decoded once, as `Response.text()` does; no Node API, so any runtime with fetch serves.
  const joined = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    joined.set(chunk, at);
    at += chunk.byteLength;
  }
  return new TextDecoder().decode(joined);
}

/**
 * The UTF-8 length of `text` in bytes, from its UTF-16 code units: a code unit below U+0080
 * takes 1 byte, below U+0800 2, a surrogate (half of a pair) 2, any other 3. Each unit takes at
 * most 3, so a text of at most `maxBytes / 3` units needs no count.
 */
export function exceedsUtf8Bytes(text: string, maxBytes: number): boolean {
  if (text.length * 3 <= maxBytes) return false;
  if (text.length > maxBytes) return true;
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
  response: Response,
  maxBytes: number,
): Promise<
  { frame: { messages: JsonRpcMessage[]; batch: boolean } } | { failure: AnswerFailure; problem: StreamableHttpError }
> {
  const { status } = response;
  let text: string;
  try {
    text = await readBoundedText(response, maxBytes);
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

/** The body as the JSON-RPC error response to request `id`, or `undefined`. */
export async function errorAnswer(
  response: Response,
  id: RequestId,
  maxBytes: number,
): Promise<JsonRpcMessage | undefined> {
  const frame = decodeFrame(await readBoundedText(response, maxBytes).catch(() => ""));
  const message = frame.ok && !frame.batch ? frame.messages[0] : undefined;
  return message !== undefined && isResponse(message) && "error" in message && message.id === id ? message : undefined;
}

/** What an error body says: its JSON-RPC error's message and `data`, or the start of its text. */
export async function errorDetail(response: Response, maxBytes: number): Promise<{ text: string; data?: unknown }> {
  const text = await readBoundedText(response, maxBytes).catch(() => "");
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown; data?: unknown } };
    if (typeof body.error?.message === "string") return { text: body.error.message, data: body.error.data };
  } catch {
    // Not JSON: fall through to the raw text.
  }
  return { text: text.slice(0, 200) || response.statusText };
}
