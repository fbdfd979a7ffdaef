import type { GrantStateStore, PendingGrant } from "../stores/types.js";
import type { PostgresStoreOptions } from "./interaction-store.js";
import { query } from "./query.js";
import { tablesOf } from "./tables.js";

interface Row {
  interaction_id: string;
  user_issuer: string;
  user_subject: string;
  provider: string;
  scopes: string[];
  verifier: string;
  expires_at: number;
}

export interface PostgresGrantStateStoreOptions extends PostgresStoreOptions {
  /** The clock, in ms since the epoch; defaults to `Date.now`. */
  now?: () => number;
}

/**
 * A `GrantStateStore` in PostgreSQL, so the provider's callback may land on any instance: `take`
 * is one `DELETE … RETURNING`, so of two instances taking the same `state` at once exactly one
 * gets the grant. Each `put` also removes the grants past their deadline. Every call rejects with
 * SdkError "STORE_UNAVAILABLE" while PostgreSQL cannot be reached.
 */
export class PostgresGrantStateStore implements GrantStateStore {
  readonly #pool: PostgresStoreOptions["pool"];
  readonly #table: string;
  readonly #now: () => number;

  /** @throws SdkError "INVALID_ARGUMENT" when `schema` or `tablePrefix` is not a plain lower-case identifier. */
  constructor(options: PostgresGrantStateStoreOptions) {
    this.#pool = options.pool;
    this.#table = tablesOf(options).grantStates;
    this.#now = options.now ?? Date.now;
  }

  /** Stores the grant under `state`, replacing one stored under it before. */
  async put(state: string, grant: PendingGrant): Promise<void> {
    await query(
      this.#pool,
      "grantStates.put",
      `WITH lapsed AS (DELETE FROM ${this.#table} WHERE expires_at <= $8 AND state <> $1)
       INSERT INTO ${this.#table} (state, interaction_id, user_issuer, user_subject, provider, scopes, verifier, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $9)
       ON CONFLICT (state) DO UPDATE SET
         interaction_id = excluded.interaction_id, user_issuer = excluded.user_issuer,
         user_subject = excluded.user_subject, provider = excluded.provider, scopes = excluded.scopes,
         verifier = excluded.verifier, expires_at = excluded.expires_at`,
      [
        state,
        grant.interactionId,
        grant.user.issuer,
        grant.user.subject,
        grant.provider,
        [...grant.scopes],
        grant.verifier,
        this.#now(),
        grant.expiresAt,
      ],
    );
  }

  async take(state: string): Promise<PendingGrant | undefined> {
    const { rows } = await query<Row>(
      this.#pool,
      "grantStates.take",
      `DELETE FROM ${this.#table} WHERE state = $1 RETURNING *`,
      [state],
    );
    const row = rows[0];
    if (row === undefined || this.#now() >= row.expires_at) return undefined;
    return {
      interactionId: row.interaction_id,
      user: { issuer: row.user_issuer, subject: row.user_subject },
      provider: row.provider,
      scopes: row.scopes,
      verifier: row.verifier,
      expiresAt: row.expires_at,
    };
  }
}
