import { SdkError } from "../jsonrpc/errors.js";
import { consoleLogger, type Logger } from "../jsonrpc/logger.js";
import type { MessageBus } from "../model/bus.js";
import { checkKeyPrefix, type RedisStoreOptions } from "./commands.js";
import { type ConnectionLog, logConnection } from "./connection-log.js";
import type { RedisClient } from "./driver.js";
import { storeError } from "./errors.js";

export interface RedisMessageBusOptions extends RedisStoreOptions {
  /**
   * Told when a handler throws or its promise rejects; the other handlers still receive the
   * message. Default: an error on `logger` naming the channel.
   */
  onerror?: (error: unknown, channel: string) => void;
  /**
   * Told when the subscribing connection fails or comes back, or a channel cannot be unsubscribed
   * at Redis. Default `consoleLogger()`.
   */
  logger?: Logger;
}

interface Subscription {
  handler: (message: string) => void;
}

interface Channel {
  readonly name: string;
  readonly subscriptions: Set<Subscription>;
  /** Settles when Redis acknowledged the `SUBSCRIBE`. */
  readonly subscribed: Promise<unknown>;
}

/**
 * A `MessageBus` on Redis pub/sub, shared by every instance connected to one Redis: `publish` is
 * one `PUBLISH` on the client, and the bus subscribes on a second connection of its own (a
 * `duplicate()` of the client, closed by `close()`), once per channel however many handlers
 * listen. Channels are named `<keyPrefix>bus:<channel>`. Delivery is at most once: what is
 * published while an instance's subscribing connection is down never reaches it; once Redis
 * answers again, the connection reconnects and subscribes its channels again by itself (ioredis'
 * `autoResubscribe`). `publish` and `subscribe` reject with SdkError "STORE_UNAVAILABLE" while
 * Redis cannot be reached, and "CONNECTION_CLOSED" after `close()`.
 */
export class RedisMessageBus implements MessageBus {
  readonly #client: RedisClient;
  readonly #prefix: string;
  readonly #onerror: (error: unknown, channel: string) => void;
  readonly #logger: Logger;
  readonly #channels = new Map<string, Channel>();
  #subscriber: RedisClient | undefined;
  #log: ConnectionLog | undefined;
  #connecting: Promise<void> | undefined;
  #closed = false;

  /** @throws SdkError "INVALID_ARGUMENT" for a bad `keyPrefix`. */
  constructor(options: RedisMessageBusOptions) {
    this.#client = options.client;
    this.#prefix = `${checkKeyPrefix(options.keyPrefix)}bus:`;
    const logger = options.logger ?? consoleLogger();
    this.#logger = logger;
    this.#onerror =
      options.onerror ??
      ((error, channel) => logger.error({ err: error, channel }, `A message bus handler on "${channel}" failed.`));
  }

  /** @throws SdkError "CONNECTION_CLOSED" after `close()`; SdkError "STORE_UNAVAILABLE" when Redis cannot be reached. */
  async publish(channel: string, message: string): Promise<void> {
    this.#assertOpen("bus.publish");
    try {
      await this.#client.call("PUBLISH", this.#prefix + channel, message);
    } catch (error) {
      throw storeError(error, "bus.publish", this.#client.status === "end");
    }
  }

  /**
   * Resolves once Redis has the subscription, so a message published afterwards (from any
   * instance) is delivered. Subscribing one handler twice delivers each message to it twice; each
   * returned function removes its own subscription and may be called more than once.
   * @throws SdkError "CONNECTION_CLOSED" after `close()`; SdkError "STORE_UNAVAILABLE" when Redis
   *   cannot be reached (nothing is subscribed).
   */
  async subscribe(channel: string, handler: (message: string) => void): Promise<() => Promise<void>> {
    this.#assertOpen("bus.subscribe");
    const name = this.#prefix + channel;
    let entry = this.#channels.get(name);
    if (entry === undefined) {
      const subscribed = this.#connect().then(() => this.#subscriber?.subscribe(name));
      entry = { name, subscriptions: new Set(), subscribed };
      this.#channels.set(name, entry);
    }
    try {
      await entry.subscribed;
    } catch (error) {
      if (this.#channels.get(name) === entry && entry.subscriptions.size === 0) this.#channels.delete(name);
      throw storeError(error, "bus.subscribe", this.#closed);
    }
    this.#assertOpen("bus.subscribe");
    const subscription: Subscription = { handler };
    entry.subscriptions.add(subscription);
    const subscribed = entry;
    return async () => {
      if (!subscribed.subscriptions.delete(subscription) || subscribed.subscriptions.size > 0) return;
      if (this.#channels.get(name) !== subscribed) return;
      this.#channels.delete(name);
      try {
        await this.#subscriber?.unsubscribe(name);
      } catch (error) {
        // Messages still coming for it find no handler; a later subscribe asks Redis again.
        if (!this.#closed) {
          this.#logger.warn(
            { err: storeError(error, "bus.unsubscribe"), channel },
            `The channel "${channel}" could not be unsubscribed at Redis; its messages are ignored.`,
          );
        }
      }
    };
  }

  /** Drops every subscription and closes the subscribing connection; later `publish` and `subscribe` calls reject. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#channels.clear();
    const subscriber = this.#subscriber;
    if (subscriber === undefined) return;
    subscriber.removeListener("message", this.#onMessage);
    await subscriber.quit().catch(() => subscriber.disconnect());
    this.#log?.stop();
  }

  /** The subscribing connection, made on the first subscription and opened if it is not yet. */
  #connect(): Promise<void> {
    let subscriber = this.#subscriber;
    if (subscriber === undefined) {
      subscriber = this.#client.duplicate();
      this.#subscriber = subscriber;
      subscriber.on("message", this.#onMessage);
      // ioredis reconnects it by itself, and subscribes its channels again.
      this.#log = logConnection(subscriber, this.#logger, "message bus's subscribing connection");
    }
    if (this.#connecting !== undefined) return this.#connecting;
    if (subscriber.status === "wait") {
      this.#connecting = subscriber.connect();
    } else if (subscriber.status === "connecting" || subscriber.status === "connect") {
      this.#connecting = untilReady(subscriber);
    } else {
      // Ready, or reconnecting: SUBSCRIBE is sent, or refused (or queued) while the connection is down.
      return Promise.resolve();
    }
    this.#connecting = this.#connecting.finally(() => {
      this.#connecting = undefined;
    });
    return this.#connecting;
  }

  readonly #onMessage = (name: string, message: string): void => {
    const entry = this.#channels.get(name);
    if (entry === undefined) return;
    const channel = name.slice(this.#prefix.length);
    for (const subscription of [...entry.subscriptions]) {
      // A handler may unsubscribe another one; that one then misses this message too.
      if (!entry.subscriptions.has(subscription)) continue;
      try {
        const result: unknown = subscription.handler(message);
        if (result instanceof Promise) result.catch((error: unknown) => this.#onerror(error, channel));
      } catch (error) {
        this.#onerror(error, channel);
      }
    }
  };

  #assertOpen(operation: string): void {
    if (this.#closed) throw new SdkError("CONNECTION_CLOSED", `The Redis message bus is closed (${operation}).`);
  }
}

/** Resolves when a connection under way is ready; rejects when it fails first. */
function untilReady(client: RedisClient): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const onReady = (): void => {
      client.removeListener("error", onError);
      resolve();
    };
    const onError = (error: Error): void => {
      client.removeListener("ready", onReady);
      reject(error);
    };
    client.on("ready", onReady);
    client.on("error", onError);
  });
}
