/**
 * pg (node-postgres), an optional peer dependency: loaded when `connectPostgres` opens a pool from
 * a connection string, never by importing `mcp-handoff/postgres`, so an application that passes its
 * own pool, or uses no PostgreSQL store, loads nothing. The types below are the part of a pg `Pool`
 * the stores use, declared here so that the package's declarations do not depend on `@types/pg`;
 * a `Pool` of pg 8 has this shape.
 */
import { createRequire } from "node:module";
import { SdkError } from "../jsonrpc/errors.js";

/** The package name, as the user installs it. */
export const POSTGRES_DRIVER = "pg";

/** The rows of one query, and how many rows it wrote or read (`null` for a command without a count). */
export interface PostgresQueryResult<Row> {
  rows: Row[];
  rowCount: number | null;
}

/** Something that runs one parameterized query (`$1`, `$2`, ...): a pool, or a client of it. */
export interface PostgresQueryable {
  query<Row = Record<string, unknown>>(text: string, values?: unknown[]): Promise<PostgresQueryResult<Row>>;
}

/** A connection taken out of a pool, as pg's `PoolClient` is one. */
export interface PostgresPoolClient extends PostgresQueryable {
  /** Gives the connection back to its pool; with `true` (or an error), closes it instead. */
  release(destroy?: boolean | Error): void;
  on(event: "error", listener: (error: Error) => void): unknown;
  removeListener(event: "error", listener: (error: Error) => void): unknown;
}

/** A pool of connections, as pg's `Pool` is one. */
export interface PostgresPool extends PostgresQueryable {
  connect(): Promise<PostgresPoolClient>;
  /** Closes every connection; the pool cannot be used afterwards. */
  end(): Promise<void>;
  /** An idle connection failed (the server restarted, say); the pool drops it and opens another when needed. */
  on(event: "error", listener: (error: Error) => void): unknown;
  removeListener(event: "error", listener: (error: Error) => void): unknown;
}

/** The options of a pool that `connectPostgres` opens, as pg's `PoolConfig` takes them. */
export interface PostgresPoolConfig {
  connectionString: string;
  /** ms to wait for a new connection before the operation fails. */
  connectionTimeoutMillis: number;
  /** ms a query may wait for its answer; then it fails and its connection is closed. */
  query_timeout: number;
  max?: number;
}

type PoolConstructor = new (config: PostgresPoolConfig) => PostgresPool;

/** Loads a module by name, as `require` does; tests pass one that resolves from elsewhere. */
export type ModuleLoader = (name: string) => unknown;

/**
 * The `Pool` class of pg, loaded with `load`.
 * @throws SdkError "DEPENDENCY_MISSING" when pg is not installed, saying how to install it; any
 *   other failure to load it as it is.
 */
export function loadPostgresDriver(load: ModuleLoader): PoolConstructor {
  let loaded: { Pool?: unknown };
  try {
    loaded = load(POSTGRES_DRIVER) as { Pool?: unknown };
  } catch (error) {
    throw isMissing(error) ? missingDriver(error) : error;
  }
  if (typeof loaded?.Pool !== "function") {
    throw new SdkError("DEPENDENCY_MISSING", `The package ${POSTGRES_DRIVER} that was found has no Pool class.`);
  }
  return loaded.Pool as PoolConstructor;
}

let driver: PoolConstructor | undefined;

/**
 * A new pool of pg, loaded on the first call.
 * @throws SdkError "DEPENDENCY_MISSING" when pg is not installed.
 */
export function openPostgresPool(config: PostgresPoolConfig): PostgresPool {
  driver ??= loadPostgresDriver(createRequire(import.meta.url));
  return new driver(config);
}

/** Whether `error` says that pg itself cannot be found (not a module it requires). */
function isMissing(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (code !== "MODULE_NOT_FOUND" && code !== "ERR_MODULE_NOT_FOUND") return false;
  const [first = ""] = error.message.split("\n");
  return first.includes(`'${POSTGRES_DRIVER}'`);
}

function missingDriver(cause: unknown): SdkError {
  return new SdkError(
    "DEPENDENCY_MISSING",
    `The PostgreSQL stores need the package ${POSTGRES_DRIVER}, an optional peer dependency of mcp-handoff that is not installed. Install it with \`npm install ${POSTGRES_DRIVER}\`, or pass a pool of your own.`,
    { cause },
  );
}
