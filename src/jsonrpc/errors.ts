/**
 * Two error families (see docs/architecture.md § Errors):
 * - `ProtocolError` crosses the wire as a JSON-RPC error object with a numeric code;
 * - `SdkError` stays local, with a stable string code, and never reaches the peer.
 */
import type { JsonRpcErrorObject } from "./messages.js";

/** JSON-RPC and MCP error codes (spec: basic/index § Error codes, client/elicitation § Error handling). */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** MCP: the resource named by `resources/read` does not exist (2024-11-05 … 2025-11-25). */
  ResourceNotFound: -32002,
  /** MCP 2025-11-25: the request needs one or more URL-mode elicitations first. */
  UrlElicitationRequired: -32042,
  /** Streamable HTTP: connection-level error codes used by the transport. */
  ConnectionClosed: -32000,
  RequestTimeout: -32001,
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** An error that is sent to (or was received from) the peer as a JSON-RPC error object. */
export class ProtocolError extends Error {
  override readonly name = "ProtocolError";
  /**
   * @param code a JSON-RPC or MCP error code (`ErrorCode`); -32000 to -32099 are implementation-defined.
   * @param message one sentence; it reaches the peer as is, so it must not carry secrets.
   * @param data sent as the error's `data`.
   */
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }

  /** The JSON-RPC error object to send: `{ code, message, data? }`. */
  toJson(): JsonRpcErrorObject {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }

  /** Rebuilds a received error; a well-formed -32042 becomes a `UrlElicitationRequiredError`. */
  static fromJson(error: JsonRpcErrorObject): ProtocolError {
    return (
      UrlElicitationRequiredError.fromErrorObject(error) ?? new ProtocolError(error.code, error.message, error.data)
    );
  }
}

/** Stable codes of local errors. They never appear on the wire. */
export type SdkErrorCode =
  | "NOT_CONNECTED"
  | "CONNECTION_CLOSED"
  | "REQUEST_TIMEOUT"
  | "REQUEST_CANCELLED"
  | "CAPABILITY_NOT_SUPPORTED"
  | "METHOD_NOT_SUPPORTED"
  | "INVALID_RESULT"
  | "INVALID_ARGUMENT"
  | "ALREADY_CONNECTED"
  | "TRANSPORT_ERROR"
  /** An optional peer dependency that the feature needs is not installed; the message names the package. */
  | "DEPENDENCY_MISSING"
  /** A stored credential cannot be decrypted: its key is not configured or wrong, or the row was altered or moved. */
  | "CREDENTIAL_UNREADABLE"
  /** A `KeyedLock` was not had within its wait: another instance holds it. */
  | "LOCK_TIMEOUT"
  /**
   * A shared engine (Redis, PostgreSQL) did not answer or refused: the message names the engine and
   * the operation, never a secret or a connection password. The instance recovers by itself once the
   * engine is back.
   */
  | "STORE_UNAVAILABLE"
  /**
   * `ctx.credentials.fetch` would have sent a credential where its provider does not allow: a host
   * not listed, plain http, user info in the URL, or a redirect to any of these. Nothing was sent there.
   */
  | "DESTINATION_REFUSED";

/**
 * A local failure: a capability the peer did not declare, a timeout, a closed connection. A local
 * family with codes of its own (`InteractionError`) derives from it with its `Code` and `name`.
 */
export class SdkError<Code extends string = SdkErrorCode> extends Error {
  override readonly name: string = "SdkError";
  /** @param options `cause`: the underlying error or the offending value. */
  constructor(
    readonly code: Code,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** One URL-mode elicitation as carried in a -32042 error (spec 2025-11-25: client/elicitation § URL Elicitation Required Error). */
export interface UrlElicitation {
  mode: "url";
  /** Unique per elicitation; `notifications/elicitation/complete` names it. */
  elicitationId: string;
  /** Where the user goes; shown in full before they consent to open it. */
  url: string;
  /** Why, for the user; never contains a URL. */
  message: string;
}

/**
 * JSON-RPC error -32042: the request can be retried once the listed URL-mode elicitations complete.
 * Thrown by a server handler, it reaches the client as this error (not as a tool result).
 */
export class UrlElicitationRequiredError extends ProtocolError {
  /** @param elicitations sent as `data.elicitations`; the client retries once they complete. */
  constructor(
    readonly elicitations: UrlElicitation[],
    message = "This request requires more information.",
  ) {
    super(ErrorCode.UrlElicitationRequired, message, { elicitations });
  }

  /** Reads a received error object; `undefined` unless it is a well-formed -32042. */
  static fromErrorObject(error: JsonRpcErrorObject): UrlElicitationRequiredError | undefined {
    if (error.code !== ErrorCode.UrlElicitationRequired) return undefined;
    const list = (error.data as { elicitations?: unknown } | undefined)?.elicitations;
    if (!Array.isArray(list)) return undefined;
    const elicitations = list.filter(
      (e): e is UrlElicitation =>
        typeof e === "object" &&
        e !== null &&
        (e as UrlElicitation).mode === "url" &&
        typeof (e as UrlElicitation).elicitationId === "string" &&
        typeof (e as UrlElicitation).url === "string" &&
        typeof (e as UrlElicitation).message === "string",
    );
    return new UrlElicitationRequiredError(elicitations, error.message);
  }
}
