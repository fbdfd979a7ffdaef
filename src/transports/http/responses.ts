/** Small builders for the HTTP responses the server writes when it refuses a request. */
import { errorResponse } from "../../jsonrpc/frame.js";
import type { JsonRpcErrorResponse } from "../../jsonrpc/messages.js";
import { JSON_MEDIA_TYPE } from "./constants.js";

/** An HTTP error whose body is a JSON-RPC error response without a request id. */
export function httpError(status: number, code: number, message: string, headers?: Record<string, string>): Response {
  return jsonResponse(status, errorResponse(null, code, message), headers);
}

/** An HTTP response carrying an already built JSON-RPC error (e.g. from `decodeFrame`). */
export function jsonResponse(
  status: number,
  body: JsonRpcErrorResponse | unknown,
  headers?: Record<string, string>,
): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { ...headers, "content-type": JSON_MEDIA_TYPE },
  });
}
