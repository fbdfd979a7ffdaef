/**
 * What some transports can do beyond the contract of `src/jsonrpc/transport.ts`: one small
 * interface per feature, each with a guard. Streamable HTTP implements most of them, stdio one;
 * the server and client connections ask the guard and use the feature only where it is there.
 */
import type { RequestId } from "../jsonrpc/messages.js";
import type { SendOptions, Transport } from "../jsonrpc/transport.js";
import type { SessionChange } from "./http/session-directory.js";

export type { SessionChange };

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
  readonly presumedHandshake: PresumedHandshakeOffer | undefined;
}

/** What a transport says of a handshake that happened on an earlier connection. */
export interface PresumedHandshakeOffer {
  /** The revision the client speaks (the `MCP-Protocol-Version` it sends, or the one agreed). */
  readonly protocolVersion?: string;
  /**
   * A fleet's session opened by `initialize` on another instance (Streamable HTTP with a session
   * directory): what that `initialize` agreed and what the client changed since. The connection
   * starts as if it had answered that `initialize` itself, in that session's revision only.
   */
  readonly session?: PresumedSession;
}

/** The negotiated state of a session as another instance recorded it (see `SessionRecord`). */
export interface PresumedSession {
  readonly clientCapabilities: Record<string, unknown>;
  readonly clientInfo: { readonly name: string; readonly version: string; readonly [key: string]: unknown };
  /** The level of the client's last `logging/setLevel`, if any. */
  readonly logLevel?: string;
  /** URIs of `resources/subscribe` still in force. */
  readonly subscriptions: readonly string[];
}

/** What `initialize` agreed, as a connection tells its shared session. */
export interface AgreedHandshake {
  /** The agreed revision. */
  readonly protocolVersion: string;
  readonly clientCapabilities: Record<string, unknown>;
  readonly clientInfo: { readonly name: string; readonly version: string; readonly [key: string]: unknown };
}

/**
 * Streamable HTTP in a fleet (`StreamableHttpServerOptions.fleet`): a session every instance can
 * serve. The connection tells it what the client agreed and changed, so that a request landing on
 * another instance is served with that state, and hears what the client changed elsewhere.
 */
export interface SharedSession {
  /**
   * Records what `initialize` agreed where every instance finds it. The `initialize` answer waits
   * for it: the client's next request may land on another instance at once.
   * @throws SdkError "STORE_UNAVAILABLE" when the session directory failed.
   */
  agreed(handshake: AgreedHandshake): Promise<void>;
  /**
   * Records one change (`logging/setLevel`, `resources/subscribe`, `resources/unsubscribe`) and
   * tells the other instances' connections of this session. The request's answer waits for it.
   * @throws SdkError "STORE_UNAVAILABLE" when the session directory or the bus failed.
   */
  changed(change: SessionChange): Promise<void>;
  /** Set by the protocol layer: a change the client made through another instance. */
  onchange: ((change: SessionChange) => void) | undefined;
  /**
   * Set by the protocol layer: this instance now holds the client's GET stream, so what the server
   * has to tell the client on its own (a hand-off's completion) should be heard here too.
   */
  onlisten: (() => void) | undefined;
  /**
   * Put before the ids of requests the server sends the client, so that the client's answer,
   * whichever instance it reaches, finds the instance that asked. Unique per instance.
   */
  readonly requestIdPrefix: string;
  /** Every session of the fleet, as this instance can serve them. */
  readonly fleet: FleetSessions;
}

/** The sessions of a fleet, as one instance can serve them (`SharedSession.fleet`). */
export interface FleetSessions {
  /**
   * Makes this instance serve session `sessionId` if it does not already: a replica made from the
   * session directory is handed to the server's `onsession`, as for a request of that session
   * landing here (spec 2025-11-25: basic/transports § Session Management). What the replica sends
   * outside a request goes to the session's shared GET stream, where the client gets it from
   * whichever instance it reaches.
   * @returns `false` when the directory does not know the session (ended, expired), it failed
   *   (reported to the server's `onerror`), or the server is closing.
   */
  replicate(sessionId: string): Promise<boolean>;
  /**
   * The ids of the fleet's sessions subscribed to `uri` (`resources/subscribe`), as the session
   * directory knows them; `undefined` when it cannot tell or failed (reported to the server's
   * `onerror`): the server then tells the sessions it holds.
   */
  subscribedTo(uri: string): Promise<readonly string[] | undefined>;
}

/** A transport whose session is shared by the instances of a fleet (`undefined` when it is not). */
export interface SharedSessionTransport {
  readonly sharedSession: SharedSession | undefined;
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
export function presumedHandshakeOf(transport: Transport): PresumedHandshakeOffer | undefined {
  return (transport as Partial<PresumedHandshakeTransport>).presumedHandshake;
}

/** The fleet session `transport` belongs to, if it is shared by several instances. */
export function sharedSessionOf(transport: Transport): SharedSession | undefined {
  return (transport as Partial<SharedSessionTransport>).sharedSession;
}

/** Whether `transport` writes to the process's own stdout. */
export function ownsStdout(transport: Transport): boolean {
  return (transport as Partial<StdoutTransport>).ownsStdout === true;
}
