import { SdkError } from "../jsonrpc/errors.js";
import type { GrantStateStore, PendingGrant } from "../stores/types.js";
import { RedisCommands, type RedisStoreOptions } from "./commands.js";

export interface RedisGrantStateStoreOptions extends RedisStoreOptions {
  /** The clock, in ms since the epoch; defaults to `Date.now`. */
  now?: () => number;
}

/**
 * A `GrantStateStore` in Redis, so the provider's callback may land on any instance: each grant is
 * the JSON under `<keyPrefix>grant:<state>`, dropped by Redis at its `expiresAt` (`PX`), and `take`
 * is one `GETDEL`, so of two instances taking the same `state` at once exactly one gets the grant.
 * Every call rejects with SdkError "STORE_UNAVAILABLE" while Redis cannot be reached.
 */
export class RedisGrantStateStore implements GrantStateStore {
  readonly #redis: RedisCommands;
  readonly #now: () => number;

  /** @throws SdkError "INVALID_ARGUMENT" for a bad `keyPrefix`. */
  constructor(options: RedisGrantStateStoreOptions) {
    this.#redis = new RedisCommands(options);
    this.#now = options.now ?? Date.now;
  }

  /**
   * Stores the grant under `state`, replacing one stored under it before; one already past its
   * `expiresAt` only removes that.
   * @throws SdkError "INVALID_ARGUMENT" when `grant.expiresAt` is not a finite number of ms (nothing changes).
   */
  async put(state: string, grant: PendingGrant): Promise<void> {
    if (typeof grant?.expiresAt !== "number" || !Number.isFinite(grant.expiresAt)) {
      throw new SdkError("INVALID_ARGUMENT", "A grant's expiresAt must be a finite number of ms since the epoch.");
    }
    const key = this.#redis.key("grant", state);
    const ttl = grant.expiresAt - this.#now();
    if (ttl <= 0) {
      await this.#redis.run("grantStates.put", "DEL", key);
      return;
    }
    const record: PendingGrant = {
      interactionId: grant.interactionId,
      user: { issuer: grant.user.issuer, subject: grant.user.subject },
      provider: grant.provider,
      scopes: [...grant.scopes],
      verifier: grant.verifier,
      expiresAt: grant.expiresAt,
    };
    await this.#redis.run("grantStates.put", "SET", key, JSON.stringify(record), "PX", Math.ceil(ttl));
  }

  async take(state: string): Promise<PendingGrant | undefined> {
    const json = (await this.#redis.run("grantStates.take", "GETDEL", this.#redis.key("grant", state))) as
      | string
      | null;
    if (json === null) return undefined;
    const grant = JSON.parse(json) as PendingGrant;
    return this.#now() >= grant.expiresAt ? undefined : grant;
  }
}
