import { SdkError } from "../jsonrpc/errors.js";
import type { MessageBus } from "./types.js";

export interface InProcessMessageBusOptions {
  /**
   * Told when a handler throws or its promise rejects; the other handlers still receive the
   * message and `publish` still resolves. Defaults to `console.error` with the channel name.
   */
  onerror?: (error: unknown, channel: string) => void;
}

interface Subscription {
  handler: (message: string) => void;
}

/**
 * A `MessageBus` within one process, for a single server instance and for tests. `publish`
 * hands the message to every current subscriber of the channel, in subscription order, before
 * it resolves.
 */
export class InProcessMessageBus implements MessageBus {
  readonly #channels = new Map<string, Set<Subscription>>();
  readonly #onerror: (error: unknown, channel: string) => void;
  #closed = false;

  constructor(options: InProcessMessageBusOptions = {}) {
    this.#onerror =
      options.onerror ?? ((error, channel) => console.error(`A message bus handler on "${channel}" failed:`, error));
  }

  /** @throws SdkError "CONNECTION_CLOSED" after `close()`. */
  async publish(channel: string, message: string): Promise<void> {
    this.#assertOpen();
    const subscriptions = this.#channels.get(channel);
    if (subscriptions === undefined) return;
    for (const subscription of [...subscriptions]) {
      // A handler may unsubscribe another one; that one then misses this message too.
      if (!subscriptions.has(subscription)) continue;
      this.#deliver(subscription, channel, message);
    }
  }

  /**
   * Subscribing one handler twice delivers each message to it twice; each returned function
   * removes its own subscription and may be called more than once.
   * @throws SdkError "CONNECTION_CLOSED" after `close()`.
   */
  async subscribe(channel: string, handler: (message: string) => void): Promise<() => Promise<void>> {
    this.#assertOpen();
    const subscription: Subscription = { handler };
    let subscriptions = this.#channels.get(channel);
    if (subscriptions === undefined) {
      subscriptions = new Set();
      this.#channels.set(channel, subscriptions);
    }
    subscriptions.add(subscription);
    return async () => {
      const current = this.#channels.get(channel);
      if (current?.delete(subscription) && current.size === 0) this.#channels.delete(channel);
    };
  }

  /** Drops every subscription; later `publish` and `subscribe` calls reject. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#channels.clear();
  }

  #deliver(subscription: Subscription, channel: string, message: string): void {
    try {
      const result: unknown = subscription.handler(message);
      if (result instanceof Promise) result.catch((error: unknown) => this.#onerror(error, channel));
    } catch (error) {
      this.#onerror(error, channel);
    }
  }

  #assertOpen(): void {
    if (this.#closed) throw new SdkError("CONNECTION_CLOSED", "The message bus is closed.");
  }
}
