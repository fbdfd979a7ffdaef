import { SdkError } from "../jsonrpc/errors.js";
import { consoleLogger, type Logger } from "../jsonrpc/logger.js";
import { CredentialCipher, type VaultEncryption } from "../stores/credential-cipher.js";
import { PostgresAuditLog } from "./audit-log.js";
import { PostgresCredentialVault } from "./credential-vault.js";
import { openPostgresPool, type PostgresPool } from "./driver.js";
import { storeError } from "./errors.js";
import { PostgresGrantStateStore } from "./grant-state-store.js";
import { PostgresInteractionStore } from "./interaction-store.js";
import { PostgresKeyedLock } from "./keyed-lock.js";
import { type AppliedMigration, migrate } from "./migrations.js";
import { type PostgresLocation, tablesOf } from "./tables.js";

export type ConnectPostgresOptions = PostgresLocation & {
  /** Apply the missing migrations before returning (see `migrate`). Default `true`. */
  migrate?: boolean;
  /** The vault's keys, as the other vaults take them. */
  vault: { encryption: VaultEncryption };
  /** The clock of the interaction and grant-state stores, in ms since the epoch; default `Date.now`. */
  now?: () => number;
  /** Told about connections that fail while idle or while holding a lock. Default `consoleLogger()`. */
  logger?: Logger;
} & (
    | {
        /**
         * `postgres://user:password@host:port/database`, as pg takes it; the password never appears
         * in an error or a log line. The pool opened from it is ended by `close()`.
         */
        connectionString: string;
        pool?: never;
        /** ms to wait for a new connection before an operation fails. Default 5000. */
        connectionTimeoutMs?: number;
        /** ms an operation waits for PostgreSQL's answer before it fails. Default 10000. */
        queryTimeoutMs?: number;
        /** Connections at most; each lock held keeps one. Default 10. */
        maxConnections?: number;
      }
    | {
        /** A pg `Pool` of the application's own, which `close()` leaves open. */
        pool: PostgresPool;
        connectionString?: never;
      }
  );

/** Every PostgreSQL engine on one pool and one schema. */
export interface PostgresStores {
  interactions: PostgresInteractionStore;
  vault: PostgresCredentialVault;
  locks: PostgresKeyedLock;
  grantStates: PostgresGrantStateStore;
  /** The audit log of hand-offs, grants and credential uses. */
  audit: PostgresAuditLog;
  pool: PostgresPool;
  /** Ends the pool when `connectPostgres` opened it; afterwards calls reject with SdkError "CONNECTION_CLOSED". */
  close(): Promise<void>;
}

/**
 * Opens (or takes) a pool, applies the migrations unless `migrate: false`, and builds the
 * interaction store, credential vault, keyed lock, grant-state store and audit log on it.
 * @throws SdkError "INVALID_ARGUMENT" when the schema, table prefix, vault keys or a
 *   `postgres://` connection string are malformed (nothing is connected, and the message shows no
 *   part of the string); SdkError "DEPENDENCY_MISSING" when a connection string is given and pg is
 *   not installed; SdkError "STORE_UNAVAILABLE" when PostgreSQL cannot be reached to migrate.
 */
export async function connectPostgres(options: ConnectPostgresOptions): Promise<PostgresStores> {
  const location = { schema: options.schema, tablePrefix: options.tablePrefix };
  tablesOf(location);
  const logger = options.logger ?? consoleLogger();
  const make = (pool: PostgresPool) => ({
    interactions: new PostgresInteractionStore({ ...location, pool, now: options.now }),
    vault: new PostgresCredentialVault({ ...location, pool, encryption: options.vault?.encryption }),
    locks: new PostgresKeyedLock({ ...location, pool, logger }),
    grantStates: new PostgresGrantStateStore({ ...location, pool, now: options.now }),
    audit: new PostgresAuditLog({ ...location, pool }),
  });
  let pool: PostgresPool;
  let owned: boolean;
  if (options.pool !== undefined) {
    pool = options.pool;
    owned = false;
  } else {
    checkConnectionString(options.connectionString);
    // Checked before the pool opens, so bad keys open no connection.
    new CredentialCipher(options.vault?.encryption);
    pool = openPostgresPool({
      connectionString: options.connectionString,
      connectionTimeoutMillis: options.connectionTimeoutMs ?? 5_000,
      query_timeout: options.queryTimeoutMs ?? 10_000,
      ...(options.maxConnections === undefined ? {} : { max: options.maxConnections }),
    });
    owned = true;
  }
  const stores = make(pool);
  // Without a listener, a connection that fails while idle would end the process.
  const onIdleError = (error: Error): void => {
    logger.warn(
      { err: storeError(error, "an idle connection") },
      "An idle PostgreSQL connection failed; the pool opens another when one is needed.",
    );
  };
  pool.on("error", onIdleError);
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      if (owned) await pool.end();
      pool.removeListener("error", onIdleError);
    })();
    return closing;
  };
  if (options.migrate ?? true) {
    try {
      await migrate(pool, location);
    } catch (error) {
      await close().catch(() => {});
      throw error;
    }
  }
  return { ...stores, pool, close };
}

/** @throws SdkError "INVALID_ARGUMENT", without the string or a cause (which would carry it). */
function checkConnectionString(connectionString: unknown): asserts connectionString is string {
  if (typeof connectionString !== "string" || connectionString === "") {
    throw new SdkError("INVALID_ARGUMENT", "connectPostgres needs a connectionString or a pool.");
  }
  if (!/^postgres(ql)?:\/\//i.test(connectionString)) return;
  try {
    new URL(connectionString);
  } catch {
    throw new SdkError(
      "INVALID_ARGUMENT",
      "The PostgreSQL connection string is not a valid URL (postgres://user:password@host:port/database).",
    );
  }
}

/**
 * Applies the missing migrations to the database at `connectionString` on a pool of its own,
 * closed afterwards: what `handoff migrate` runs.
 * @returns the steps applied, oldest first; empty when the schema was up to date.
 * @throws as `migrate` does; SdkError "INVALID_ARGUMENT" for a malformed `postgres://` URL (the
 *   message shows no part of it); SdkError "DEPENDENCY_MISSING" when pg is not installed.
 */
export async function migrateDatabase(
  connectionString: string,
  location: PostgresLocation = {},
): Promise<AppliedMigration[]> {
  tablesOf(location);
  checkConnectionString(connectionString);
  const pool = openPostgresPool({ connectionString, connectionTimeoutMillis: 5_000, query_timeout: 60_000, max: 1 });
  // An idle connection that fails before the pool ends has nothing left to do.
  const ignore = (): void => {};
  pool.on("error", ignore);
  try {
    return await migrate(pool, location);
  } finally {
    await pool.end();
  }
}
