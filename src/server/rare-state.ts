/**
 * What a server connection keeps that few connections use, in one object made, whole, with the
 * first of it: an idle session (one open HTTP session among thousands) holds one field for all of it.
 */
import type { RequestId } from "../jsonrpc/messages.js";
import type { Revision } from "../revisions/index.js";
import type { SharedSession } from "../transports/features.js";
import type { LoggingLevel } from "./logging.js";
import type { SessionInteractions } from "./session-interactions.js";

export interface RareState {
  /** Made when first asked for: an HTTP session goes by its transport's id. */
  localId: string | undefined;
  logLevel: LoggingLevel | undefined;
  /** URL-mode elicitations not yet completed, with the request each was made in (oldest first, bounded). */
  elicitations: Map<string, RequestId> | undefined;
  /** URIs this client subscribed to with `resources/subscribe`, made on the first: most clients never subscribe. */
  subscriptions: Set<string> | undefined;
  /** The hand-offs of this connection, made when first needed: most sessions never hand off. */
  interactions: SessionInteractions | undefined;
  /** The revision of the stateless requests this connection served, if any. */
  statelessRevision: Revision | undefined;
  /** The fleet session this connection serves a replica of (Streamable HTTP with `fleet`), if any. */
  shared: SharedSession | undefined;
}

/** A connection's rare state as it is made, nothing of it set yet. */
export function newRareState(): RareState {
  return {
    localId: undefined,
    logLevel: undefined,
    elicitations: undefined,
    subscriptions: undefined,
    interactions: undefined,
    statelessRevision: undefined,
    shared: undefined,
  };
}
