/** The error responses a `JsonRpcSession` answers with itself, when no handler can. */
import { ErrorCode } from "./errors.js";
import { errorResponse } from "./frame.js";
import type { JsonRpcErrorResponse, RequestId } from "./messages.js";

/** A batch (array) that the session's gate does not accept: -32600, with no id. */
export function batchRefused(): JsonRpcErrorResponse {
  return errorResponse(
    null,
    ErrorCode.InvalidRequest,
    "Invalid Request: this protocol revision does not accept JSON-RPC batches",
  );
}

/** A request whose id is already used by a request in flight: -32600. */
export function idInUse(id: RequestId): JsonRpcErrorResponse {
  return errorResponse(
    id,
    ErrorCode.InvalidRequest,
    `Invalid Request: id ${JSON.stringify(id)} is already in use by a request in flight`,
  );
}

/** A request that no handler serves: -32601. */
export function methodNotFound(id: RequestId, method: string): JsonRpcErrorResponse {
  return errorResponse(id, ErrorCode.MethodNotFound, `Method not found: ${method}`);
}

/** A handler that returned no result object, or a gate that failed: -32603, whose cause stays on this side. */
export function internalError(id: RequestId): JsonRpcErrorResponse {
  return errorResponse(id, ErrorCode.InternalError, "Internal error");
}
