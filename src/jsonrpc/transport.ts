/**
 * The transport contract: move framed JSON-RPC messages, nothing else. Correlation, ids,
 * timeouts and cancellation live in `jsonrpc/session.ts`, never in a transport.
 */
import type { AuthInfo } from "../model/identity.js";
import type { JsonRpcMessage, RequestId } from "./messages.js";

/** What a transport knows about where an inbound message came from. */
export interface MessageExtra {
  /** Streamable HTTP: the session the message arrived on. */
  sessionId?: string;
  /** Streamable HTTP: the inbound HTTP request headers, lower-cased names. */
  headers?: Record<string, string>;
  /** Verified bearer-token information, when an auth layer sits in front of the transport. */
  authInfo?: AuthInfo;
  /**
   * Streamable HTTP with an event store: closes the connection carrying the SSE stream of the
   * POST this message came in, without ending the stream. The client reconnects with
   * `Last-Event-ID` and gets what was sent meanwhile. Absent where that is not possible.
   */
  closeSseStream?: () => void;
  /**
   * Streamable HTTP, a stateless request whose answer would be a JSON body: sends the answer on
   * an SSE stream instead, opened now, so that a wait before the answer carries keep-alives.
   * Absent where the answer streams already or the client does not accept SSE.
   */
  openSseStream?: () => void;
}

/**
 * What `Transport.send` may return for a message the transport took at once: one settled
 * promise, shared. A caller that sees it knows the write cannot fail and need not wait on it.
 */
export const SENT: Promise<void> = Promise.resolve();

/**
 * Per-message options of `Transport.send` that every transport understands. What only some
 * transports can use (Streamable HTTP's resumption and per-POST headers) is `HttpSendOptions`
 * in `src/transports/features.ts`; a transport that does not know such a field ignores it.
 */
export interface SendOptions {
  /**
   * The inbound request this outbound message belongs to. Streamable HTTP uses it to put a
   * server-to-client request or notification on the SSE stream of that request.
   */
  relatedRequestId?: RequestId;
}

/**
 * The three callbacks of a `Transport` as the methods of one object (a `JsonRpcSession` is one),
 * for `Transport.setReceiver`.
 */
export interface TransportReceiver {
  /** As `Transport.onmessage`. */
  receive(message: JsonRpcMessage | JsonRpcMessage[], extra?: MessageExtra): void;
  /** As `Transport.onerror`. */
  transportFailed(error: Error): void;
  /** As `Transport.onclose`. */
  transportClosed(): void;
}

/**
 * Moves JSON-RPC messages between two peers; implemented by stdio, Streamable HTTP and the
 * in-memory pair. A `JsonRpcSession` sets the three callbacks before calling `start`.
 *
 * This is all a transport must do. What only some can (a session id, being told the negotiated
 * revision, cancelling by ending an exchange, a handshake presumed from an earlier POST, owning
 * the process's stdout) are small optional interfaces in `src/transports/features.ts`, each with
 * a guard the protocol layer asks before using it.
 */
export interface Transport {
  /** Begins reading. Resolves once the transport can send. */
  start(): Promise<void>;
  /** Writes one message. Rejects with `SdkError("CONNECTION_CLOSED")` after close. */
  send(message: JsonRpcMessage, options?: SendOptions): Promise<void>;
  /** Closes the transport; `onclose` fires once. */
  close(): Promise<void>;

  /** One decoded message, or a JSON-RPC batch (an array) exactly as it arrived. */
  onmessage?: ((message: JsonRpcMessage | JsonRpcMessage[], extra?: MessageExtra) => void) | undefined;
  /** A non-fatal problem (a bad frame already answered, a write failure). */
  onerror?: ((error: Error) => void) | undefined;
  /** The connection is gone; fires once. */
  onclose?: (() => void) | undefined;
  /**
   * Optional: takes `receiver` in place of the three callbacks, replacing any set before. A
   * transport that holds many idle connections (a Streamable HTTP server's sessions) offers it, so
   * that a connection holds one reference instead of three functions. The callbacks still work as
   * properties: read, each hands on to the receiver (so a wrapper set around it reaches it); set,
   * it takes the receiver's place for what it hears.
   */
  setReceiver?(receiver: TransportReceiver): void;
}
