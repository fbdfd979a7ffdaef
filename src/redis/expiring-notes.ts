import { SdkError } from "../jsonrpc/errors.js";
import type { ExpiringNotes } from "../stores/types.js";
import { RedisCommands, type RedisStoreOptions } from "./commands.js";

/**
 * `ExpiringNotes` in Redis, read by every instance connected to it: each note is the string under
 * `<keyPrefix>note:<key>`, set with `SET … PX` so Redis drops it when its time is up. Every call
 * rejects with SdkError "STORE_UNAVAILABLE" while Redis cannot be reached.
 */
export class RedisExpiringNotes implements ExpiringNotes {
  readonly #redis: RedisCommands;

  /** @throws SdkError "INVALID_ARGUMENT" for a bad `keyPrefix`. */
  constructor(options: RedisStoreOptions) {
    this.#redis = new RedisCommands(options);
  }

  /** @throws SdkError "INVALID_ARGUMENT" when `ttlMs` is not a positive number of ms (nothing is kept). */
  async put(key: string, value: string, ttlMs: number): Promise<void> {
    if (typeof ttlMs !== "number" || !(Number.isFinite(ttlMs) && ttlMs > 0)) {
      throw new SdkError("INVALID_ARGUMENT", "A note's ttlMs must be a positive number of ms.");
    }
    if (typeof value !== "string") throw new SdkError("INVALID_ARGUMENT", "A note's value must be a string.");
    await this.#redis.run("notes.put", "SET", this.#redis.key("note", key), value, "PX", Math.ceil(ttlMs));
  }

  async get(key: string): Promise<string | undefined> {
    const value = (await this.#redis.run("notes.get", "GET", this.#redis.key("note", key))) as string | null;
    return value ?? undefined;
  }
}
