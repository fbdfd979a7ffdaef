/**
 * What some transports can do beyond the contract of `src/jsonrpc/transport.ts`: one small
 * interface per feature, each with a guard. Streamable HTTP implements most of them, stdio one;
 * the server and client connections ask the guard and use the feature only where it is there.
 */
import type { RequestId } from "../jsonrpc/messages.js";
import type { SendOptions, Transport } from "../jsonrpc/transport.js";

/** Streamable HTTP: the connection has an `Mcp-Session-Id` (once negotiated; `undefined` before or without). */
export interface SessionIdTransport {
  readonly sessionId: string | undefined;
}

/** Streamable HTTP: told the negotiated revision, so that every later request can carry `MCP-Protocol-Version`. */
export interface ProtocolVersionTransport {
  setProtocolVersion(version: string): void;
}

/**
 * Streamable HTTP client, stateless era: cancels request `id` by ending its own HTTP exchange
 * (closing its response stream), which is that era's cancellation signal instead of a
 * `notifications/cancelled` POST (spec 2026-07-28: basic/transports/streamable-http § Cancellation).
 */
export interface CancellingTransport {
  /** Returns whether the exchange was still open. */
  cancelRequest(id: RequestId): boolean;
}

/**
 * Streamable HTTP server without sessions (`sessionIdGenerator: undefined`): the transport
 * carries a POST of a client whose `initialize` was answered on an earlier one, and
 * `protocolVersion` is the POST's `MCP-Protocol-Version` header (absent when it sent none). The
 * protocol layer serves it as if that handshake had happened here (spec 2025-11-25:
 * basic/transports § Session Management). `undefined` when the transport carries no such POST.
 */
export interface PresumedHandshakeTransport {
  readonly presumedHandshake: { readonly protocolVersion?: string } | undefined;
}

/**
 * stdio server: whether the transport writes to the process's own stdout, where nothing but
 * JSON-RPC may be written, so a server's default logger writes to stderr.
 */
export interface StdoutTransport {
  readonly ownsStdout: boolean;
}

/** `Transport.send` options that the Streamable HTTP client reads; other transports ignore them. */
export interface HttpSendOptions extends SendOptions {
  /** The `Last-Event-ID` to resume from: the request's SSE stream is resumed with a GET instead of a POST. */
  resumptionToken?: string;
  /** Headers for this message's POST only (the stateless era's `Mcp-Method`, `Mcp-Name`, `Mcp-Param-*`). */
  headers?: Readonly<Record<string, string>>;
}

/** Whether `transport` has a session id to ask for (it may still be `undefined`). */
export function hasSessionId<T extends Transport>(transport: T | undefined): transport is T & SessionIdTransport {
  return transport !== undefined && "sessionId" in transport;
}

/** Whether `transport` wants to be told the negotiated revision. */
export function takesProtocolVersion<T extends Transport>(
  transport: T | undefined,
): transport is T & ProtocolVersionTransport {
  const setter = (transport as Partial<ProtocolVersionTransport> | undefined)?.setProtocolVersion;
  return typeof setter === "function";
}

/** Whether `transport` can cancel a request by ending its exchange. */
export function cancelsRequests<T extends Transport>(transport: T): transport is T & CancellingTransport {
  return typeof (transport as Partial<CancellingTransport>).cancelRequest === "function";
}

/** The handshake `transport` presumes from an earlier POST, if it carries one. */
export function presumedHandshakeOf(transport: Transport): { readonly protocolVersion?: string } | undefined {
  return (transport as Partial<PresumedHandshakeTransport>).presumedHandshake;
}

/** Whether `transport` writes to the process's own stdout. */
export function ownsStdout(transport: Transport): boolean {
  return (transport as Partial<StdoutTransport>).ownsStdout === true;
}
