/** Small builders for the HTTP answers the server writes when it refuses a request. */
import { ErrorCode } from "../../jsonrpc/errors.js";
import { encodeFrame, errorResponse } from "../../jsonrpc/frame.js";
import type { JsonRpcErrorResponse } from "../../jsonrpc/messages.js";
import { JSON_MEDIA_TYPE, TRANSPORT_ERROR_CODE } from "./constants.js";
import type { HttpReply } from "./exchange.js";

/** An HTTP error whose body is a JSON-RPC error response without a request id. */
export function httpError(status: number, code: number, message: string, headers?: Record<string, string>): HttpReply {
  return jsonResponse(status, errorResponse(null, code, message), headers);
}

/** An HTTP answer carrying a JSON body (e.g. a JSON-RPC error from `decodeFrame`). */
export function jsonResponse(
  status: number,
  body: JsonRpcErrorResponse | unknown,
  headers?: Record<string, string>,
): HttpReply {
  // Copied then set, not spread into a literal with more properties (V8's slow path; see SseSink.reply).
  const all: Record<string, string> = Object.assign({}, headers);
  all["content-type"] = JSON_MEDIA_TYPE;
  return { status, headers: all, body: encodeFrame(body) };
}

/** The HTTP answer to a POST the protocol layer refused as a whole (a batch): 400, or 500 for -32603. */
export function refusalReply(refusal: JsonRpcErrorResponse, headers: Record<string, string>): HttpReply {
  return jsonResponse(refusal.error.code === ErrorCode.InternalError ? 500 : 400, refusal, headers);
}

/** The 404 of a session this server does not know, or that is another caller's (the same answer). */
export function sessionNotFound(): HttpReply {
  return httpError(404, TRANSPORT_ERROR_CODE, "Session not found: it ended or expired; initialize a new session");
}
