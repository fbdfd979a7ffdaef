/**
 * Turns one frame of text (a stdio line, an HTTP body) into JSON-RPC messages, or into the
 * error response the spec prescribes (-32700 for bad JSON, -32600 for a bad shape); and a message
 * into the well-formed JSON text every transport sends.
 */
import { ErrorCode } from "./errors.js";
import { noteWritten, searchWorthwhile, spliceLargeStrings } from "./large-strings.js";
import { isRequestId, type JsonRpcErrorResponse, type JsonRpcMessage } from "./messages.js";
import { wellFormedJson } from "./well-formed.js";

export { wellFormedJson };

/**
 * `value` (a message, a batch, an error response) as JSON text for the wire, with U+FFFD for each
 * lone UTF-16 surrogate in its strings: JSON.stringify writes those as `\udXXX` escapes, which
 * strict JSON readers refuse and no UTF-8 can carry. Costs one search of the text beyond
 * JSON.stringify when there is none. While large messages are being written (see `searchWorthwhile`),
 * a string of 1 Mi code units or more that needs no escape is joined into the text as it is rather
 * than copied through JSON.stringify (see large-strings.ts).
 * @throws what JSON.stringify throws (a cycle, a BigInt).
 */
export function encodeFrame(value: unknown): string {
  const text = (searchWorthwhile() ? spliceLargeStrings(value) : undefined) ?? wellFormedJson(JSON.stringify(value));
  noteWritten(text.length);
  return text;
}

/**
 * What `decodeFrame` makes of a frame: the messages (with `batch` telling whether they came as a
 * JSON array), or the JSON-RPC error response to write back.
 */
export type DecodedFrame =
  | { ok: true; messages: JsonRpcMessage[]; batch: boolean }
  | { ok: false; error: JsonRpcErrorResponse };

/**
 * Parses one frame. Never throws: invalid JSON gives a -32700 error response with `id: null`; a
 * value that is not a JSON-RPC 2.0 message, or an empty batch, gives -32600 (with the message's
 * `id` when it could be read). Spec: basic/index § Messages; JSON-RPC 2.0 § 5.1.
 */
export function decodeFrame(text: string): DecodedFrame {
  const read = readFrame(text);
  if (read instanceof InvalidFrame) return { ok: false, error: read.error };
  return Array.isArray(read) ? { ok: true, messages: read, batch: true } : { ok: true, messages: [read], batch: false };
}

/** A frame `readFrame` could not read: the JSON-RPC error response to write back. */
export class InvalidFrame {
  constructor(readonly error: JsonRpcErrorResponse) {}
}

/**
 * `decodeFrame` without the wrapper: the message, the batch (an array, never empty) as it
 * arrived, or an `InvalidFrame`. Never throws; the errors are those of `decodeFrame`.
 */
export function readFrame(text: string): JsonRpcMessage | JsonRpcMessage[] | InvalidFrame {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return new InvalidFrame(errorResponse(null, ErrorCode.ParseError, "Parse error: the message is not valid JSON"));
  }
  if (Array.isArray(value)) {
    if (value.length === 0) {
      return new InvalidFrame(errorResponse(null, ErrorCode.InvalidRequest, "Invalid Request: empty batch"));
    }
    const messages: JsonRpcMessage[] = [];
    for (const item of value) {
      const checked = checkMessage(item);
      if (typeof checked === "string") {
        return new InvalidFrame(errorResponse(idOf(item), ErrorCode.InvalidRequest, checked));
      }
      messages.push(checked);
    }
    return messages;
  }
  const checked = checkMessage(value);
  if (typeof checked === "string")
    return new InvalidFrame(errorResponse(idOf(value), ErrorCode.InvalidRequest, checked));
  return checked;
}

/** Returns the message, or a sentence saying what is wrong with it. */
export function checkMessage(value: unknown): JsonRpcMessage | string {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return "Invalid Request: a message must be a JSON object";
  }
  const m = value as Record<string, unknown>;
  if (m.jsonrpc !== "2.0") return 'Invalid Request: "jsonrpc" must be "2.0"';
  if ("method" in m) {
    if (typeof m.method !== "string") return 'Invalid Request: "method" must be a string';
    if ("params" in m && (typeof m.params !== "object" || m.params === null || Array.isArray(m.params))) {
      return 'Invalid Request: "params" must be an object';
    }
    if ("id" in m && !isRequestId(m.id)) return 'Invalid Request: "id" must be a string or a number';
    return m as unknown as JsonRpcMessage;
  }
  if ("result" in m || "error" in m) {
    if ("result" in m && "error" in m) return "Invalid Request: a response has either result or error";
    if (!isRequestId(m.id) && !("error" in m && m.id === null)) return 'Invalid Request: a response needs an "id"';
    if ("result" in m && (typeof m.result !== "object" || m.result === null)) {
      return 'Invalid Request: "result" must be an object';
    }
    if ("error" in m) {
      const e = m.error as Record<string, unknown> | null;
      if (typeof e !== "object" || e === null || typeof e.code !== "number" || typeof e.message !== "string") {
        return 'Invalid Request: "error" needs a numeric code and a message';
      }
    }
    return m as unknown as JsonRpcMessage;
  }
  return "Invalid Request: not a request, notification or response";
}

function idOf(value: unknown): JsonRpcErrorResponse["id"] {
  if (typeof value === "object" && value !== null && "id" in value) {
    const id = (value as { id: unknown }).id;
    if (isRequestId(id)) return id;
  }
  return null;
}

export function errorResponse(
  id: JsonRpcErrorResponse["id"],
  code: number,
  message: string,
  data?: unknown,
): JsonRpcErrorResponse {
  return { jsonrpc: "2.0", id, error: data === undefined ? { code, message } : { code, message, data } };
}
