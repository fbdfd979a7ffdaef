import type { UserRef } from "../model/identity.js";
import type { StoredCredential } from "../model/interaction.js";
import { CredentialCipher, type SealedSecret, type VaultEncryption } from "../stores/credential-cipher.js";
import type { CredentialVault } from "../stores/types.js";
import {
  byProvider,
  type CredentialMetadata,
  checkCredential,
  checkProvider,
  checkUsedAt,
  checkUser,
  metadataOf,
  toStoredCredential,
} from "../stores/vault-records.js";
import type { PostgresQueryable } from "./driver.js";
import type { PostgresStoreOptions } from "./interaction-store.js";
import { query, transaction } from "./query.js";
import { type PostgresTables, tablesOf } from "./tables.js";

interface Row {
  issuer: string;
  subject: string;
  provider: string;
  key_id: string;
  iv: Buffer;
  ciphertext: Buffer;
  tag: Buffer;
  scopes: string[] | null;
  expires_at: number | null;
  updated_at: number;
  account: string | null;
  created_at: number | null;
  last_used_at: number | null;
}

type KeyCheckRow = Pick<Row, "key_id" | "iv" | "ciphertext" | "tag">;

export interface PostgresCredentialVaultOptions extends PostgresStoreOptions {
  /** Keys to seal secrets with, or `INSECURE_PLAINTEXT_VAULT_FOR_TESTS`. */
  encryption: VaultEncryption;
}

const WHERE = "issuer = $1 AND subject = $2 AND provider = $3";

/**
 * A `CredentialVault` in PostgreSQL, shared by every instance of a fleet, sealed exactly as the
 * SQLite vault seals: AES-256-GCM, a random IV per write, the user and provider bound to each
 * sealed secret, the key id on each row (rows under an older key stay readable until `rotate()`),
 * and a key check value per key id written by its first use, so an instance given another key
 * under a known id refuses to write. Every call rejects with SdkError "STORE_UNAVAILABLE" while
 * PostgreSQL cannot be reached, and works again once it can.
 */
export class PostgresCredentialVault implements CredentialVault {
  readonly #pool: PostgresStoreOptions["pool"];
  readonly #cipher: CredentialCipher;
  readonly #tables: PostgresTables;
  /** Whether the current key passed its key check; it cannot stop passing, since checks are never changed. */
  #keyChecked = false;

  /**
   * @throws SdkError "INVALID_ARGUMENT" when a key is not 32 bytes, `currentKeyId` is not among the
   *   keys, or `schema` or `tablePrefix` is not a plain lower-case identifier.
   */
  constructor(options: PostgresCredentialVaultOptions) {
    this.#cipher = new CredentialCipher(options.encryption);
    this.#tables = tablesOf(options);
    this.#pool = options.pool;
  }

  /**
   * Stores or replaces the credential in one upsert.
   * @throws SdkError "INVALID_ARGUMENT" when a field has the wrong type, or the current key is not
   *   the one this vault's credentials were sealed with under its id (nothing is written).
   */
  async put(user: UserRef, credential: StoredCredential): Promise<void> {
    checkUser(user);
    checkCredential(credential);
    await this.#checkCurrentKey();
    const sealed = this.#cipher.seal(user, credential.provider, credential);
    const metadata = metadataOf(credential);
    await query(
      this.#pool,
      "vault.put",
      `INSERT INTO ${this.#tables.credentials}
         (issuer, subject, provider, key_id, iv, ciphertext, tag, scopes, expires_at, updated_at,
          account, created_at, last_used_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
       ON CONFLICT (issuer, subject, provider) DO UPDATE SET
         key_id = excluded.key_id, iv = excluded.iv, ciphertext = excluded.ciphertext, tag = excluded.tag,
         scopes = excluded.scopes, expires_at = excluded.expires_at, updated_at = excluded.updated_at,
         account = excluded.account, created_at = excluded.created_at, last_used_at = excluded.last_used_at`,
      [
        user.issuer,
        user.subject,
        credential.provider,
        ...sealedValues(sealed),
        metadata.scopes ?? null,
        metadata.expiresAt ?? null,
        metadata.updatedAt,
        metadata.account ?? null,
        metadata.createdAt ?? null,
        metadata.lastUsedAt ?? null,
      ],
    );
  }

  /** @throws SdkError "CREDENTIAL_UNREADABLE" when the stored secret cannot be decrypted. */
  async get(user: UserRef, provider: string): Promise<StoredCredential | undefined> {
    checkUser(user);
    checkProvider(provider);
    const { rows } = await query<Row>(
      this.#pool,
      "vault.get",
      `SELECT * FROM ${this.#tables.credentials} WHERE ${WHERE}`,
      [user.issuer, user.subject, provider],
    );
    const row = rows[0];
    if (row === undefined) return undefined;
    return toStoredCredential(provider, this.#cipher.open(user, provider, sealedOf(row)), metadataOfRow(row));
  }

  async delete(user: UserRef, provider: string): Promise<boolean> {
    checkUser(user);
    checkProvider(provider);
    const { rowCount } = await query(
      this.#pool,
      "vault.delete",
      `DELETE FROM ${this.#tables.credentials} WHERE ${WHERE}`,
      [user.issuer, user.subject, provider],
    );
    return (rowCount ?? 0) > 0;
  }

  /** The user's credentials by provider name, read in one query. @throws SdkError "CREDENTIAL_UNREADABLE" as `get`. */
  async list(user: UserRef): Promise<StoredCredential[]> {
    checkUser(user);
    const { rows } = await query<Row>(
      this.#pool,
      "vault.list",
      `SELECT * FROM ${this.#tables.credentials} WHERE issuer = $1 AND subject = $2`,
      [user.issuer, user.subject],
    );
    return rows
      .map((row) =>
        toStoredCredential(row.provider, this.#cipher.open(user, row.provider, sealedOf(row)), metadataOfRow(row)),
      )
      .sort(byProvider);
  }

  /** Sets `last_used_at` of a stored credential in one UPDATE; the sealed secret is left as it is. */
  async markUsed(user: UserRef, provider: string, at: number): Promise<void> {
    checkUser(user);
    checkProvider(provider);
    checkUsedAt(at);
    await query(
      this.#pool,
      "vault.markUsed",
      `UPDATE ${this.#tables.credentials} SET last_used_at = $4 WHERE ${WHERE}`,
      [user.issuer, user.subject, provider, at],
    );
  }

  /**
   * Re-seals, in one transaction, every row not sealed with the current key; the rows are locked
   * meanwhile, so a write by another instance waits. Afterwards the old keys can be dropped from
   * every instance's configuration.
   * @returns how many rows were re-sealed.
   * @throws SdkError "CREDENTIAL_UNREADABLE" (and changes nothing) when a row cannot be decrypted;
   *   SdkError "INVALID_ARGUMENT" when the current key fails its key check, as for `put`.
   */
  async rotate(): Promise<number> {
    await this.#checkCurrentKey();
    const table = this.#tables.credentials;
    return transaction(this.#pool, "vault.rotate", async (client) => {
      const { rows } = await query<Row>(
        client,
        "vault.rotate",
        `SELECT * FROM ${table} WHERE key_id <> $1 FOR UPDATE`,
        [this.#cipher.currentKeyId],
      );
      let count = 0;
      for (const row of rows) {
        const user = { issuer: row.issuer, subject: row.subject };
        const sealed = this.#cipher.seal(user, row.provider, this.#cipher.open(user, row.provider, sealedOf(row)));
        const { rowCount } = await query(
          client,
          "vault.rotate",
          `UPDATE ${table} SET key_id = $4, iv = $5, ciphertext = $6, tag = $7 WHERE ${WHERE} AND key_id = $8`,
          [row.issuer, row.subject, row.provider, ...sealedValues(sealed), row.key_id],
        );
        count += rowCount ?? 0;
      }
      return count;
    });
  }

  /** Stores the current key's check value on first use, and refuses a key that does not match the stored one. */
  async #checkCurrentKey(): Promise<void> {
    const keyId = this.#cipher.currentKeyId;
    if (this.#keyChecked || keyId === "") return;
    let stored = await this.#keyCheck(this.#pool, keyId);
    if (stored === undefined) {
      const check = this.#cipher.keyCheck();
      if (check !== undefined) {
        // Another instance may store its own first; that one is the check.
        await query(
          this.#pool,
          "vault.keyCheck",
          `INSERT INTO ${this.#tables.keyChecks} (key_id, iv, ciphertext, tag) VALUES ($1, $2, $3, $4)
           ON CONFLICT (key_id) DO NOTHING`,
          sealedValues(check),
        );
      }
      stored = await this.#keyCheck(this.#pool, keyId);
    }
    if (stored !== undefined) this.#cipher.assertCurrentKey(sealedOf(stored));
    this.#keyChecked = true;
  }

  async #keyCheck(db: PostgresQueryable, keyId: string): Promise<KeyCheckRow | undefined> {
    const { rows } = await query<KeyCheckRow>(
      db,
      "vault.keyCheck",
      `SELECT key_id, iv, ciphertext, tag FROM ${this.#tables.keyChecks} WHERE key_id = $1`,
      [keyId],
    );
    return rows[0];
  }
}

function sealedValues(sealed: SealedSecret): [string, Buffer, Buffer, Buffer] {
  return [sealed.keyId, sealed.iv, sealed.ciphertext, sealed.tag];
}

function sealedOf(row: KeyCheckRow): SealedSecret {
  return { keyId: row.key_id, iv: row.iv, ciphertext: row.ciphertext, tag: row.tag };
}

function metadataOfRow(row: Row): CredentialMetadata {
  const metadata: CredentialMetadata = { updatedAt: row.updated_at };
  if (row.scopes !== null) metadata.scopes = row.scopes;
  if (row.expires_at !== null) metadata.expiresAt = row.expires_at;
  if (row.account !== null) metadata.account = row.account;
  if (row.created_at !== null) metadata.createdAt = row.created_at;
  if (row.last_used_at !== null) metadata.lastUsedAt = row.last_used_at;
  return metadata;
}
