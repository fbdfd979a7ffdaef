import type { UserRef } from "../model/identity.js";
import type { StoredCredential } from "../model/interaction.js";
import { CredentialCipher, type SealedSecret, type VaultEncryption } from "./credential-cipher.js";
import type { CredentialVault } from "./types.js";
import {
  byProvider,
  type CredentialMetadata,
  checkCredential,
  checkProvider,
  checkUsedAt,
  checkUser,
  metadataOf,
  toStoredCredential,
} from "./vault-records.js";

interface MemoryRecord {
  user: UserRef;
  provider: string;
  sealed: SealedSecret;
  metadata: CredentialMetadata;
}

/** What vaults opened `from` one another share: the records and the key check value of each key id. */
interface MemoryStorage {
  records: Map<string, MemoryRecord>;
  keyChecks: Map<string, SealedSecret>;
}

export interface MemoryCredentialVaultOptions {
  /** Keys to seal secrets with, or `INSECURE_PLAINTEXT_VAULT_FOR_TESTS`. */
  encryption: VaultEncryption;
  /**
   * Carry on with the credentials of an earlier vault, sharing them (for example to change keys
   * without a restart: open one with the new keys `from` the old, then `rotate()`).
   */
  from?: MemoryCredentialVault;
}

/**
 * A `CredentialVault` in this process's memory. It seals secrets exactly as the SQLite vault
 * does, so a heap dump holds ciphertext, not the secrets it keeps. Its first write with a key id
 * keeps a key check value for it, shared with the vaults opened `from` it, so a vault given another
 * key under that id refuses to write.
 */
export class MemoryCredentialVault implements CredentialVault {
  readonly #cipher: CredentialCipher;
  readonly #storage: MemoryStorage;

  /** @throws SdkError "INVALID_ARGUMENT" when a key is not 32 bytes or `currentKeyId` is not among the keys. */
  constructor(options: MemoryCredentialVaultOptions) {
    this.#cipher = new CredentialCipher(options.encryption);
    this.#storage = options.from ? options.from.#storage : { records: new Map(), keyChecks: new Map() };
  }

  get #records(): Map<string, MemoryRecord> {
    return this.#storage.records;
  }

  /**
   * @throws SdkError "INVALID_ARGUMENT" when a field has the wrong type, or the current key is not
   *   the one this storage's credentials were sealed with under its id (nothing is written).
   */
  async put(user: UserRef, credential: StoredCredential): Promise<void> {
    checkUser(user);
    checkCredential(credential);
    this.#checkCurrentKey();
    const owner = { issuer: user.issuer, subject: user.subject };
    this.#records.set(recordKey(owner, credential.provider), {
      user: owner,
      provider: credential.provider,
      sealed: this.#cipher.seal(owner, credential.provider, credential),
      metadata: metadataOf(credential),
    });
  }

  /** @throws SdkError "CREDENTIAL_UNREADABLE" when the stored secret cannot be decrypted. */
  async get(user: UserRef, provider: string): Promise<StoredCredential | undefined> {
    checkUser(user);
    checkProvider(provider);
    const record = this.#records.get(recordKey(user, provider));
    if (record === undefined) return undefined;
    return toStoredCredential(provider, this.#cipher.open(user, provider, record.sealed), record.metadata);
  }

  async delete(user: UserRef, provider: string): Promise<boolean> {
    checkUser(user);
    checkProvider(provider);
    return this.#records.delete(recordKey(user, provider));
  }

  /** The user's credentials by provider name. @throws SdkError "CREDENTIAL_UNREADABLE" as `get`. */
  async list(user: UserRef): Promise<StoredCredential[]> {
    checkUser(user);
    const found: StoredCredential[] = [];
    for (const record of this.#records.values()) {
      if (record.user.issuer !== user.issuer || record.user.subject !== user.subject) continue;
      found.push(
        toStoredCredential(record.provider, this.#cipher.open(user, record.provider, record.sealed), record.metadata),
      );
    }
    return found.sort(byProvider);
  }

  /** Sets `lastUsedAt` of a stored credential; its sealed secret is left as it is. */
  async markUsed(user: UserRef, provider: string, at: number): Promise<void> {
    checkUser(user);
    checkProvider(provider);
    checkUsedAt(at);
    const key = recordKey(user, provider);
    const record = this.#records.get(key);
    if (record !== undefined) this.#records.set(key, { ...record, metadata: { ...record.metadata, lastUsedAt: at } });
  }

  /**
   * Re-seals every credential not sealed with the current key; all or none.
   * @returns how many were re-sealed.
   * @throws SdkError "CREDENTIAL_UNREADABLE" (and changes nothing) when one cannot be decrypted;
   *   SdkError "INVALID_ARGUMENT" when the current key fails its key check, as for `put`.
   */
  async rotate(): Promise<number> {
    this.#checkCurrentKey();
    const resealed: [string, MemoryRecord][] = [];
    for (const [key, record] of this.#records) {
      if (record.sealed.keyId === this.#cipher.currentKeyId) continue;
      const secrets = this.#cipher.open(record.user, record.provider, record.sealed);
      resealed.push([key, { ...record, sealed: this.#cipher.seal(record.user, record.provider, secrets) }]);
    }
    for (const [key, record] of resealed) this.#records.set(key, record);
    return resealed.length;
  }

  /** Keeps the current key's check value on first use, and refuses a key that does not match the kept one. */
  #checkCurrentKey(): void {
    const keyId = this.#cipher.currentKeyId;
    const kept = this.#storage.keyChecks.get(keyId);
    if (kept !== undefined) {
      this.#cipher.assertCurrentKey(kept);
      return;
    }
    const check = this.#cipher.keyCheck();
    if (check !== undefined) this.#storage.keyChecks.set(keyId, check);
  }
}

function recordKey(user: UserRef, provider: string): string {
  return JSON.stringify([user.issuer, user.subject, provider]);
}
