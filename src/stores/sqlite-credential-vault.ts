import type { UserRef } from "../model/identity.js";
import type { StoredCredential } from "../model/interaction.js";
import { CredentialCipher, type SealedSecret, type VaultEncryption, wrongKey } from "./credential-cipher.js";
import {
  assertOpen,
  openSqlite,
  prepare,
  type SqliteDatabase,
  type SqliteFileOptions,
  type SqliteStatement as Statement,
} from "./sqlite.js";
import type { CredentialVault } from "./types.js";
import {
  type CredentialMetadata,
  checkCredential,
  checkProvider,
  checkUsedAt,
  checkUser,
  metadataOf,
  toStoredCredential,
} from "./vault-records.js";

const SCHEMA = `
CREATE TABLE handoff_credentials (
  issuer TEXT NOT NULL,
  subject TEXT NOT NULL,
  provider TEXT NOT NULL,
  key_id TEXT NOT NULL,
  iv BLOB NOT NULL,
  ciphertext BLOB NOT NULL,
  tag BLOB NOT NULL,
  scopes TEXT,
  expires_at INTEGER,
  updated_at INTEGER NOT NULL,
  account TEXT,
  created_at INTEGER,
  last_used_at INTEGER,
  PRIMARY KEY (issuer, subject, provider)
) WITHOUT ROWID;
`;

/** Version 2: the key check value of each key id (a constant sealed with that key), written once. */
const KEY_CHECKS = `
CREATE TABLE handoff_credential_key_checks (
  key_id TEXT PRIMARY KEY,
  iv BLOB NOT NULL,
  ciphertext BLOB NOT NULL,
  tag BLOB NOT NULL
) WITHOUT ROWID;
`;

/**
 * Version 3: what the connections page shows beside the sealed secret, in the clear so that
 * `markUsed` changes one column and never re-seals. Rows of before have none of them (NULL).
 */
const CONNECTION_COLUMNS = `
ALTER TABLE handoff_credentials ADD COLUMN account TEXT;
ALTER TABLE handoff_credentials ADD COLUMN created_at INTEGER;
ALTER TABLE handoff_credentials ADD COLUMN last_used_at INTEGER;
`;

interface Row {
  issuer: string;
  subject: string;
  provider: string;
  key_id: string;
  iv: Buffer;
  ciphertext: Buffer;
  tag: Buffer;
  scopes: string | null;
  expires_at: number | null;
  updated_at: number;
  account: string | null;
  created_at: number | null;
  last_used_at: number | null;
}

type RowKey = Pick<Row, "issuer" | "subject" | "provider">;

type KeyCheckRow = Pick<Row, "key_id" | "iv" | "ciphertext" | "tag">;

export type SqliteCredentialVaultOptions = SqliteFileOptions & {
  /** Keys to seal secrets with, or `INSECURE_PLAINTEXT_VAULT_FOR_TESTS`. */
  encryption: VaultEncryption;
};

/**
 * A `CredentialVault` in a SQLite database (better-sqlite3). Secrets rest sealed with AES-256-GCM;
 * each row records its key id, so rows sealed with an older key stay readable until `rotate()`.
 * The first write with a key id stores a key check value for it (in a file written before there
 * were any, one of that id's rows is opened instead), so a vault given another key under that id
 * refuses to write rather than mix rows that the other vaults cannot read.
 */
export class SqliteCredentialVault implements CredentialVault {
  readonly #cipher: CredentialCipher;
  readonly #db: SqliteDatabase;
  readonly #ownsDb: boolean;
  #closed = false;
  readonly #upsert: Statement<[Row]>;
  readonly #select: Statement<[RowKey], Row>;
  readonly #delete: Statement<[RowKey]>;
  readonly #listOf: Statement<[Pick<Row, "issuer" | "subject">], Row>;
  readonly #markUsed: Statement<[RowKey & { at: number }]>;
  readonly #stale: Statement<[string], Row>;
  readonly #reseal: Statement<[Pick<Row, "key_id" | "iv" | "ciphertext" | "tag"> & RowKey & { old_key_id: string }]>;
  readonly #selectKeyCheck: Statement<[string], KeyCheckRow>;
  readonly #insertKeyCheck: Statement<[KeyCheckRow]>;
  readonly #anySealedWith: Statement<[string], Row>;
  /** Whether the current key passed its key check; it cannot stop passing, since checks are never changed. */
  #keyChecked = false;

  /**
   * @throws SdkError "INVALID_ARGUMENT" when a key is not 32 bytes, `currentKeyId` is not among the
   * keys, or the file holds a newer schema; SdkError "DEPENDENCY_MISSING" when `filename` is given and
   * better-sqlite3 (an optional peer dependency) is not installed.
   */
  constructor(options: SqliteCredentialVaultOptions) {
    this.#cipher = new CredentialCipher(options.encryption);
    const { db, owned } = openSqlite(options, "credentials", 3, SCHEMA + KEY_CHECKS, {
      2: KEY_CHECKS,
      3: CONNECTION_COLUMNS,
    });
    this.#db = db;
    this.#ownsDb = owned;
    const where = "issuer = @issuer AND subject = @subject AND provider = @provider";
    this.#upsert = prepare(
      this.#db,
      `INSERT INTO handoff_credentials
         (issuer, subject, provider, key_id, iv, ciphertext, tag, scopes, expires_at, updated_at,
          account, created_at, last_used_at)
       VALUES (@issuer, @subject, @provider, @key_id, @iv, @ciphertext, @tag, @scopes, @expires_at, @updated_at,
          @account, @created_at, @last_used_at)
       ON CONFLICT (issuer, subject, provider) DO UPDATE SET
         key_id = excluded.key_id, iv = excluded.iv, ciphertext = excluded.ciphertext, tag = excluded.tag,
         scopes = excluded.scopes, expires_at = excluded.expires_at, updated_at = excluded.updated_at,
         account = excluded.account, created_at = excluded.created_at, last_used_at = excluded.last_used_at`,
    );
    this.#select = prepare(this.#db, `SELECT * FROM handoff_credentials WHERE ${where}`);
    this.#delete = prepare(this.#db, `DELETE FROM handoff_credentials WHERE ${where}`);
    this.#listOf = prepare(
      this.#db,
      "SELECT * FROM handoff_credentials WHERE issuer = @issuer AND subject = @subject ORDER BY provider",
    );
    this.#markUsed = prepare(this.#db, `UPDATE handoff_credentials SET last_used_at = @at WHERE ${where}`);
    this.#stale = prepare(this.#db, "SELECT * FROM handoff_credentials WHERE key_id != ?");
    this.#reseal = prepare(
      this.#db,
      `UPDATE handoff_credentials SET key_id = @key_id, iv = @iv, ciphertext = @ciphertext, tag = @tag
       WHERE ${where} AND key_id = @old_key_id`,
    );
    this.#selectKeyCheck = prepare(this.#db, "SELECT * FROM handoff_credential_key_checks WHERE key_id = ?");
    this.#insertKeyCheck = prepare(
      this.#db,
      `INSERT INTO handoff_credential_key_checks (key_id, iv, ciphertext, tag)
       VALUES (@key_id, @iv, @ciphertext, @tag) ON CONFLICT (key_id) DO NOTHING`,
    );
    this.#anySealedWith = prepare(this.#db, "SELECT * FROM handoff_credentials WHERE key_id = ? LIMIT 1");
  }

  /**
   * @throws SdkError "INVALID_ARGUMENT" when a field has the wrong type, or the current key is not
   *   the one this file's credentials were sealed with under its id (nothing is written).
   */
  async put(user: UserRef, credential: StoredCredential): Promise<void> {
    assertOpen(this.#db, this.#closed);
    checkUser(user);
    checkCredential(credential);
    this.#checkCurrentKey();
    const sealed = this.#cipher.seal(user, credential.provider, credential);
    const metadata = metadataOf(credential);
    this.#upsert.run({
      ...rowKey(user, credential.provider),
      ...sealedColumns(sealed),
      scopes: metadata.scopes === undefined ? null : JSON.stringify(metadata.scopes),
      expires_at: metadata.expiresAt ?? null,
      updated_at: metadata.updatedAt,
      account: metadata.account ?? null,
      created_at: metadata.createdAt ?? null,
      last_used_at: metadata.lastUsedAt ?? null,
    });
  }

  /** @throws SdkError "CREDENTIAL_UNREADABLE" when the stored secret cannot be decrypted. */
  async get(user: UserRef, provider: string): Promise<StoredCredential | undefined> {
    assertOpen(this.#db, this.#closed);
    checkUser(user);
    checkProvider(provider);
    const row = this.#select.get(rowKey(user, provider));
    if (row === undefined) return undefined;
    return toStoredCredential(provider, this.#cipher.open(user, provider, sealedOf(row)), metadataOfRow(row));
  }

  async delete(user: UserRef, provider: string): Promise<boolean> {
    assertOpen(this.#db, this.#closed);
    checkUser(user);
    checkProvider(provider);
    return this.#delete.run(rowKey(user, provider)).changes > 0;
  }

  /** The user's credentials by provider name, read in one statement. @throws SdkError "CREDENTIAL_UNREADABLE" as `get`. */
  async list(user: UserRef): Promise<StoredCredential[]> {
    assertOpen(this.#db, this.#closed);
    checkUser(user);
    return this.#listOf
      .all({ issuer: user.issuer, subject: user.subject })
      .map((row) =>
        toStoredCredential(row.provider, this.#cipher.open(user, row.provider, sealedOf(row)), metadataOfRow(row)),
      );
  }

  /** Sets `last_used_at` of a stored credential in one UPDATE; the sealed secret is left as it is. */
  async markUsed(user: UserRef, provider: string, at: number): Promise<void> {
    assertOpen(this.#db, this.#closed);
    checkUser(user);
    checkProvider(provider);
    checkUsedAt(at);
    this.#markUsed.run({ ...rowKey(user, provider), at });
  }

  /**
   * Re-seals, in one transaction, every row not sealed with the current key. Afterwards the old
   * keys can be dropped from the configuration.
   * @returns how many rows were re-sealed.
   * @throws SdkError "CREDENTIAL_UNREADABLE" (and changes nothing) when a row cannot be decrypted;
   *   SdkError "INVALID_ARGUMENT" when the current key fails its key check, as for `put`.
   */
  async rotate(): Promise<number> {
    assertOpen(this.#db, this.#closed);
    this.#checkCurrentKey();
    const rotateAll = this.#db.transaction(() => {
      let count = 0;
      for (const row of this.#stale.all(this.#cipher.currentKeyId)) {
        const user = { issuer: row.issuer, subject: row.subject };
        const secrets = this.#cipher.open(user, row.provider, sealedOf(row));
        const sealed = this.#cipher.seal(user, row.provider, secrets);
        count += this.#reseal.run({
          ...rowKey(user, row.provider),
          ...sealedColumns(sealed),
          old_key_id: row.key_id,
        }).changes;
      }
      return count;
    });
    // IMMEDIATE takes the write lock before reading, so no other connection writes in between.
    return rotateAll.immediate();
  }

  /** Stores the current key's check value on first use, and refuses a key that does not match the stored one. */
  #checkCurrentKey(): void {
    const keyId = this.#cipher.currentKeyId;
    if (this.#keyChecked || keyId === "") return;
    let stored = this.#selectKeyCheck.get(keyId);
    if (stored === undefined) {
      // Rows written before key checks existed: the current key must open one of its id's rows.
      const row = this.#anySealedWith.get(keyId);
      if (row !== undefined) {
        try {
          this.#cipher.open({ issuer: row.issuer, subject: row.subject }, row.provider, sealedOf(row));
        } catch {
          throw wrongKey(keyId);
        }
      }
      const check = this.#cipher.keyCheck();
      if (check !== undefined) this.#insertKeyCheck.run(sealedColumns(check));
      // Another connection may have stored its own first; that one is the check.
      stored = this.#selectKeyCheck.get(keyId);
    }
    if (stored !== undefined) this.#cipher.assertCurrentKey(sealedOf(stored));
    this.#keyChecked = true;
  }

  /**
   * Closes the database it opened (a shared `database` stays open); later calls reject with
   * SdkError "CONNECTION_CLOSED".
   */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#ownsDb && this.#db.open) this.#db.close();
  }
}

function rowKey(user: UserRef, provider: string): RowKey {
  return { issuer: user.issuer, subject: user.subject, provider };
}

function sealedColumns(sealed: SealedSecret): Pick<Row, "key_id" | "iv" | "ciphertext" | "tag"> {
  return { key_id: sealed.keyId, iv: sealed.iv, ciphertext: sealed.ciphertext, tag: sealed.tag };
}

function sealedOf(row: KeyCheckRow): SealedSecret {
  return { keyId: row.key_id, iv: row.iv, ciphertext: row.ciphertext, tag: row.tag };
}

function metadataOfRow(row: Row): CredentialMetadata {
  const metadata: CredentialMetadata = { updatedAt: row.updated_at };
  if (row.scopes !== null) metadata.scopes = JSON.parse(row.scopes);
  if (row.expires_at !== null) metadata.expiresAt = row.expires_at;
  if (row.account !== null) metadata.account = row.account;
  if (row.created_at !== null) metadata.createdAt = row.created_at;
  if (row.last_used_at !== null) metadata.lastUsedAt = row.last_used_at;
  return metadata;
}
