/**
 * JSON-RPC 2.0 message shapes as MCP uses them (spec: basic/index § Messages).
 * These are wire-neutral: every protocol revision frames messages the same way.
 */

/** A request id. `0` and `""` are valid ids: never test an id for truthiness. */
export type RequestId = string | number;

export interface JsonRpcRequest {
  jsonrpc: "2.0";
  id: RequestId;
  method: string;
  params?: Record<string, unknown>;
}

export interface JsonRpcNotification {
  jsonrpc: "2.0";
  method: string;
  params?: Record<string, unknown>;
}

export interface JsonRpcResultResponse {
  jsonrpc: "2.0";
  id: RequestId;
  result: Record<string, unknown>;
}

export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

export interface JsonRpcErrorResponse {
  jsonrpc: "2.0";
  /** `null` only when the request id could not be read (parse error, invalid request). */
  id: RequestId | null;
  error: JsonRpcErrorObject;
}

export type JsonRpcResponse = JsonRpcResultResponse | JsonRpcErrorResponse;
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

export function isRequest(m: JsonRpcMessage): m is JsonRpcRequest {
  return "method" in m && "id" in m;
}

export function isNotification(m: JsonRpcMessage): m is JsonRpcNotification {
  return "method" in m && !("id" in m);
}

export function isResponse(m: JsonRpcMessage): m is JsonRpcResponse {
  return !("method" in m) && ("result" in m || "error" in m);
}

export function isErrorResponse(m: JsonRpcMessage): m is JsonRpcErrorResponse {
  return isResponse(m) && "error" in m;
}

export function isRequestId(value: unknown): value is RequestId {
  return typeof value === "string" || (typeof value === "number" && Number.isFinite(value));
}
