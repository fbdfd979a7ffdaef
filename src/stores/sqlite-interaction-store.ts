import type { UserRef } from "../model/identity.js";
import type { InteractionStatus, NewInteraction, UserInteraction } from "../model/interaction.js";
import {
  checkNewInteraction,
  checkStatus,
  duplicateId,
  newPending,
  openLimit,
  visibleStatus,
} from "./interaction-status.js";
import {
  assertOpen,
  openSqlite,
  prepare,
  type SqliteDatabase,
  type SqliteFileOptions,
  type SqliteStatement as Statement,
} from "./sqlite.js";
import type { InteractionStore, OpenInteractionsOptions } from "./types.js";

const SCHEMA = `
CREATE TABLE handoff_interactions (
  id TEXT PRIMARY KEY,
  url TEXT NOT NULL,
  message TEXT NOT NULL,
  user_issuer TEXT NOT NULL,
  user_subject TEXT NOT NULL,
  session_id TEXT NOT NULL,
  status TEXT NOT NULL
    CHECK (status IN ('pending', 'accepted', 'declined', 'cancelled', 'completed', 'expired')),
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  purpose TEXT,
  client_name TEXT,
  traceparent TEXT,
  tracestate TEXT
);
CREATE INDEX handoff_interactions_expires_at ON handoff_interactions (expires_at);
CREATE INDEX handoff_interactions_user ON handoff_interactions (user_issuer, user_subject, created_at);
`;

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
  traceparent?: string | null;
  tracestate?: string | null;
}

/**
 * Schema 2 keeps the requesting client's self-declared name; schema 3 the W3C trace context of the
 * request that created it; schema 4 indexes each user's interactions, for `openFor` (the inbox).
 */
const MIGRATIONS = {
  2: "ALTER TABLE handoff_interactions ADD COLUMN client_name TEXT;",
  3: "ALTER TABLE handoff_interactions ADD COLUMN traceparent TEXT; ALTER TABLE handoff_interactions ADD COLUMN tracestate TEXT;",
  4: "CREATE INDEX handoff_interactions_user ON handoff_interactions (user_issuer, user_subject, created_at);",
};

export type SqliteInteractionStoreOptions = SqliteFileOptions & {
  /** The clock, in ms since the epoch; defaults to `Date.now`. Inject one to test expiry. */
  now?: () => number;
};

/**
 * An `InteractionStore` in a SQLite database (better-sqlite3). Several processes may share one
 * file: each transition is a single conditional UPDATE, so of two racing transitions one wins.
 */
export class SqliteInteractionStore implements InteractionStore {
  readonly #now: () => number;
  readonly #db: SqliteDatabase;
  readonly #ownsDb: boolean;
  #closed = false;
  readonly #insert: Statement<[Row]>;
  readonly #select: Statement<[string], Row>;
  readonly #update: Statement<[{ to: InteractionStatus; id: string; from: string; now: number }], Row>;
  readonly #purge: Statement<[number]>;
  readonly #open: Statement<[{ issuer: string; subject: string; now: number; limit: number }], Row>;

  /**
   * @throws SdkError "INVALID_ARGUMENT" when the file holds a newer schema; SdkError
   *   "DEPENDENCY_MISSING" when `filename` is given and better-sqlite3 is not installed.
   */
  constructor(options: SqliteInteractionStoreOptions) {
    this.#now = options.now ?? Date.now;
    const { db, owned } = openSqlite(options, "interactions", 4, SCHEMA, MIGRATIONS);
    this.#db = db;
    this.#ownsDb = owned;
    this.#insert = prepare(
      this.#db,
      `INSERT INTO handoff_interactions
         (id, url, message, user_issuer, user_subject, session_id, status, created_at, expires_at, purpose, client_name,
          traceparent, tracestate)
       VALUES (@id, @url, @message, @user_issuer, @user_subject, @session_id, @status, @created_at, @expires_at, @purpose,
          @client_name, @traceparent, @tracestate)
       ON CONFLICT (id) DO NOTHING`,
    );
    this.#select = prepare(this.#db, "SELECT * FROM handoff_interactions WHERE id = ?");
    // The status list travels as one JSON array, so one prepared statement serves any `from`.
    this.#update = prepare(
      this.#db,
      `UPDATE handoff_interactions SET status = @to
       WHERE id = @id AND status IN (SELECT value FROM json_each(@from)) AND (expires_at > @now OR @to = 'expired')
       RETURNING *`,
    );
    this.#purge = prepare(this.#db, "DELETE FROM handoff_interactions WHERE expires_at <= ?");
    this.#open = prepare(
      this.#db,
      `SELECT * FROM handoff_interactions
       WHERE user_issuer = @issuer AND user_subject = @subject AND status IN ('pending', 'accepted') AND expires_at > @now
       ORDER BY created_at DESC, id LIMIT @limit`,
    );
  }

  /** @throws SdkError "INVALID_ARGUMENT" when the id exists or a field has the wrong type. */
  async create(interaction: NewInteraction): Promise<UserInteraction> {
    assertOpen(this.#db, this.#closed);
    checkNewInteraction(interaction);
    const created = newPending(interaction, this.#now());
    const { changes } = this.#insert.run({
      id: created.id,
      url: created.url,
      message: created.message,
      user_issuer: created.user.issuer,
      user_subject: created.user.subject,
      session_id: created.sessionId,
      status: created.status,
      created_at: created.createdAt,
      expires_at: created.expiresAt,
      purpose: created.purpose === undefined ? null : JSON.stringify(created.purpose),
      client_name: created.clientName ?? null,
      traceparent: created.traceparent ?? null,
      tracestate: created.tracestate ?? null,
    });
    if (changes === 0) throw duplicateId();
    return this.#read(created);
  }

  async get(id: string): Promise<UserInteraction | undefined> {
    assertOpen(this.#db, this.#closed);
    const row = this.#select.get(id);
    return row && this.#read(fromRow(row));
  }

  /** @throws SdkError "INVALID_ARGUMENT" when `to` is not an interaction status. */
  async transition(
    id: string,
    from: readonly InteractionStatus[],
    to: InteractionStatus,
  ): Promise<UserInteraction | undefined> {
    assertOpen(this.#db, this.#closed);
    checkStatus(to);
    const row = this.#update.get({ to, id, from: JSON.stringify(from), now: this.#now() });
    return row && this.#read(fromRow(row));
  }

  async purgeExpired(now: number = this.#now()): Promise<number> {
    assertOpen(this.#db, this.#closed);
    return this.#purge.run(now).changes;
  }

  /** @throws SdkError "INVALID_ARGUMENT" for a bad `limit`. */
  async openFor(user: UserRef, options?: OpenInteractionsOptions): Promise<UserInteraction[]> {
    assertOpen(this.#db, this.#closed);
    const limit = openLimit(options);
    const rows = this.#open.all({ issuer: user.issuer, subject: user.subject, now: this.#now(), limit });
    return rows.map((row) => this.#read(fromRow(row)));
  }

  /**
   * Closes the database it opened (a shared `database` stays open); later calls reject with
   * SdkError "CONNECTION_CLOSED".
   */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#ownsDb && this.#db.open) this.#db.close();
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
  if (row.client_name !== null && row.client_name !== undefined) interaction.clientName = row.client_name;
  if (typeof row.traceparent === "string") interaction.traceparent = row.traceparent;
  if (typeof row.tracestate === "string") interaction.tracestate = row.tracestate;
  return interaction;
}
