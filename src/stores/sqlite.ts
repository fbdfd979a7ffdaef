/** Opening a SQLite database for the stores, and the version table their schemas are recorded in. */
import { SdkError } from "../jsonrpc/errors.js";
import { openSqliteFile, type SqliteDatabase, type SqliteStatement } from "./sqlite-driver.js";

export type { SqliteDatabase, SqliteStatement, SqliteTransaction } from "./sqlite-driver.js";

/**
 * Where a SQLite store keeps its tables: a file it opens (and closes), or a database the caller
 * opened and shares, for example between an interaction store and a vault (`close()` leaves that one open).
 */
export type SqliteFileOptions =
  | {
      /**
       * A file path, or `":memory:"` for a private in-memory database that ends with `close()`.
       * Opened with better-sqlite3, an optional peer dependency to install beside mcp-handoff.
       */
      filename: string;
      database?: never;
    }
  | {
      /** An open better-sqlite3 database; its owner chooses its journal mode and closes it. */
      database: SqliteDatabase;
      filename?: never;
    };

/** An open database and whether the store owns (and so closes) it. */
export interface SqliteHandle {
  db: SqliteDatabase;
  owned: boolean;
}

const VERSION_TABLE = `CREATE TABLE IF NOT EXISTS handoff_schema_versions (
  component TEXT PRIMARY KEY,
  version INTEGER NOT NULL
)`;

/**
 * Opens the database and creates `component`'s tables with `schema` (the tables of `version`) unless
 * the version table says they exist; tables of an older version are brought up to `version` by the
 * `migrations` to each later version, in one transaction. A file the store opens itself uses WAL,
 * so readers never wait for a writer.
 * @throws SdkError "INVALID_ARGUMENT" when the database holds a newer schema version than `version`;
 *   SdkError "DEPENDENCY_MISSING" when a file is to be opened and better-sqlite3 is not installed.
 */
export function openSqlite(
  options: SqliteFileOptions,
  component: string,
  version: number,
  schema: string,
  migrations: Readonly<Record<number, string>> = {},
): SqliteHandle {
  const owned = options.database === undefined;
  const db = options.database ?? openSqliteFile(options.filename);
  try {
    if (owned && !db.memory) db.pragma("journal_mode = WAL");
    // Two processes opening the same new file both try to create it; IMMEDIATE lets one go first.
    db.transaction(() => {
      db.exec(VERSION_TABLE);
      const row = db.prepare("SELECT version FROM handoff_schema_versions WHERE component = ?").get(component) as
        | { version: number }
        | undefined;
      if (row === undefined) {
        db.exec(schema);
        db.prepare("INSERT INTO handoff_schema_versions (component, version) VALUES (?, ?)").run(component, version);
        return;
      }
      // Schema numbers, not protocol revisions: each step from the stored one up to this one.
      const steps = version - row.version;
      if (steps < 0) {
        throw new SdkError(
          "INVALID_ARGUMENT",
          `The database holds ${component} schema version ${row.version}; this version of mcp-handoff reads up to ${version}.`,
        );
      }
      for (let step = 1; step <= steps; step++) db.exec(migrations[row.version + step] ?? "");
      if (steps > 0) {
        db.prepare("UPDATE handoff_schema_versions SET version = ? WHERE component = ?").run(version, component);
      }
    }).immediate();
    return { db, owned };
  } catch (error) {
    if (owned) db.close();
    throw error;
  }
}

/** Prepares `source`, typed by the caller: its parameters and the shape of its rows. */
export function prepare<Params extends unknown[], Result = unknown>(
  db: SqliteDatabase,
  source: string,
): SqliteStatement<Params, Result> {
  return db.prepare(source) as SqliteStatement<Params, Result>;
}

/** @throws SdkError "CONNECTION_CLOSED" once the store or its database was closed. */
export function assertOpen(db: SqliteDatabase, closed: boolean): void {
  if (closed || !db.open) throw new SdkError("CONNECTION_CLOSED", "The store is closed.");
}
