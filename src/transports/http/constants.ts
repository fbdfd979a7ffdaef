/**
 * Names and defaults of the Streamable HTTP transport (spec: basic/transports § Streamable HTTP).
 * Header names are lower-case because `Headers` compares them case-insensitively anyway.
 */

export const SESSION_ID_HEADER = "mcp-session-id";
export const PROTOCOL_VERSION_HEADER = "mcp-protocol-version";
export const LAST_EVENT_ID_HEADER = "last-event-id";

export const JSON_MEDIA_TYPE = "application/json";
export const SSE_MEDIA_TYPE = "text/event-stream";

/** 4 MiB: generous for any MCP message, small enough that one client cannot exhaust memory. */
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

/**
 * Revisions whose `MCP-Protocol-Version` header the server accepts by default. Only the header's
 * syntax is judged here; which revision is negotiated is decided by the protocol layer.
 */
export const DEFAULT_PROTOCOL_VERSIONS: readonly string[] = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];

/**
 * JSON-RPC code for transport-level refusals that are not about the message itself
 * (forbidden origin, unknown session, method not allowed): the implementation-defined
 * server-error range of JSON-RPC 2.0.
 */
export const TRANSPORT_ERROR_CODE = -32000;
