import { SdkError } from "../jsonrpc/errors.js";
import type { SessionChange, SessionDirectory, SessionRecord } from "../transports/http/session-directory.js";
import { luaScript, RedisCommands, type RedisStoreOptions } from "./commands.js";

/**
 * One session is one hash: `record` (the JSON of everything but the log level and subscriptions),
 * `logLevel`, one `s:<uri>` field per subscription holding its place in the order of subscribing,
 * and `seq`, the next place. Kept for its TTL with `PEXPIRE`.
 */
const PUT = luaScript(`
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'record', ARGV[2])
if ARGV[3] == '1' then redis.call('HSET', KEYS[1], 'logLevel', ARGV[4]) end
local n = 0
for i = 5, #ARGV do
  if redis.call('HSETNX', KEYS[1], 's:' .. ARGV[i], n) == 1 then n = n + 1 end
end
redis.call('HSET', KEYS[1], 'seq', n)
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1
`);

const UPDATE = luaScript(`
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if ARGV[1] == 'logLevel' then
  redis.call('HSET', KEYS[1], 'logLevel', ARGV[2])
elseif ARGV[1] == 'subscribe' then
  if redis.call('HEXISTS', KEYS[1], 's:' .. ARGV[2]) == 0 then
    redis.call('HSET', KEYS[1], 's:' .. ARGV[2], redis.call('HINCRBY', KEYS[1], 'seq', 1) - 1)
  end
else
  redis.call('HDEL', KEYS[1], 's:' .. ARGV[2])
end
return 1
`);

/**
 * A `SessionDirectory` in Redis, shared by every instance of a fleet (spec 2025-11-25:
 * basic/transports § Session Management). Each session is one hash under
 * `<keyPrefix>session:<sessionId>`, expiring by itself (`PEXPIRE`) when no instance touched it for
 * its TTL; `update` is one Lua script, so concurrent changes from any instances all survive. Every
 * field of a record, `streamStart` included, reads back exactly as it was put. Every call rejects
 * with SdkError "STORE_UNAVAILABLE" while Redis cannot be reached, and works again once it can.
 */
export class RedisSessionDirectory implements SessionDirectory {
  readonly #redis: RedisCommands;

  /** @throws SdkError "INVALID_ARGUMENT" for a bad `keyPrefix`. */
  constructor(options: RedisStoreOptions) {
    this.#redis = new RedisCommands(options);
  }

  /**
   * @throws SdkError "INVALID_ARGUMENT" when `ttlMs` is not a positive number of ms, or the
   *   record's `subscriptions` is not a list of strings or its `logLevel` not a string (nothing
   *   is stored).
   */
  async put(sessionId: string, record: SessionRecord, ttlMs: number): Promise<void> {
    const ttl = checkTtl(ttlMs);
    const { logLevel, subscriptions, ...rest } = record;
    if (!Array.isArray(subscriptions) || subscriptions.some((uri) => typeof uri !== "string")) {
      throw new SdkError("INVALID_ARGUMENT", "A session record's subscriptions must be a list of URIs.");
    }
    if (logLevel !== undefined && typeof logLevel !== "string") {
      throw new SdkError("INVALID_ARGUMENT", "A session record's logLevel must be a string.");
    }
    await this.#redis.script(
      "sessions.put",
      PUT,
      [this.#key(sessionId)],
      [ttl, JSON.stringify(rest), logLevel === undefined ? "0" : "1", logLevel ?? "", ...subscriptions],
    );
  }

  async get(sessionId: string): Promise<SessionRecord | undefined> {
    const reply = (await this.#redis.run("sessions.get", "HGETALL", this.#key(sessionId))) as string[];
    const fields = new Map<string, string>();
    for (let i = 0; i + 1 < reply.length; i += 2) fields.set(reply[i] as string, reply[i + 1] as string);
    const json = fields.get("record");
    if (json === undefined) return undefined;
    const record = JSON.parse(json) as SessionRecord;
    const logLevel = fields.get("logLevel");
    if (logLevel !== undefined) record.logLevel = logLevel;
    record.subscriptions = [...fields]
      .filter(([field]) => field.startsWith("s:"))
      .sort(([, a], [, b]) => Number(a) - Number(b))
      .map(([field]) => field.slice(2));
    return record;
  }

  /** @throws SdkError "INVALID_ARGUMENT" when `change` is none of the three kinds (nothing changes). */
  async update(sessionId: string, change: SessionChange): Promise<boolean> {
    const [kind, value] = changeOf(change);
    const changed = await this.#redis.script("sessions.update", UPDATE, [this.#key(sessionId)], [kind, value]);
    return changed === 1;
  }

  /** @throws SdkError "INVALID_ARGUMENT" when `ttlMs` is not a positive number of ms. */
  async touch(sessionId: string, ttlMs: number): Promise<boolean> {
    const ttl = checkTtl(ttlMs);
    return (await this.#redis.run("sessions.touch", "PEXPIRE", this.#key(sessionId), ttl)) === 1;
  }

  async delete(sessionId: string): Promise<boolean> {
    return (await this.#redis.run("sessions.delete", "DEL", this.#key(sessionId))) === 1;
  }

  #key(sessionId: string): string {
    return this.#redis.key("session", sessionId);
  }
}

/** The TTL in whole ms, as `PEXPIRE` takes it. */
function checkTtl(ttlMs: unknown): number {
  if (typeof ttlMs !== "number" || !Number.isFinite(ttlMs) || ttlMs <= 0) {
    throw new SdkError("INVALID_ARGUMENT", "A session's ttlMs must be a positive number of ms.");
  }
  return Math.ceil(ttlMs);
}

function changeOf(change: SessionChange): ["logLevel" | "subscribe" | "unsubscribe", string] {
  const value = change as Partial<Record<"logLevel" | "subscribe" | "unsubscribe", unknown>>;
  for (const kind of ["logLevel", "subscribe", "unsubscribe"] as const) {
    const text = value?.[kind];
    if (typeof text === "string") return [kind, text];
  }
  throw new SdkError("INVALID_ARGUMENT", "A session change sets a logLevel, or subscribes or unsubscribes a URI.");
}
