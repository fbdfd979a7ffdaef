/**
 * The PostgreSQL engines of the shared stores, for a fleet of instances behind one load balancer:
 * the interaction store, the credential vault (sealed as the other vaults are), a keyed lock on
 * advisory locks, the `state` of third-party grants, and the audit log; their tables made and kept up to date by
 * versioned migrations (`migrate`, or `handoff migrate`). pg is an optional peer dependency,
 * loaded only when `connectPostgres` opens a pool from a connection string.
 * @module mcp-handoff/postgres
 */

export { PostgresAuditLog, type PostgresAuditLogOptions } from "./audit-log.js";
export { type ConnectPostgresOptions, connectPostgres, migrateDatabase, type PostgresStores } from "./connect.js";
export { PostgresCredentialVault, type PostgresCredentialVaultOptions } from "./credential-vault.js";
export type {
  PostgresPool,
  PostgresPoolClient,
  PostgresQueryable,
  PostgresQueryResult,
} from "./driver.js";
export { PostgresGrantStateStore, type PostgresGrantStateStoreOptions } from "./grant-state-store.js";
export {
  PostgresInteractionStore,
  type PostgresInteractionStoreOptions,
  type PostgresStoreOptions,
} from "./interaction-store.js";
export { PostgresKeyedLock, type PostgresKeyedLockOptions } from "./keyed-lock.js";
export { type AppliedMigration, MIGRATIONS, type Migration, migrate } from "./migrations.js";
export { DEFAULT_SCHEMA, DEFAULT_TABLE_PREFIX, type PostgresLocation, type PostgresTables } from "./tables.js";
