import { SdkError } from "../jsonrpc/errors.js";
import { consoleLogger, type Logger } from "../jsonrpc/logger.js";
import { checkKeyPrefix } from "./commands.js";
import { logConnection } from "./connection-log.js";
import { openRedisClient, type RedisClient } from "./driver.js";
import { closedError, storeError } from "./errors.js";
import { RedisEventStore, type RedisEventStoreOptions } from "./event-store.js";
import { RedisExpiringNotes } from "./expiring-notes.js";
import { RedisGrantStateStore } from "./grant-state-store.js";
import { RedisInteractionStore } from "./interaction-store.js";
import { RedisKeyedLock } from "./keyed-lock.js";
import { RedisMessageBus } from "./message-bus.js";
import { RedisSessionDirectory } from "./session-directory.js";

export type ConnectRedisOptions = {
  /**
   * Put before every key and bus channel, so that applications sharing one Redis keep apart;
   * printable characters without spaces, at most 200. Default `"mcp-handoff:"`.
   */
  keyPrefix?: string;
  /** Told when the connection fails or comes back, and about failed bus handlers. Default `consoleLogger()`. */
  logger?: Logger;
  /** The clock of the interaction and grant-state stores, in ms since the epoch; default `Date.now`. */
  now?: () => number;
  /** How the event store trims and keeps its streams (see `RedisEventStoreOptions`). */
  events?: Pick<RedisEventStoreOptions, "maxEventsPerStream" | "trim" | "ttlMs">;
} & (
  | {
      /**
       * `redis://[user:password@]host:port[/db]` (or `rediss://` for TLS), as ioredis takes it; the
       * password never appears in an error or a log line. The connection opened from it (and the
       * bus's second one) are closed by `close()`.
       */
      url: string;
      client?: never;
      /** ms to wait for the TCP connection before an attempt fails. Default 5000. */
      connectTimeoutMs?: number;
      /** ms a command waits for Redis's answer before it fails. Default 10000. */
      commandTimeoutMs?: number;
    }
  | {
      /**
       * An ioredis `Redis` of the application's own, which `close()` leaves open (the bus's second
       * connection, a `duplicate()` of it, is closed). Made with `enableOfflineQueue: false`,
       * calls fail at once while Redis is down; with ioredis' default, they wait for it.
       */
      client: RedisClient;
      url?: never;
    }
);

/** Every Redis engine on one connection and one key prefix. */
export interface RedisStores {
  interactions: RedisInteractionStore;
  eventStore: RedisEventStore;
  bus: RedisMessageBus;
  sessions: RedisSessionDirectory;
  locks: RedisKeyedLock;
  grantStates: RedisGrantStateStore;
  notes: RedisExpiringNotes;
  /** The connection the engines share (as the engines reach it: refusing every command after `close()`). */
  client: RedisClient;
  /**
   * Closes the bus and, when `connectRedis` opened it, the connection; afterwards every call of
   * the engines rejects with SdkError "CONNECTION_CLOSED".
   */
  close(): Promise<void>;
}

/**
 * Opens (or takes) a connection to Redis and builds every Redis engine on it. A connection that
 * `connectRedis` opens is ready when it resolves; after an outage it reconnects by itself (with
 * growing pauses, up to 2 s), and the same engines serve again, the bus subscribed again to its
 * channels. Meanwhile calls reject with SdkError "STORE_UNAVAILABLE" rather than wait.
 * @throws SdkError "INVALID_ARGUMENT" when the key prefix or the URL is malformed (nothing is
 *   connected, and the message shows no part of the URL); SdkError "DEPENDENCY_MISSING" when a URL
 *   is given and ioredis is not installed; SdkError "STORE_UNAVAILABLE" when Redis cannot be
 *   reached (or refuses the login) at first.
 */
export async function connectRedis(options: ConnectRedisOptions): Promise<RedisStores> {
  const keyPrefix = checkKeyPrefix(options.keyPrefix);
  const logger = options.logger ?? consoleLogger();
  let client: RedisClient;
  let owned: boolean;
  if (options.client !== undefined) {
    client = options.client;
    owned = false;
  } else {
    checkUrl(options.url);
    client = await openRedisClient(options.url, {
      lazyConnect: true,
      connectTimeout: options.connectTimeoutMs ?? 5_000,
      commandTimeout: options.commandTimeoutMs ?? 10_000,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      autoResubscribe: true,
    });
    owned = true;
  }
  const health = logConnection(client, logger, "connection");
  if (owned) {
    try {
      await client.connect();
    } catch (error) {
      client.disconnect();
      health.stop();
      throw storeError(health.lastError ?? error, "connect");
    }
  }
  let closed = false;
  const shared = guardedClient(client, () => closed);
  const engine = { client: shared, keyPrefix };
  const bus = new RedisMessageBus({ ...engine, logger });
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      closed = true;
      await bus.close();
      if (owned) await client.quit().catch(() => client.disconnect());
      health.stop();
    })();
    return closing;
  };
  return {
    interactions: new RedisInteractionStore({ ...engine, now: options.now }),
    eventStore: new RedisEventStore({ ...engine, ...options.events }),
    bus,
    sessions: new RedisSessionDirectory(engine),
    locks: new RedisKeyedLock({ ...engine, logger }),
    grantStates: new RedisGrantStateStore({ ...engine, now: options.now }),
    notes: new RedisExpiringNotes(engine),
    client: shared,
    close,
  };
}

/** The client as the engines see it: every command refused with CONNECTION_CLOSED once `closed()` says so. */
function guardedClient(client: RedisClient, closed: () => boolean): RedisClient {
  return {
    get status() {
      return closed() ? "end" : client.status;
    },
    call: (command, ...args) => (closed() ? Promise.reject(closedError(command)) : client.call(command, ...args)),
    connect: () => client.connect(),
    duplicate: () => client.duplicate(),
    subscribe: (...channels) => client.subscribe(...channels),
    unsubscribe: (...channels) => client.unsubscribe(...channels),
    quit: () => client.quit(),
    disconnect: () => client.disconnect(),
    on: ((event: "error", listener: (error: Error) => void) => client.on(event, listener)) as RedisClient["on"],
    removeListener: ((event: "error", listener: (error: Error) => void) =>
      client.removeListener(event, listener)) as RedisClient["removeListener"],
  };
}

/** @throws SdkError "INVALID_ARGUMENT", without the URL or a cause (which would carry it). */
function checkUrl(url: unknown): asserts url is string {
  if (typeof url !== "string" || url === "") {
    throw new SdkError("INVALID_ARGUMENT", "connectRedis needs a url or a client.");
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new SdkError("INVALID_ARGUMENT", "The Redis URL is not a valid URL (redis://user:password@host:port/db).");
  }
  if (parsed.protocol !== "redis:" && parsed.protocol !== "rediss:") {
    throw new SdkError("INVALID_ARGUMENT", "The Redis URL must start with redis:// or rediss://.");
  }
}
