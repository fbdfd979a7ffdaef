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
}

export function metadataOf(credential: StoredCredential): CredentialMetadata {
  const metadata: CredentialMetadata = { updatedAt: credential.updatedAt };
  if (credential.scopes !== undefined) metadata.scopes = [...credential.scopes];
  if (credential.expiresAt !== undefined) metadata.expiresAt = credential.expiresAt;
  return metadata;
}

/** The credential as `get` returns it: absent optional fields are left out, not `undefined`. */
export function toStoredCredential(provider: string, secrets: Secrets, metadata: CredentialMetadata): StoredCredential {
  const credential: StoredCredential = { provider, secret: secrets.secret, updatedAt: metadata.updatedAt };
  if (secrets.refreshToken !== undefined) credential.refreshToken = secrets.refreshToken;
  if (metadata.scopes !== undefined) credential.scopes = [...metadata.scopes];
  if (metadata.expiresAt !== undefined) credential.expiresAt = metadata.expiresAt;
  return credential;
}
