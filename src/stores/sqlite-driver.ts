/**
 * better-sqlite3, an optional peer dependency: loaded when a SQLite store opens a file, never by
 * importing `mcp-handoff/stores`, so an application without the SQLite stores installs no native
 * module. The types below are the part of a better-sqlite3 database the stores use, declared here
 * so that the package's declarations do not depend on `@types/better-sqlite3`; a `Database` of
 * better-sqlite3 12 has this shape.
 */
import { createRequire } from "node:module";
import { SdkError } from "../jsonrpc/errors.js";

/** The package name, as the user installs it. */
export const SQLITE_DRIVER = "better-sqlite3";

/** A prepared statement: `run` for writes (`changes`: rows written), `get` for one row, `all` for every row. */
export interface SqliteStatement<Params extends unknown[] = unknown[], Result = unknown> {
  run(...params: Params): { changes: number };
  get(...params: Params): Result | undefined;
  all(...params: Params): Result[];
}

/** A function wrapped in a transaction; `immediate` takes the write lock before it runs. */
export interface SqliteTransaction<Result> {
  (): Result;
  immediate(): Result;
}

/** An open SQLite database, as better-sqlite3's `Database` is one. */
export interface SqliteDatabase {
  /** `false` once closed. */
  readonly open: boolean;
  /** Whether the database is in memory (`":memory:"`), not in a file. */
  readonly memory: boolean;
  prepare(source: string): SqliteStatement;
  exec(source: string): unknown;
  pragma(source: string): unknown;
  transaction<Result>(fn: () => Result): SqliteTransaction<Result>;
  close(): unknown;
}

type DatabaseConstructor = new (filename: string) => SqliteDatabase;

/** Loads a module by name, as `require` does; tests pass one that resolves from elsewhere. */
export type ModuleLoader = (name: string) => unknown;

/**
 * The `Database` class of better-sqlite3, loaded with `load`.
 * @throws SdkError "DEPENDENCY_MISSING" when better-sqlite3 is not installed, saying how to install
 *   it; any other failure to load it (a missing dependency of its own, say) as it is.
 */
export function loadSqliteDriver(load: ModuleLoader): DatabaseConstructor {
  try {
    return load(SQLITE_DRIVER) as DatabaseConstructor;
  } catch (error) {
    throw isMissing(error) ? missingDriver(error) : error;
  }
}

let driver: DatabaseConstructor | undefined;

/**
 * Opens (or creates) a database file with better-sqlite3, loaded on the first call.
 * @throws SdkError "DEPENDENCY_MISSING" when better-sqlite3 is not installed.
 */
export function openSqliteFile(filename: string): SqliteDatabase {
  driver ??= loadSqliteDriver(createRequire(import.meta.url));
  return new driver(filename);
}

/** Whether `error` says that better-sqlite3 itself cannot be found (not a module it requires). */
function isMissing(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (code !== "MODULE_NOT_FOUND" && code !== "ERR_MODULE_NOT_FOUND") return false;
  // The first line names the module not found; the require stack below it may name better-sqlite3 too.
  const [first = ""] = error.message.split("\n");
  return first.includes(`'${SQLITE_DRIVER}'`);
}

function missingDriver(cause: unknown): SdkError {
  return new SdkError(
    "DEPENDENCY_MISSING",
    `The SQLite stores need the package ${SQLITE_DRIVER}, an optional peer dependency of mcp-handoff that is not installed. Install it with \`npm install ${SQLITE_DRIVER}\`, or use MemoryInteractionStore and MemoryCredentialVault.`,
    { cause },
  );
}
