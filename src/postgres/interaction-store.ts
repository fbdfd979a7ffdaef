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
import type { PostgresPool } from "./driver.js";
import { query } from "./query.js";
import { type PostgresLocation, tablesOf } from "./tables.js";

interface Row {
  id: string;
  url: string;
  message: string;
  user_issuer: string;
  user_subject: string;
  session_id: string;
  status: InteractionStatus;
  created_at: number;
  expires_at: number;
  purpose: string | null;
  client_name: string | null;
  traceparent: string | null;
  tracestate: string | null;
}

/** Where a PostgreSQL store's tables are (see `PostgresLocation`), and the pool that reaches them. */
export interface PostgresStoreOptions extends PostgresLocation {
  /** A pg `Pool` (or one of the same shape); the store never ends it. The tables must be migrated. */
  pool: PostgresPool;
}

export interface PostgresInteractionStoreOptions extends PostgresStoreOptions {
  /** The clock, in ms since the epoch; defaults to `Date.now`. Inject one to test expiry. */
  now?: () => number;
}

/**
 * An `InteractionStore` in PostgreSQL, shared by every instance of a fleet. Each transition is one
 * conditional `UPDATE`, so of two racing transitions, on any instances, one wins. Every call
 * rejects with SdkError "STORE_UNAVAILABLE" while PostgreSQL cannot be reached, and works again
 * once it can.
 */
export class PostgresInteractionStore implements InteractionStore {
  readonly #pool: PostgresPool;
  readonly #now: () => number;
  readonly #table: string;

  /** @throws SdkError "INVALID_ARGUMENT" when `schema` or `tablePrefix` is not a plain lower-case identifier. */
  constructor(options: PostgresInteractionStoreOptions) {
    this.#pool = options.pool;
    this.#now = options.now ?? Date.now;
    this.#table = tablesOf(options).interactions;
  }

  /** @throws SdkError "INVALID_ARGUMENT" when the id exists or a field has the wrong type. */
  async create(interaction: NewInteraction): Promise<UserInteraction> {
    checkNewInteraction(interaction);
    const created = newPending(interaction, this.#now());
    const { rowCount } = await query(
      this.#pool,
      "interactions.create",
      `INSERT INTO ${this.#table}
         (id, url, message, user_issuer, user_subject, session_id, status, created_at, expires_at, purpose, client_name,
          traceparent, tracestate)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
       ON CONFLICT (id) DO NOTHING`,
      [
        created.id,
        created.url,
        created.message,
        created.user.issuer,
        created.user.subject,
        created.sessionId,
        created.status,
        created.createdAt,
        created.expiresAt,
        created.purpose === undefined ? null : JSON.stringify(created.purpose),
        created.clientName ?? null,
        created.traceparent ?? null,
        created.tracestate ?? null,
      ],
    );
    if (rowCount === 0) throw duplicateId();
    return this.#read(created);
  }

  async get(id: string): Promise<UserInteraction | undefined> {
    const { rows } = await query<Row>(this.#pool, "interactions.get", `SELECT * FROM ${this.#table} WHERE id = $1`, [
      id,
    ]);
    return rows[0] && this.#read(fromRow(rows[0]));
  }

  /** @throws SdkError "INVALID_ARGUMENT" when `to` is not an interaction status. */
  async transition(
    id: string,
    from: readonly InteractionStatus[],
    to: InteractionStatus,
  ): Promise<UserInteraction | undefined> {
    checkStatus(to);
    const { rows } = await query<Row>(
      this.#pool,
      "interactions.transition",
      `UPDATE ${this.#table} SET status = $1
       WHERE id = $2 AND status = ANY ($3::text[]) AND (expires_at > $4 OR $1 = 'expired')
       RETURNING *`,
      [to, id, [...from], this.#now()],
    );
    return rows[0] && this.#read(fromRow(rows[0]));
  }

  async purgeExpired(now: number = this.#now()): Promise<number> {
    const { rowCount } = await query(
      this.#pool,
      "interactions.purgeExpired",
      `DELETE FROM ${this.#table} WHERE expires_at <= $1`,
      [now],
    );
    return rowCount ?? 0;
  }

  /**
   * One indexed `SELECT` (migration 5, the partial index of open interactions by user; the
   * statuses are written out so the planner can match its predicate).
   * @throws SdkError "INVALID_ARGUMENT" for a bad `limit`.
   */
  async openFor(user: UserRef, options?: OpenInteractionsOptions): Promise<UserInteraction[]> {
    const limit = openLimit(options);
    const { rows } = await query<Row>(
      this.#pool,
      "interactions.openFor",
      `SELECT * FROM ${this.#table}
       WHERE user_issuer = $1 AND user_subject = $2 AND status IN ('pending', 'accepted') AND expires_at > $3
       ORDER BY created_at DESC, id LIMIT $4`,
      [user.issuer, user.subject, this.#now(), limit],
    );
    return rows.map((row) => this.#read(fromRow(row)));
  }

  #read(interaction: UserInteraction): UserInteraction {
    interaction.status = visibleStatus(interaction.status, interaction.expiresAt, this.#now());
    return interaction;
  }
}

function fromRow(row: Row): UserInteraction {
  const interaction: UserInteraction = {
    id: row.id,
    url: row.url,
    message: row.message,
    user: { issuer: row.user_issuer, subject: row.user_subject },
    sessionId: row.session_id,
    status: row.status,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
  };
  if (row.purpose !== null) interaction.purpose = JSON.parse(row.purpose);
  if (row.client_name !== null) interaction.clientName = row.client_name;
  if (row.traceparent !== null) interaction.traceparent = row.traceparent;
  if (row.tracestate !== null) interaction.tracestate = row.tracestate;
  return interaction;
}
