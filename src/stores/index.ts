/**
 * Storage for hand-offs: interaction stores, credential vaults and message buses, each in
 * memory and (for the first two) in SQLite. Every implementation passes the same contract tests.
 * @module mcp-handoff/stores
 */

/** How long a hand-off stays open when its creator names no deadline: 10 minutes, in ms. */
export const DEFAULT_INTERACTION_TTL_MS = 600_000;

export {
  AUDIT_MAX_FIELD_LENGTH,
  AUDIT_MAX_REASON_LENGTH,
  AUDIT_MAX_SCOPES,
  auditTo,
  checkAuditEntry,
} from "./audit.js";
export {
  INSECURE_PLAINTEXT_VAULT_FOR_TESTS,
  type VaultEncryption,
  type VaultKeys,
} from "./credential-cipher.js";
export { InProcessMessageBus, type InProcessMessageBusOptions } from "./in-process-message-bus.js";
export { MemoryAuditLog } from "./memory-audit-log.js";
export { MemoryCredentialVault, type MemoryCredentialVaultOptions } from "./memory-credential-vault.js";
export { MemoryExpiringNotes, type MemoryExpiringNotesOptions } from "./memory-expiring-notes.js";
export { MemoryInteractionStore, type MemoryInteractionStoreOptions } from "./memory-interaction-store.js";
export { MemoryKeyedLock } from "./memory-keyed-lock.js";
export type { SqliteDatabase, SqliteFileOptions, SqliteStatement, SqliteTransaction } from "./sqlite.js";
export { SqliteAuditLog, type SqliteAuditLogOptions } from "./sqlite-audit-log.js";
export { SqliteCredentialVault, type SqliteCredentialVaultOptions } from "./sqlite-credential-vault.js";
export { SqliteInteractionStore, type SqliteInteractionStoreOptions } from "./sqlite-interaction-store.js";
export type {
  AuditEntry,
  AuditEvent,
  AuditLog,
  AuditRecord,
  CredentialVault,
  ExpiringNotes,
  GrantStateStore,
  InteractionStore,
  KeyedLock,
  LockOptions,
  MessageBus,
  OpenInteractionsOptions,
  PendingGrant,
} from "./types.js";
