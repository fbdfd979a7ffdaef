import { SdkError } from "../jsonrpc/errors.js";
import type { UserRef } from "../model/identity.js";
import type { InteractionStatus, NewInteraction, UserInteraction } from "../model/interaction.js";
import {
  checkNewInteraction,
  checkStatus,
  duplicateId,
  newPending,
  openLimit,
  visibleStatus,
} from "../stores/interaction-status.js";
import type { InteractionStore, OpenInteractionsOptions } from "../stores/types.js";
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
 * One interaction is one hash: `body` (the JSON of the whole interaction as created), `status`,
 * `expiresAt`, `createdAt` and `open` (the key of its user's set of open interactions); the sorted
 * set `interactions:expiry` ranks the ids by deadline for purging, and each user's set
 * `interactions:open:<issuer>.<subject>` ranks that user's open (`pending`, `accepted`) ids by
 * creation, for `openFor`. The scripts keep the user's set in step with every status change.
 */
const CREATE = luaScript(`
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'body', ARGV[2], 'status', ARGV[3], 'expiresAt', ARGV[4], 'createdAt', ARGV[6], 'open', KEYS[3])
redis.call('ZADD', KEYS[2], ARGV[4], ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
redis.call('ZADD', KEYS[3], ARGV[6], ARGV[1])
if redis.call('PTTL', KEYS[3]) < tonumber(ARGV[5]) then redis.call('PEXPIRE', KEYS[3], ARGV[5]) end
return 1
`);

/**
 * The body of the interaction `ARGV[3]` moved to `ARGV[1]`, or `false` when it is unknown, in
 * another status, or past its deadline. It leaves its user's open set unless it is open still; back
 * in it (a withdrawn completion), the set lives at least as long as the interaction's hash, since
 * Redis deleted the set when its last member left.
 */
const TRANSITION = luaScript(`
local fields = redis.call('HMGET', KEYS[1], 'body', 'status', 'expiresAt', 'createdAt', 'open')
if not fields[1] then return false end
local allowed = false
for i = 4, #ARGV do
  if ARGV[i] == fields[2] then allowed = true end
end
if not allowed then return false end
if ARGV[1] ~= 'expired' and tonumber(fields[3]) <= tonumber(ARGV[2]) then return false end
redis.call('HSET', KEYS[1], 'status', ARGV[1])
if fields[5] then
  if ARGV[1] == 'pending' or ARGV[1] == 'accepted' then
    redis.call('ZADD', fields[5], fields[4], ARGV[3])
    local keep = redis.call('PTTL', KEYS[1])
    if keep > 0 and redis.call('PTTL', fields[5]) < keep then redis.call('PEXPIRE', fields[5], keep) end
  else
    redis.call('ZREM', fields[5], ARGV[3])
  end
end
return fields[1]
`);

/** Removes up to `ARGV[3]` interactions with deadlines at or before `ARGV[1]`; returns how many existed, and how many ids it took. */
const PURGE = luaScript(`
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, ARGV[3])
local removed = 0
for _, id in ipairs(ids) do
  local open = redis.call('HGET', ARGV[2] .. id, 'open')
  if open then redis.call('ZREM', open, id) end
  removed = removed + redis.call('DEL', ARGV[2] .. id)
  redis.call('ZREM', KEYS[1], id)
end
return {removed, #ids}
`);

/**
 * The open interactions of the user's set `KEYS[1]`, newest first, as body and status pairs: the
 * newest `ARGV[3]` and any others created in the same ms as the last of them (the caller orders
 * ties by id and cuts). The set is read a page at a time from its newest end and no further than
 * that, so a user with thousands of requests waiting costs one page, not a walk over all of them
 * inside Redis. Ids read whose hash is gone or whose deadline passed (`ARGV[1]`) leave the set:
 * they can never be open again.
 */
const OPEN_FOR = luaScript(`
local limit = tonumber(ARGV[3])
local found, stale = {}, {}
local count, last = 0, nil
local start, batch = 0, 100
local done = false
repeat
  local page = redis.call('ZREVRANGE', KEYS[1], start, start + batch - 1, 'WITHSCORES')
  for i = 1, #page, 2 do
    local id, score = page[i], page[i + 1]
    if count >= limit and score ~= last then
      done = true
      break
    end
    local fields = redis.call('HMGET', ARGV[2] .. id, 'body', 'status', 'expiresAt')
    if not fields[1] or tonumber(fields[3]) <= tonumber(ARGV[1]) then
      table.insert(stale, id)
    elseif fields[2] == 'pending' or fields[2] == 'accepted' then
      table.insert(found, fields[1])
      table.insert(found, fields[2])
      count = count + 1
      last = score
    end
  end
  start = start + batch
until done or #page < batch * 2
for _, id in ipairs(stale) do redis.call('ZREM', KEYS[1], id) end
return found
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
      [this.#key(created.id), this.#index, this.#openKey(created.user)],
      [
        created.id,
        JSON.stringify(created),
        created.status,
        String(created.expiresAt),
        keepMs,
        String(created.createdAt),
      ],
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
      [to, String(this.#now()), id, ...from],
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

  /**
   * One script over the user's open set (`CREATE` and `TRANSITION` keep it, so no scan of every
   * interaction); ties in `createdAt` fall to the id, as in the other stores.
   * @throws SdkError "INVALID_ARGUMENT" for a bad `limit`.
   */
  async openFor(user: UserRef, options?: OpenInteractionsOptions): Promise<UserInteraction[]> {
    const limit = openLimit(options);
    const found = (await this.#redis.script(
      "interactions.openFor",
      OPEN_FOR,
      [this.#openKey(user)],
      [String(this.#now()), `${this.#redis.prefix}interaction:`, limit],
    )) as string[];
    const open: UserInteraction[] = [];
    for (let i = 0; i < found.length; i += 2) {
      const body = JSON.parse(found[i] as string) as UserInteraction;
      open.push(this.#read({ ...body, status: found[i + 1] as InteractionStatus }));
    }
    return open.sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? -1 : 1)).slice(0, limit);
  }

  #key(id: string): string {
    return this.#redis.key("interaction", id);
  }

  /** The user's set of open interactions: issuer and subject each base64url, so no pair of users shares one. */
  #openKey(user: UserRef): string {
    const part = (text: string) => Buffer.from(text, "utf8").toString("base64url");
    return this.#redis.key("interactions:open", `${part(user.issuer)}.${part(user.subject)}`);
  }

  #read(interaction: UserInteraction): UserInteraction {
    interaction.status = visibleStatus(interaction.status, interaction.expiresAt, this.#now());
    return interaction;
  }
}
