/**
 * The message bus every instance of a server shares: small messages on named channels, delivered
 * to whichever instances subscribed (an interaction's change, a message for a session's stream, a
 * grant revoked). Delivery is at most once: a subscriber that is not listening when a message is
 * published never sees it, so anything that must survive is written to a store first.
 */
export interface MessageBus {
  /** Sends `message` to every current subscriber of `channel`, on every instance. */
  publish(channel: string, message: string): Promise<void>;
  /** @returns a function that unsubscribes. */
  subscribe(channel: string, handler: (message: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}
