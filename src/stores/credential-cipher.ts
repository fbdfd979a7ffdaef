/**
 * Sealing of stored credentials, shared by every vault: AES-256-GCM from node:crypto with a
 * random 96-bit IV per write, the user and provider bound as additional authenticated data.
 */
import { createCipheriv, createDecipheriv, createSecretKey, type KeyObject, randomBytes } from "node:crypto";
import { SdkError } from "../jsonrpc/errors.js";
import type { UserRef } from "../model/identity.js";
import type { StoredCredential } from "../model/interaction.js";

/**
 * Pass instead of keys to store credentials unencrypted. For tests only: anyone who can read
 * the storage reads every secret. A vault with keys refuses the rows such a vault wrote.
 */
export const INSECURE_PLAINTEXT_VAULT_FOR_TESTS: unique symbol = Symbol("INSECURE_PLAINTEXT_VAULT_FOR_TESTS");

/** The keys of a vault: each a 32-byte AES-256 key under a non-empty id that rows record. */
export interface VaultKeys {
  /** Every key that may still be needed to read; old ones stay until `rotate()` has run. */
  keys: Readonly<Record<string, Uint8Array>>;
  /** The key every write uses. */
  currentKeyId: string;
}

export type VaultEncryption = VaultKeys | typeof INSECURE_PLAINTEXT_VAULT_FOR_TESTS;

/** The secret part of a credential as it rests: `keyId` is `""` for an unencrypted row. */
export interface SealedSecret {
  keyId: string;
  iv: Buffer;
  ciphertext: Buffer;
  tag: Buffer;
}

const PLAINTEXT_KEY_ID = "";
const IV_BYTES = 12;
const AAD_LABEL = "mcp-handoff credential v1";
/** What a key check value seals: a constant, so that only the key that sealed it opens it to this text. */
const KEY_CHECK_TEXT = "mcp-handoff vault key check v1";

export type Secrets = Pick<StoredCredential, "secret" | "refreshToken">;

export class CredentialCipher {
  readonly #keys = new Map<string, KeyObject>();
  readonly #currentKeyId: string;

  /** @throws SdkError "INVALID_ARGUMENT" when a key is not 32 bytes or `currentKeyId` is not among the keys. */
  constructor(encryption: VaultEncryption) {
    if (encryption === INSECURE_PLAINTEXT_VAULT_FOR_TESTS) {
      this.#currentKeyId = PLAINTEXT_KEY_ID;
      return;
    }
    if (typeof encryption !== "object" || encryption === null || typeof encryption.keys !== "object") {
      throw new SdkError("INVALID_ARGUMENT", "A credential vault needs { keys, currentKeyId }.");
    }
    for (const [id, key] of Object.entries(encryption.keys)) {
      if (id === PLAINTEXT_KEY_ID) throw new SdkError("INVALID_ARGUMENT", "A vault key id must not be empty.");
      if (!(key instanceof Uint8Array) || key.byteLength !== 32) {
        throw new SdkError("INVALID_ARGUMENT", `Vault key "${id}" must be 32 bytes (AES-256).`);
      }
      // A KeyObject keeps the key material outside the JavaScript heap.
      this.#keys.set(id, createSecretKey(key));
    }
    if (!this.#keys.has(encryption.currentKeyId)) {
      throw new SdkError("INVALID_ARGUMENT", "The vault's currentKeyId names none of its keys.");
    }
    this.#currentKeyId = encryption.currentKeyId;
  }

  /** The key id that `seal` writes (`""` without encryption). */
  get currentKeyId(): string {
    return this.#currentKeyId;
  }

  seal(user: UserRef, provider: string, secrets: Secrets): SealedSecret {
    const plaintext = Buffer.from(JSON.stringify({ secret: secrets.secret, refreshToken: secrets.refreshToken }));
    const key = this.#keys.get(this.#currentKeyId);
    if (key === undefined) {
      return { keyId: PLAINTEXT_KEY_ID, iv: Buffer.alloc(0), ciphertext: plaintext, tag: Buffer.alloc(0) };
    }
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv("aes-256-gcm", key, iv);
    cipher.setAAD(additionalData(user, provider));
    const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    plaintext.fill(0);
    return { keyId: this.#currentKeyId, iv, ciphertext, tag: cipher.getAuthTag() };
  }

  /**
   * A key check value for the current key: a constant sealed under a random IV. Stored once per key
   * id, it lets a later vault tell whether it holds the same key under that id, without the key
   * (or anything derived from it alone) ever being stored. `undefined` without encryption.
   */
  keyCheck(): SealedSecret | undefined {
    const key = this.#keys.get(this.#currentKeyId);
    if (key === undefined) return undefined;
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv("aes-256-gcm", key, iv);
    cipher.setAAD(keyCheckData(this.#currentKeyId));
    const ciphertext = Buffer.concat([cipher.update(KEY_CHECK_TEXT, "utf8"), cipher.final()]);
    return { keyId: this.#currentKeyId, iv, ciphertext, tag: cipher.getAuthTag() };
  }

  /**
   * @throws SdkError "INVALID_ARGUMENT", naming the key id and nothing secret, when `check` (the key
   *   check value stored for the current key id) was not made with the current key: writing would
   *   seal credentials that the vault's other users cannot read.
   */
  assertCurrentKey(check: SealedSecret): void {
    const key = this.#keys.get(this.#currentKeyId);
    if (key === undefined || check.keyId !== this.#currentKeyId) return;
    let text = "";
    try {
      const decipher = createDecipheriv("aes-256-gcm", key, check.iv);
      decipher.setAAD(keyCheckData(check.keyId));
      decipher.setAuthTag(check.tag);
      text = Buffer.concat([decipher.update(check.ciphertext), decipher.final()]).toString("utf8");
    } catch {
      // A wrong key fails authentication; the text check below then refuses.
    }
    if (text !== KEY_CHECK_TEXT) throw wrongKey(check.keyId);
  }

  /**
   * @throws SdkError "CREDENTIAL_UNREADABLE" when the key is not configured or wrong, or the sealed
   * secret belongs to another user or provider; the message names the provider and key id only.
   */
  open(user: UserRef, provider: string, sealed: SealedSecret): Secrets {
    const unreadable = (why: string, cause?: unknown) =>
      new SdkError("CREDENTIAL_UNREADABLE", `The stored "${provider}" credential cannot be read: ${why}.`, { cause });
    let plaintext: Buffer;
    if (sealed.keyId === PLAINTEXT_KEY_ID) {
      if (this.#currentKeyId !== PLAINTEXT_KEY_ID)
        throw unreadable("it is stored unencrypted, and this vault has keys");
      plaintext = sealed.ciphertext;
    } else {
      const key = this.#keys.get(sealed.keyId);
      if (key === undefined) throw unreadable(`it was sealed with key "${sealed.keyId}", which is not configured`);
      try {
        const decipher = createDecipheriv("aes-256-gcm", key, sealed.iv);
        decipher.setAAD(additionalData(user, provider));
        decipher.setAuthTag(sealed.tag);
        plaintext = Buffer.concat([decipher.update(sealed.ciphertext), decipher.final()]);
      } catch (error) {
        throw unreadable(
          `key "${sealed.keyId}" does not authenticate it (wrong key, or the row was altered or moved)`,
          error,
        );
      }
    }
    try {
      const parsed = JSON.parse(plaintext.toString("utf8")) as Secrets;
      if (typeof parsed.secret !== "string") throw new Error("no secret");
      const secrets: Secrets = { secret: parsed.secret };
      if (typeof parsed.refreshToken === "string") secrets.refreshToken = parsed.refreshToken;
      return secrets;
    } catch {
      // JSON.parse errors quote the text they failed on, so none of it goes into the error.
      throw unreadable("its content is malformed");
    } finally {
      if (plaintext !== sealed.ciphertext) plaintext.fill(0);
    }
  }
}

/** The refusal to write with a key that is not the one stored credentials were sealed with under `keyId`. */
export function wrongKey(keyId: string): SdkError {
  return new SdkError(
    "INVALID_ARGUMENT",
    `Vault key "${keyId}" is not the key this vault's credentials were sealed with under that id (its key check value does not match); nothing was written. Configure the original key under "${keyId}", or the new key under a new id.`,
  );
}

function keyCheckData(keyId: string): Buffer {
  return Buffer.from(JSON.stringify([KEY_CHECK_TEXT, keyId]));
}

/** Binds a sealed secret to its row; a JSON array keeps `("a|b", "c")` apart from `("a", "b|c")`. */
function additionalData(user: UserRef, provider: string): Buffer {
  return Buffer.from(JSON.stringify([AAD_LABEL, user.issuer, user.subject, provider]));
}
