/**
 * The commands of the Redis engines: each key under the engines' prefix, each command's failure
 * turned into a clear error (`storeError`), and Lua scripts sent by their SHA-1 (`EVALSHA`), their
 * source only when Redis does not have them yet.
 */
import { createHash } from "node:crypto";
import { SdkError } from "../jsonrpc/errors.js";
import type { RedisClient } from "./driver.js";
import { storeError } from "./errors.js";

/** The prefix of every key and bus channel when none is given. */
export const DEFAULT_KEY_PREFIX = "mcp-handoff:";

/** Where a Redis engine keeps its keys, and the client that reaches them. */
export interface RedisStoreOptions {
  /**
   * An ioredis `Redis` (or one of the same shape) without a `keyPrefix` of its own (the engines
   * put theirs before every key, bus channels and the keys their scripts reach included); the
   * engine never closes it.
   */
  client: RedisClient;
  /**
   * Put before every key (and bus channel) the engine uses, so that applications (or test runs)
   * sharing one Redis keep apart; printable characters without spaces, at most 200. Default
   * `"mcp-handoff:"`.
   */
  keyPrefix?: string;
}

/**
 * The prefix, checked.
 * @throws SdkError "INVALID_ARGUMENT" when it is not a string of at most 200 characters without
 *   spaces or control characters.
 */
export function checkKeyPrefix(keyPrefix: unknown = DEFAULT_KEY_PREFIX): string {
  if (typeof keyPrefix !== "string" || keyPrefix.length > 200 || /[\s\p{Cc}]/u.test(keyPrefix)) {
    throw new SdkError(
      "INVALID_ARGUMENT",
      "The Redis keyPrefix must be a string of at most 200 characters without spaces or control characters.",
    );
  }
  return keyPrefix;
}

/** A Lua script, sent by its SHA-1 once Redis knows it. */
export interface LuaScript {
  readonly source: string;
  readonly sha: string;
}

export function luaScript(source: string): LuaScript {
  return { source, sha: createHash("sha1").update(source).digest("hex") };
}

/** The commands of one engine: its keys, its client, and what a failure is turned into. */
export class RedisCommands {
  readonly client: RedisClient;
  readonly prefix: string;

  /** @throws SdkError "INVALID_ARGUMENT" for a bad `keyPrefix` (see `checkKeyPrefix`). */
  constructor(options: RedisStoreOptions) {
    this.prefix = checkKeyPrefix(options.keyPrefix);
    this.client = options.client;
  }

  /** The key `<prefix><kind>:<name>`. */
  key(kind: string, name: string): string {
    return `${this.prefix}${kind}:${name}`;
  }

  /** Runs one command; `operation` (such as `"sessions.get"`) names it in errors. */
  async run(operation: string, command: string, ...args: (string | number)[]): Promise<unknown> {
    try {
      return await this.client.call(command, ...args);
    } catch (error) {
      throw storeError(error, operation, this.client.status === "end");
    }
  }

  /** Runs a Lua script on `keys` with `args`; its source is sent only when Redis answers NOSCRIPT. */
  async script(operation: string, script: LuaScript, keys: string[], args: (string | number)[]): Promise<unknown> {
    try {
      return await this.client.call("EVALSHA", script.sha, keys.length, ...keys, ...args);
    } catch (error) {
      if (!(error instanceof Error && error.message.startsWith("NOSCRIPT"))) {
        throw storeError(error, operation, this.client.status === "end");
      }
    }
    return this.run(operation, "EVAL", script.source, keys.length, ...keys, ...args);
  }
}
