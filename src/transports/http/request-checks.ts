/**
 * The checks a Streamable HTTP server makes of a request before it reaches a session, each
 * returning the refusal it is answered with (a JSON-RPC error body), or `undefined` when it
 * passes: the method, `Accept` and `Content-Type`, `MCP-Protocol-Version`, and a body that could
 * not be read.
 * Spec: basic/transports § Streamable HTTP.
 */
import { ErrorCode } from "../../jsonrpc/errors.js";
import { errorResponse } from "../../jsonrpc/frame.js";
import { JSON_MEDIA_TYPE, PROTOCOL_VERSION_HEADER, SSE_MEDIA_TYPE, TRANSPORT_ERROR_CODE } from "./constants.js";
import type { HttpReply, RequestView } from "./exchange.js";
import { acceptsMediaType, mediaTypeOf } from "./headers.js";
import { httpError, jsonResponse } from "./responses.js";

/** Bits of what a POST's `Accept` allows (a number, so checking a POST allocates nothing). */
export const ACCEPTS_JSON = 1;
export const ACCEPTS_SSE = 2;

/**
 * What a POST's `Accept` allows, as `ACCEPTS_JSON` and `ACCEPTS_SSE` bits, or 406 when it allows
 * neither; 415 when its body is not declared `application/json`.
 */
export function checkPostHeaders(request: RequestView): number | HttpReply {
  const accept = request.headers.get("accept");
  const accepts =
    (acceptsMediaType(accept, JSON_MEDIA_TYPE) ? ACCEPTS_JSON : 0) |
    (acceptsMediaType(accept, SSE_MEDIA_TYPE) ? ACCEPTS_SSE : 0);
  if (accepts === 0) {
    return httpError(
      406,
      ErrorCode.InvalidRequest,
      "Not Acceptable: the Accept header must allow application/json or text/event-stream",
    );
  }
  if (mediaTypeOf(request.headers.get("content-type")) !== JSON_MEDIA_TYPE) {
    return httpError(415, ErrorCode.InvalidRequest, "Unsupported Media Type: the body must be application/json");
  }
  return accepts;
}

/** 406 for a GET whose `Accept` does not list `text/event-stream`. */
export function checkGetHeaders(request: RequestView): HttpReply | undefined {
  if (acceptsMediaType(request.headers.get("accept"), SSE_MEDIA_TYPE)) return undefined;
  return httpError(406, ErrorCode.InvalidRequest, "Not Acceptable: the Accept header must list text/event-stream");
}

/**
 * 400 for an `MCP-Protocol-Version` that is not one of `versions` or differs from the `negotiated`
 * one; a request without the header passes.
 */
export function checkVersion(
  request: RequestView,
  versions: readonly string[],
  negotiated: string | undefined,
): HttpReply | undefined {
  const version = request.headers.get(PROTOCOL_VERSION_HEADER);
  if (version === null) return undefined;
  if (!versions.includes(version)) {
    return httpError(
      400,
      ErrorCode.InvalidRequest,
      `Bad Request: unsupported MCP-Protocol-Version "${version}" (supported: ${versions.join(", ")})`,
    );
  }
  if (negotiated !== undefined && version !== negotiated) {
    return httpError(
      400,
      ErrorCode.InvalidRequest,
      `Bad Request: MCP-Protocol-Version "${version}" differs from the negotiated "${negotiated}"`,
    );
  }
  return undefined;
}

/**
 * The answer to a body that could not be read: 408 after `timeoutMs` (closing the connection),
 * 413 past `maxBytes` (`error.data.maxBytes`), 400 for one cut off or not UTF-8.
 */
export function bodyRefusal(
  reason: "too-large" | "not-utf8" | "incomplete" | "timeout",
  maxBytes: number,
  timeoutMs: number,
): HttpReply {
  if (reason === "timeout") {
    const message = `Request Timeout: the body did not arrive within ${timeoutMs} ms`;
    // The rest of the body may still be coming: the connection cannot carry another request.
    const error = errorResponse(null, TRANSPORT_ERROR_CODE, message, { timeoutMs });
    return jsonResponse(408, error, { connection: "close" });
  }
  if (reason === "too-large") {
    // The limit travels as `data.maxBytes`, so a client can tell its user what the server accepts.
    const message = `Payload Too Large: the body exceeds ${maxBytes} bytes`;
    return jsonResponse(413, errorResponse(null, ErrorCode.InvalidRequest, message, { maxBytes }));
  }
  // An incomplete body is a client that went away, not a server failure: nothing is reported.
  if (reason === "incomplete") return httpError(400, ErrorCode.InvalidRequest, "Bad Request: the body ended early");
  return httpError(400, ErrorCode.ParseError, "Parse error: the body is not valid UTF-8");
}

/** 405 for a method the endpoint does not serve; `stateless`: without sessions only POST is. */
export function methodNotAllowed(method: string, stateless: boolean): HttpReply {
  const allow = stateless ? "POST" : "GET, POST, DELETE";
  return httpError(405, TRANSPORT_ERROR_CODE, `Method Not Allowed: ${method} (allowed: ${allow})`, { allow });
}
