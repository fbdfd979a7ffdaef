/**
 * Where the sessions of a Streamable HTTP server are known to every instance of a fleet
 * (spec 2025-11-25: basic/transports § Session Management). An instance that receives a request
 * for a session it does not hold finds the session's negotiated state here and serves the request
 * as if it had answered the `initialize` itself.
 */

/** What `initialize` agreed for one session, and what the client changed since. */
export interface SessionRecord {
  /** The revision `initialize` agreed, as sent in `MCP-Protocol-Version`. */
  protocolVersion: string;
  /** What the client declared in `initialize`. */
  clientCapabilities: Record<string, unknown>;
  /** The client's `clientInfo` from `initialize`. */
  clientInfo: { name: string; version: string; [key: string]: unknown };
  /** The level of the last `logging/setLevel`, if any. */
  logLevel?: string;
  /** URIs of `resources/subscribe` still in force. */
  subscriptions: string[];
  /** Who opened the session (`sessionOwner` of its `initialize`); only they may use it. */
  owner?: string;
  /**
   * The event id (in the shared event store) that marks the start of the session's GET stream: a
   * GET opened without `Last-Event-ID` on any instance gets what was stored after it. An engine
   * must keep it as given; without it such a GET gets only what is sent from then on.
   */
  streamStart?: string;
}

/** One change a session's client made after `initialize`. */
export type SessionChange = { logLevel: string } | { subscribe: string } | { unsubscribe: string };

/**
 * The directory of open sessions, shared by every instance (Redis for a fleet, memory for one
 * process). Records expire when no instance touched them for their TTL.
 */
export interface SessionDirectory {
  /** Creates or replaces the record of `sessionId`, kept for `ttlMs` (ms) after its last touch. */
  put(sessionId: string, record: SessionRecord, ttlMs: number): Promise<void>;
  /** The record, or `undefined` when the session is unknown, ended or expired. */
  get(sessionId: string): Promise<SessionRecord | undefined>;
  /**
   * Applies one change atomically, so that two instances changing one session at once lose
   * neither change. @returns `false` when the session is unknown (nothing is stored then).
   */
  update(sessionId: string, change: SessionChange): Promise<boolean>;
  /** Keeps the record for another `ttlMs` (ms). @returns `false` when the session is unknown. */
  touch(sessionId: string, ttlMs: number): Promise<boolean>;
  /** Ends the session everywhere. @returns whether it was known. */
  delete(sessionId: string): Promise<boolean>;
  /**
   * The ids of the open sessions whose `subscriptions` hold `uri`, so that the instance where the
   * resource changed tells each of them (`notifications/resources/updated`, spec 2025-11-25:
   * server/resources § Subscriptions), held there or not. Optional: without it an instance tells
   * only the sessions it holds a replica of.
   */
  subscribedTo?(uri: string): Promise<string[]>;
}
