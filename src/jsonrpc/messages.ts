/**
 * JSON-RPC 2.0 message shapes as MCP uses them (spec: basic/index § Messages).
 * These are wire-neutral: every protocol revision frames messages the same way.
 */

/** A request id. `0` and `""` are valid ids: never test an id for truthiness. */
export type RequestId = string | number;

/** A request: the peer answers it with exactly one response carrying the same `id`. */
export interface JsonRpcRequest {
  jsonrpc: "2.0";
  /** Chosen by the sender, unique among its requests in flight; never `null`. */
  id: RequestId;
  /** E.g. `tools/call`. */
  method: string;
  /** Always an object in MCP (never a positional array). */
  params?: Record<string, unknown>;
}

/** A notification: no `id`, and never answered. */
export interface JsonRpcNotification {
  jsonrpc: "2.0";
  /** E.g. `notifications/progress`. */
  method: string;
  /** Always an object in MCP. */
  params?: Record<string, unknown>;
}

/** A successful response to the request with the same `id`. */
export interface JsonRpcResultResponse {
  jsonrpc: "2.0";
  /** The `id` of the request answered, with the same type (`1` and `"1"` are different ids). */
  id: RequestId;
  /** Always an object in MCP (`{}` for an acknowledgement). */
  result: Record<string, unknown>;
}

/** The `error` member of an error response. */
export interface JsonRpcErrorObject {
  /** A JSON-RPC or MCP error code, e.g. -32602 (see `ErrorCode`). */
  code: number;
  /** One short sentence. */
  message: string;
  /** Anything the receiver may use, e.g. the elicitations of -32042. */
  data?: unknown;
}

/** A failed request (or an unreadable message, then with `id: null`). */
export interface JsonRpcErrorResponse {
  jsonrpc: "2.0";
  /** `null` only when the request id could not be read (parse error, invalid request). */
  id: RequestId | null;
  error: JsonRpcErrorObject;
}

/** Either kind of response. */
export type JsonRpcResponse = JsonRpcResultResponse | JsonRpcErrorResponse;
/** Any single JSON-RPC message (a batch is an array of these). */
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

/** Has a `method` and an `id`. Assumes a message already checked by `decodeFrame`. */
export function isRequest(m: JsonRpcMessage): m is JsonRpcRequest {
  return "method" in m && "id" in m;
}

/** Has a `method` and no `id`. */
export function isNotification(m: JsonRpcMessage): m is JsonRpcNotification {
  return "method" in m && !("id" in m);
}

/** Has no `method`, and a `result` or an `error`. */
export function isResponse(m: JsonRpcMessage): m is JsonRpcResponse {
  return !("method" in m) && ("result" in m || "error" in m);
}

/** A response with an `error`. */
export function isErrorResponse(m: JsonRpcMessage): m is JsonRpcErrorResponse {
  return isResponse(m) && "error" in m;
}

/** A string or a finite number: what JSON-RPC allows as a request id (MCP forbids `null`). */
export function isRequestId(value: unknown): value is RequestId {
  return typeof value === "string" || (typeof value === "number" && Number.isFinite(value));
}
