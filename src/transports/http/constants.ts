/**
 * Names and defaults of the Streamable HTTP transport (spec: basic/transports § Streamable HTTP).
 * Header names are lower-case because `Headers` compares them case-insensitively anyway.
 */
import { STATEFUL_VERSIONS } from "../../revisions/index.js";

/** `Mcp-Session-Id`: assigned by the server in the `initialize` answer, sent back on every later request. */
export const SESSION_ID_HEADER = "mcp-session-id";
/** `MCP-Protocol-Version`: the negotiated revision, sent by the client on every request after `initialize`. */
export const PROTOCOL_VERSION_HEADER = "mcp-protocol-version";
/** `Last-Event-ID`: the SSE event id a client resumes a stream after. */
export const LAST_EVENT_ID_HEADER = "last-event-id";

export const JSON_MEDIA_TYPE = "application/json";
export const SSE_MEDIA_TYPE = "text/event-stream";

/** 4 MiB: generous for any MCP message, small enough that one client cannot exhaust memory. */
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

/**
 * 16 MiB: how much of a body past the limit the server still reads and drops after answering 413,
 * so that a client which sends its whole body before reading the answer receives it (closing a
 * socket with unread input resets it, and the client loses the answer). A body longer than that
 * is cut off by closing the connection.
 */
export const MAX_DRAIN_BYTES = 16 * 1024 * 1024;

/**
 * Revisions whose `MCP-Protocol-Version` header the server accepts by default: those the
 * revision codecs speak. Which one a session uses is negotiated by the protocol layer.
 */
export const DEFAULT_PROTOCOL_VERSIONS: readonly string[] = STATEFUL_VERSIONS;

/**
 * JSON-RPC code for transport-level refusals that are not about the message itself
 * (forbidden origin, unknown session, method not allowed): the implementation-defined
 * server-error range of JSON-RPC 2.0.
 */
export const TRANSPORT_ERROR_CODE = -32000;

/**
 * 16 MiB: how many bytes of an SSE response may wait unread by the client. A client that lets
 * more pile up is not keeping up; its connection is dropped, as if it had gone away (with an
 * event store it can resume from its last event), so a stalled reader cannot exhaust memory.
 */
export const MAX_SSE_BACKLOG_BYTES = 16 * 1024 * 1024;

/**
 * ms an SSE stream may stay silent before the server writes a keep-alive comment on it: 15 s,
 * shorter than the idle timeouts of common proxies and load balancers (30–60 s).
 */
export const DEFAULT_SSE_KEEP_ALIVE_MS = 15_000;

/**
 * ms an SSE connection may stay open before the server closes it for the client to reconnect:
 * 5 minutes, so a reader that stopped reading is let go long before TCP gives up (~15 minutes).
 */
export const DEFAULT_MAX_SSE_CONNECTION_MS = 5 * 60 * 1000;

/** ms a client waits before reconnecting to a connection the server closed, when `retryIntervalMs` is unset. */
export const DEFAULT_SSE_RETRY_MS = 1000;

/** ms a client has to send a POST's body: 30 s, half of Node's default for headers alone. */
export const DEFAULT_BODY_TIMEOUT_MS = 30_000;

/** ms a session may sit idle before it ends: 30 minutes. */
export const DEFAULT_SESSION_IDLE_TIMEOUT_MS = 30 * 60 * 1000;

/** ms; the longest delay `setTimeout` waits (a longer one fires at once). */
export const MAX_TIMER_MS = 2 ** 31 - 1;
