/** Checks and shapes both credential vaults share, so they accept and return the same things. */

import { SdkError } from "../jsonrpc/errors.js";
import type { UserRef } from "../model/identity.js";
import type { StoredCredential } from "../model/interaction.js";
import type { Secrets } from "./credential-cipher.js";

/** What a vault keeps in the clear next to the sealed secrets. */
export interface CredentialMetadata {
  scopes?: string[];
  expiresAt?: number;
  updatedAt: number;
  /** The account at the provider, as the connections page names it; no secret. */
  account?: string;
  createdAt?: number;
  /** Changed by `markUsed` alone, without opening the sealed secret. */
  lastUsedAt?: number;
}

const invalid = (field: string, type: string) =>
  new SdkError("INVALID_ARGUMENT", `Credential field ${field} must be ${type}.`);

/** @throws SdkError "INVALID_ARGUMENT" naming the field (never its value). */
export function checkUser(user: UserRef): void {
  if (typeof user?.issuer !== "string" || user.issuer === "") throw invalid("user.issuer", "a non-empty string");
  if (typeof user.subject !== "string" || user.subject === "") throw invalid("user.subject", "a non-empty string");
}

/** @throws SdkError "INVALID_ARGUMENT" naming the field (never its value). */
export function checkProvider(provider: string): void {
  if (typeof provider !== "string" || provider === "") throw invalid("provider", "a non-empty string");
}

/** @throws SdkError "INVALID_ARGUMENT" naming the field (never its value). */
export function checkCredential(credential: StoredCredential): void {
  checkProvider(credential?.provider);
  if (typeof credential.secret !== "string") throw invalid("secret", "a string");
  if (credential.refreshToken !== undefined && typeof credential.refreshToken !== "string") {
    throw invalid("refreshToken", "a string");
  }
  const scopes = credential.scopes;
  if (scopes !== undefined && !(Array.isArray(scopes) && scopes.every((s) => typeof s === "string"))) {
    throw invalid("scopes", "an array of strings");
  }
  if (credential.expiresAt !== undefined && !Number.isFinite(credential.expiresAt)) {
    throw invalid("expiresAt", "a number (ms since the epoch)");
  }
  if (!Number.isFinite(credential.updatedAt)) throw invalid("updatedAt", "a number (ms since the epoch)");
  if (credential.account !== undefined && typeof credential.account !== "string") throw invalid("account", "a string");
  for (const field of ["createdAt", "lastUsedAt"] as const) {
    if (credential[field] !== undefined && !Number.isFinite(credential[field])) {
      throw invalid(field, "a number (ms since the epoch)");
    }
  }
}

/** @throws SdkError "INVALID_ARGUMENT" when `at` is not a number (ms since the epoch). */
export function checkUsedAt(at: number): void {
  if (!Number.isFinite(at)) throw invalid("at", "a number (ms since the epoch)");
}

export function metadataOf(credential: StoredCredential): CredentialMetadata {
  const metadata: CredentialMetadata = { updatedAt: credential.updatedAt };
  if (credential.scopes !== undefined) metadata.scopes = [...credential.scopes];
  if (credential.expiresAt !== undefined) metadata.expiresAt = credential.expiresAt;
  if (credential.account !== undefined) metadata.account = credential.account;
  if (credential.createdAt !== undefined) metadata.createdAt = credential.createdAt;
  if (credential.lastUsedAt !== undefined) metadata.lastUsedAt = credential.lastUsedAt;
  return metadata;
}

/** The credential as `get` returns it: absent optional fields are left out, not `undefined`. */
export function toStoredCredential(provider: string, secrets: Secrets, metadata: CredentialMetadata): StoredCredential {
  const credential: StoredCredential = { provider, secret: secrets.secret, updatedAt: metadata.updatedAt };
  if (secrets.refreshToken !== undefined) credential.refreshToken = secrets.refreshToken;
  if (metadata.scopes !== undefined) credential.scopes = [...metadata.scopes];
  if (metadata.expiresAt !== undefined) credential.expiresAt = metadata.expiresAt;
  if (metadata.account !== undefined) credential.account = metadata.account;
  if (metadata.createdAt !== undefined) credential.createdAt = metadata.createdAt;
  if (metadata.lastUsedAt !== undefined) credential.lastUsedAt = metadata.lastUsedAt;
  return credential;
}

/** Orders credentials as `CredentialVault.list` returns them: by provider name, code unit by code unit. */
export const byProvider = (a: { provider: string }, b: { provider: string }): number =>
  a.provider < b.provider ? -1 : a.provider > b.provider ? 1 : 0;
