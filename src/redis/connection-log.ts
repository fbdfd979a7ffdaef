import type { Logger } from "../jsonrpc/logger.js";
import type { RedisClient } from "./driver.js";
import { storeError } from "./errors.js";

/** What `logConnection` learnt, and how to stop listening. */
export interface ConnectionLog {
  /** The last failure since the connection was last ready. */
  readonly lastError: Error | undefined;
  stop(): void;
}

/**
 * Logs the first failure of each outage of `client` (ioredis reports every reconnect attempt) as
 * a warning, without any password, and its return as info; `name` says which connection it is.
 * Without an `error` listener, ioredis would print every failure itself.
 */
export function logConnection(client: RedisClient, logger: Logger, name: string): ConnectionLog {
  let down = false;
  let lastError: Error | undefined;
  const onError = (error: Error): void => {
    lastError = error;
    if (down) return;
    down = true;
    logger.warn(
      { err: storeError(error, name) },
      `The ${name} to Redis failed; it is opened again as soon as Redis answers.`,
    );
  };
  const onReady = (): void => {
    lastError = undefined;
    if (!down) return;
    down = false;
    logger.info({}, `The ${name} to Redis is open again.`);
  };
  client.on("error", onError);
  client.on("ready", onReady);
  return {
    get lastError() {
      return lastError;
    },
    stop() {
      client.removeListener("error", onError);
      client.removeListener("ready", onReady);
    },
  };
}
