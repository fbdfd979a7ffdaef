/**
 * Where the PostgreSQL stores keep their tables: a schema and a table-name prefix, both checked
 * before they go into any SQL (identifiers cannot be query parameters), then written quoted.
 */
import { SdkError } from "../jsonrpc/errors.js";

/** The schema and table prefix shared by `migrate` and every PostgreSQL store. */
export interface PostgresLocation {
  /**
   * The schema holding the tables; created by `migrate` when absent. Lower-case letters, digits and
   * `_`, starting with a letter or `_`, at most 63 characters. Default `"public"`.
   */
  schema?: string;
  /**
   * Put before each table's name, so several deployments can share one schema. Lower-case letters,
   * digits and `_`, starting with a letter or `_`, at most 40 characters; may be empty.
   * Default `"mcp_handoff_"`.
   */
  tablePrefix?: string;
}

export const DEFAULT_SCHEMA = "public";
export const DEFAULT_TABLE_PREFIX = "mcp_handoff_";

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;
/** PostgreSQL cuts longer identifiers (NAMEDATALEN - 1). */
const MAX_IDENTIFIER = 63;
/** Leaves room for the longest table name after the prefix. */
const MAX_PREFIX = 40;

/** The quoted, schema-qualified name of every table, and what `migrate` locks on. */
export interface PostgresTables {
  /** The schema, quoted. */
  schema: string;
  /** The schema's name as given (checked), for queries of the catalog. */
  schemaName: string;
  /** The schema and prefix as given (checked), for messages and lock keys. */
  label: string;
  /** The quoted name, without the schema, of an index (which PostgreSQL puts in its table's schema). */
  index(name: string): string;
  migrations: string;
  interactions: string;
  credentials: string;
  keyChecks: string;
  grantStates: string;
  auditLog: string;
}

/**
 * The tables of `location`.
 * @throws SdkError "INVALID_ARGUMENT" when the schema or prefix is not a plain lower-case
 *   identifier (a quote, a semicolon, a space, an upper-case letter or a dot is refused).
 */
export function tablesOf(location: PostgresLocation = {}): PostgresTables {
  const schema = location.schema ?? DEFAULT_SCHEMA;
  const prefix = location.tablePrefix ?? DEFAULT_TABLE_PREFIX;
  if (typeof schema !== "string" || !IDENTIFIER.test(schema) || schema.length > MAX_IDENTIFIER) {
    throw new SdkError(
      "INVALID_ARGUMENT",
      `The PostgreSQL schema must be lower-case letters, digits and _, starting with a letter or _, at most ${MAX_IDENTIFIER} characters.`,
    );
  }
  if (typeof prefix !== "string" || (prefix !== "" && !IDENTIFIER.test(prefix)) || prefix.length > MAX_PREFIX) {
    throw new SdkError(
      "INVALID_ARGUMENT",
      `The PostgreSQL table prefix must be empty or lower-case letters, digits and _, starting with a letter or _, at most ${MAX_PREFIX} characters.`,
    );
  }
  const table = (name: string) => `"${schema}"."${prefix}${name}"`;
  return {
    schema: `"${schema}"`,
    schemaName: schema,
    index: (name) => `"${prefix}${name}"`,
    label: `${schema}.${prefix}`,
    migrations: table("schema_migrations"),
    interactions: table("interactions"),
    credentials: table("credentials"),
    keyChecks: table("credential_key_checks"),
    grantStates: table("grant_states"),
    auditLog: table("audit_log"),
  };
}
