import { SdkError } from "../jsonrpc/errors.js";
import type { InteractionStatus, NewInteraction, UserInteraction } from "../model/interaction.js";
import {
  checkNewInteraction,
  checkStatus,
  duplicateId,
  newPending,
  visibleStatus,
} from "../stores/interaction-status.js";
import type { InteractionStore } from "../stores/types.js";
import { luaScript, RedisCommands, type RedisStoreOptions } from "./commands.js";

export interface RedisInteractionStoreOptions extends RedisStoreOptions {
  /** The clock, in ms since the epoch; defaults to `Date.now`. Inject one to test expiry. */
  now?: () => number;
  /**
   * ms an interaction is kept past its deadline when no `purgeExpired` removed it before: Redis
   * then drops it by itself (`PEXPIRE`), so a fleet that never purges does not fill Redis.
   * Default 86,400,000 (a day).
   */
  retainAfterExpiryMs?: number;
}

/**
 * One interaction is one hash: `body` (the JSON of the whole interaction as created), `status`
 * and `expiresAt`; the sorted set `interactions:expiry` ranks the ids by deadline for purging.
 */
const CREATE = luaScript(`
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'body', ARGV[2], 'status', ARGV[3], 'expiresAt', ARGV[4])
redis.call('ZADD', KEYS[2], ARGV[4], ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1
`);

/** The body of the interaction moved to `ARGV[1]`, or `false` when it is unknown, in another status, or past its deadline. */
const TRANSITION = luaScript(`
local fields = redis.call('HMGET', KEYS[1], 'body', 'status', 'expiresAt')
if not fields[1] then return false end
local allowed = false
for i = 3, #ARGV do
  if ARGV[i] == fields[2] then allowed = true end
end
if not allowed then return false end
if ARGV[1] ~= 'expired' and tonumber(fields[3]) <= tonumber(ARGV[2]) then return false end
redis.call('HSET', KEYS[1], 'status', ARGV[1])
return fields[1]
`);

/** Removes up to `ARGV[3]` interactions with deadlines at or before `ARGV[1]`; returns how many existed, and how many ids it took. */
const PURGE = luaScript(`
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, ARGV[3])
local removed = 0
for _, id in ipairs(ids) do
  removed = removed + redis.call('DEL', ARGV[2] .. id)
  redis.call('ZREM', KEYS[1], id)
end
return {removed, #ids}
`);

const PURGE_BATCH = 500;

/**
 * An `InteractionStore` in Redis, shared by every instance of a fleet. Each interaction is one
 * hash under `<keyPrefix>interaction:<id>` holding the whole interaction as JSON, so every field
 * reads back as it was created; each transition is one Lua script comparing the stored status
 * and setting the new one, so of two racing transitions, on any instances, one wins. Every call
 * rejects with SdkError "STORE_UNAVAILABLE" while Redis cannot be reached, and works again once
 * it can. The scripts of `purgeExpired` reach keys they are not given, so the store runs on a
 * single Redis (with replicas or Sentinel), not on Redis Cluster.
 */
export class RedisInteractionStore implements InteractionStore {
  readonly #redis: RedisCommands;
  readonly #now: () => number;
  readonly #retainMs: number;
  readonly #index: string;

  /** @throws SdkError "INVALID_ARGUMENT" for a bad `keyPrefix` or a `retainAfterExpiryMs` that is no number of ms `>= 0`. */
  constructor(options: RedisInteractionStoreOptions) {
    this.#redis = new RedisCommands(options);
    this.#now = options.now ?? Date.now;
    const retain = options.retainAfterExpiryMs ?? 86_400_000;
    if (typeof retain !== "number" || !Number.isFinite(retain) || retain < 0) {
      throw new SdkError("INVALID_ARGUMENT", "retainAfterExpiryMs must be a finite number of ms, at least 0.");
    }
    this.#retainMs = retain;
    this.#index = `${this.#redis.prefix}interactions:expiry`;
  }

  /** @throws SdkError "INVALID_ARGUMENT" when the id exists or a field has the wrong type. */
  async create(interaction: NewInteraction): Promise<UserInteraction> {
    checkNewInteraction(interaction);
    const now = this.#now();
    const created = newPending(interaction, now);
    const keepMs = Math.max(1, Math.ceil(created.expiresAt - now + this.#retainMs));
    const stored = await this.#redis.script(
      "interactions.create",
      CREATE,
      [this.#key(created.id), this.#index],
      [created.id, JSON.stringify(created), created.status, String(created.expiresAt), keepMs],
    );
    if (stored !== 1) throw duplicateId();
    return this.#read(JSON.parse(JSON.stringify(created)) as UserInteraction);
  }

  async get(id: string): Promise<UserInteraction | undefined> {
    const [body, status] = (await this.#redis.run("interactions.get", "HMGET", this.#key(id), "body", "status")) as [
      string | null,
      string | null,
    ];
    if (body === null) return undefined;
    return this.#read({ ...(JSON.parse(body) as UserInteraction), status: status as InteractionStatus });
  }

  /** @throws SdkError "INVALID_ARGUMENT" when `to` is not an interaction status. */
  async transition(
    id: string,
    from: readonly InteractionStatus[],
    to: InteractionStatus,
  ): Promise<UserInteraction | undefined> {
    checkStatus(to);
    const body = (await this.#redis.script(
      "interactions.transition",
      TRANSITION,
      [this.#key(id)],
      [to, String(this.#now()), ...from],
    )) as string | null;
    if (body === null) return undefined;
    return this.#read({ ...(JSON.parse(body) as UserInteraction), status: to });
  }

  async purgeExpired(now: number = this.#now()): Promise<number> {
    let removed = 0;
    for (;;) {
      const [gone, taken] = (await this.#redis.script(
        "interactions.purgeExpired",
        PURGE,
        [this.#index],
        [String(now), `${this.#redis.prefix}interaction:`, PURGE_BATCH],
      )) as [number, number];
      removed += gone;
      if (taken < PURGE_BATCH) return removed;
    }
  }

  #key(id: string): string {
    return this.#redis.key("interaction", id);
  }

  #read(interaction: UserInteraction): UserInteraction {
    interaction.status = visibleStatus(interaction.status, interaction.expiresAt, this.#now());
    return interaction;
  }
}
