import { randomUUID } from "node:crypto";
import { SdkError } from "../jsonrpc/errors.js";
import { consoleLogger, type Logger } from "../jsonrpc/logger.js";
import { KeyTurns, lockTimeout } from "../stores/key-turns.js";
import type { KeyedLock, LockOptions } from "../stores/types.js";
import { luaScript, RedisCommands, type RedisStoreOptions } from "./commands.js";

export interface RedisKeyedLockOptions extends RedisStoreOptions {
  /** Told when a lease runs out while its task runs, or a release fails. Default `consoleLogger()`. */
  logger?: Logger;
}

/** Deletes the lock only while it still holds this holder's token. */
const RELEASE = luaScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`);

const OPERATION = "locks.withLock";
/** ms between the first two tries; each wait doubles, up to `MAX_RETRY_MS`, with some jitter. */
const FIRST_RETRY_MS = 5;
const MAX_RETRY_MS = 200;

/**
 * A `KeyedLock` across every instance connected to one Redis: the key
 * `<keyPrefix>lock:<key>` set with `SET … NX PX <leaseMs>` to a random token of the holder, so a
 * holder that dies (or hangs) loses the lock when its lease runs out, and released by a Lua script
 * that deletes it only while it holds that token: a late release never frees a lock another holder
 * took after the lease ran out. The callers of one instance wait in the order they asked, and only
 * the first of them asks Redis, again and again with growing pauses until it has the lock or
 * `waitMs` has passed.
 */
export class RedisKeyedLock implements KeyedLock {
  readonly #redis: RedisCommands;
  readonly #logger: Logger;
  readonly #turns = new KeyTurns();

  /** @throws SdkError "INVALID_ARGUMENT" for a bad `keyPrefix`. */
  constructor(options: RedisKeyedLockOptions) {
    this.#redis = new RedisCommands(options);
    this.#logger = options.logger ?? consoleLogger();
  }

  /**
   * @throws SdkError "LOCK_TIMEOUT" when another holder kept the lock for all of `options.waitMs`;
   *   SdkError "STORE_UNAVAILABLE" when Redis cannot be reached (the task did not run);
   *   SdkError "INVALID_ARGUMENT" when `leaseMs` or `waitMs` is not a finite number of ms `>= 0`.
   */
  async withLock<T>(key: string, options: LockOptions, task: () => Promise<T>): Promise<T> {
    for (const [name, value] of [
      ["leaseMs", options?.leaseMs],
      ["waitMs", options?.waitMs],
    ] as const) {
      if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
        throw new SdkError("INVALID_ARGUMENT", `LockOptions.${name} must be a finite number of ms, at least 0.`);
      }
    }
    const redisKey = this.#redis.key("lock", key);
    const token = randomUUID();
    const deadline = Date.now() + options.waitMs;
    const leave = await this.#turns.enter(key, deadline, options.waitMs);
    try {
      await this.#acquire(key, redisKey, token, options, deadline);
    } catch (error) {
      leave();
      throw error;
    }
    // When the lease runs out Redis has dropped the key; the next caller of this instance goes on too.
    const lease = setTimeout(() => {
      this.#logger.warn(
        { lock: key },
        `The lock "${key}" was held past its lease of ${options.leaseMs} ms and is freed; its task still runs.`,
      );
      leave();
    }, options.leaseMs);
    lease.unref?.();
    try {
      return await task();
    } finally {
      clearTimeout(lease);
      await this.#release(key, redisKey, token);
      leave();
    }
  }

  async #acquire(key: string, redisKey: string, token: string, options: LockOptions, deadline: number): Promise<void> {
    const px = Math.max(1, Math.ceil(options.leaseMs));
    let wait = FIRST_RETRY_MS;
    for (;;) {
      if ((await this.#redis.run(OPERATION, "SET", redisKey, token, "NX", "PX", px)) === "OK") return;
      const left = deadline - Date.now();
      if (left <= 0) throw lockTimeout(key, options.waitMs);
      await new Promise((resolve) => setTimeout(resolve, Math.min(left, wait * (0.5 + Math.random()))));
      wait = Math.min(wait * 2, MAX_RETRY_MS);
    }
  }

  async #release(key: string, redisKey: string, token: string): Promise<void> {
    try {
      await this.#redis.script(OPERATION, RELEASE, [redisKey], [token]);
    } catch (error) {
      this.#logger.warn(
        { err: error, lock: key },
        `The lock "${key}" could not be released; Redis frees it when its lease runs out.`,
      );
    }
  }
}
