/**
 * The tables of the PostgreSQL stores, as an ordered list of steps. The table
 * `<prefix>schema_migrations` records each step applied; `migrate` applies the missing ones, each
 * in its own transaction under a transaction-level advisory lock on the schema and prefix, so that
 * several instances starting at once apply each step once and the others wait for it.
 */
import { SdkError } from "../jsonrpc/errors.js";
import type { PostgresPool, PostgresPoolClient } from "./driver.js";
import { query, transaction } from "./query.js";
import { type PostgresLocation, type PostgresTables, tablesOf } from "./tables.js";

/** One schema change: numbered from 1 without gaps, never edited once released. */
export interface Migration {
  version: number;
  /** What the step does, in a few words, as recorded in `<prefix>schema_migrations`. */
  name: string;
  sql(tables: PostgresTables): string;
}

const STATUSES = "'pending', 'accepted', 'declined', 'cancelled', 'completed', 'expired'";

/** Every step, oldest first. Times are ms since the epoch in `double precision`, which holds every JS number exactly. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: "interactions",
    sql: (t) => `
      CREATE TABLE ${t.interactions} (
        id text PRIMARY KEY,
        url text NOT NULL,
        message text NOT NULL,
        user_issuer text NOT NULL,
        user_subject text NOT NULL,
        session_id text NOT NULL,
        status text NOT NULL CHECK (status IN (${STATUSES})),
        created_at double precision NOT NULL,
        expires_at double precision NOT NULL,
        purpose text,
        client_name text
      );
      CREATE INDEX ${t.index("interactions_expires_at")} ON ${t.interactions} (expires_at);`,
  },
  {
    version: 2,
    name: "credentials and key check values",
    sql: (t) => `
      CREATE TABLE ${t.credentials} (
        issuer text NOT NULL,
        subject text NOT NULL,
        provider text NOT NULL,
        key_id text NOT NULL,
        iv bytea NOT NULL,
        ciphertext bytea NOT NULL,
        tag bytea NOT NULL,
        scopes text[],
        expires_at double precision,
        updated_at double precision NOT NULL,
        PRIMARY KEY (issuer, subject, provider)
      );
      CREATE INDEX ${t.index("credentials_key_id")} ON ${t.credentials} (key_id);
      CREATE TABLE ${t.keyChecks} (
        key_id text PRIMARY KEY,
        iv bytea NOT NULL,
        ciphertext bytea NOT NULL,
        tag bytea NOT NULL
      );`,
  },
  {
    version: 3,
    name: "grant states",
    sql: (t) => `
      CREATE TABLE ${t.grantStates} (
        state text PRIMARY KEY,
        interaction_id text NOT NULL,
        user_issuer text NOT NULL,
        user_subject text NOT NULL,
        provider text NOT NULL,
        scopes text[] NOT NULL,
        verifier text NOT NULL,
        expires_at double precision NOT NULL
      );
      CREATE INDEX ${t.index("grant_states_expires_at")} ON ${t.grantStates} (expires_at);`,
  },
  {
    version: 4,
    name: "interaction trace context",
    sql: (t) => `
      ALTER TABLE ${t.interactions} ADD COLUMN traceparent text;
      ALTER TABLE ${t.interactions} ADD COLUMN tracestate text;`,
  },
  {
    version: 5,
    name: "credential account and use times",
    sql: (t) => `
      ALTER TABLE ${t.credentials} ADD COLUMN account text;
      ALTER TABLE ${t.credentials} ADD COLUMN created_at double precision;
      ALTER TABLE ${t.credentials} ADD COLUMN last_used_at double precision;`,
  },
  {
    version: 6,
    name: "audit log",
    // Append-only: the stores only insert and read. `record` holds the checked entry; the user and
    // event are columns of their own so that an operator can query them.
    sql: (t) => `
      CREATE TABLE ${t.auditLog} (
        seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        at double precision NOT NULL,
        event text NOT NULL,
        user_issuer text NOT NULL,
        user_subject text NOT NULL,
        record jsonb NOT NULL
      );
      CREATE INDEX ${t.index("audit_log_user")} ON ${t.auditLog} (user_issuer, user_subject, seq);`,
  },
  {
    version: 7,
    name: "open interactions by user",
    // Partial: a user's inbox reads only the interactions still waiting for them.
    sql: (t) => `
      CREATE INDEX ${t.index("interactions_open_by_user")} ON ${t.interactions} (user_issuer, user_subject, created_at)
        WHERE status IN ('pending', 'accepted');`,
  },
];

/** A step that `migrate` applied. */
export interface AppliedMigration {
  version: number;
  name: string;
}

const OPERATION = "migrate";

/**
 * Creates the schema when absent and applies every step of `MIGRATIONS` not yet recorded, in order,
 * each in one transaction; a second call (or another instance) applies nothing. Safe to run from
 * several instances at once.
 * @returns the steps applied by this call, oldest first; empty when the schema was up to date.
 * @throws SdkError "INVALID_ARGUMENT" when `schema` or `tablePrefix` is not a plain lower-case
 *   identifier (nothing is sent), or the database records a step newer than this version of
 *   mcp-handoff knows; SdkError "STORE_UNAVAILABLE" when PostgreSQL cannot be reached (the steps
 *   applied before stay applied, and the next call goes on from there).
 */
export async function migrate(pool: PostgresPool, options: PostgresLocation = {}): Promise<AppliedMigration[]> {
  const tables = tablesOf(options);
  const known = MIGRATIONS.length;
  await transaction(pool, OPERATION, async (client) => {
    await lockMigrations(client, tables);
    const found = await query(client, OPERATION, "SELECT 1 FROM pg_namespace WHERE nspname = $1", [tables.schemaName]);
    // Asked first, so a role without CREATE on the database can migrate in a schema it was given.
    if (found.rowCount === 0) await query(client, OPERATION, `CREATE SCHEMA ${tables.schema}`);
    await query(
      client,
      OPERATION,
      `CREATE TABLE IF NOT EXISTS ${tables.migrations} (
         version integer PRIMARY KEY,
         name text NOT NULL,
         applied_at timestamptz NOT NULL DEFAULT now()
       )`,
    );
    const newest = Math.max(0, ...(await recorded(client, tables)));
    if (newest > known) {
      throw new SdkError(
        "INVALID_ARGUMENT",
        `The PostgreSQL schema ${tables.label} holds migration ${newest}; this version of mcp-handoff knows up to ${known}.`,
      );
    }
  });
  const applied: AppliedMigration[] = [];
  for (const step of MIGRATIONS) {
    const ran = await transaction(pool, OPERATION, async (client) => {
      await lockMigrations(client, tables);
      // Read again under the lock: another instance may have applied it since.
      if ((await recorded(client, tables)).has(step.version)) return false;
      await query(client, OPERATION, step.sql(tables));
      await query(client, OPERATION, `INSERT INTO ${tables.migrations} (version, name) VALUES ($1, $2)`, [
        step.version,
        step.name,
      ]);
      return true;
    });
    if (ran) applied.push({ version: step.version, name: step.name });
  }
  return applied;
}

/** Held until the transaction ends; keyed by schema and prefix, so other deployments do not wait. */
async function lockMigrations(client: PostgresPoolClient, tables: PostgresTables): Promise<void> {
  await query(client, OPERATION, "SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [
    `mcp-handoff migrate ${tables.label}`,
  ]);
}

async function recorded(client: PostgresPoolClient, tables: PostgresTables): Promise<Set<number>> {
  const { rows } = await query<{ version: number }>(client, OPERATION, `SELECT version FROM ${tables.migrations}`);
  return new Set(rows.map((row) => row.version));
}
