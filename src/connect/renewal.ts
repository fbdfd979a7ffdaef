/**
 * Renewing a stored OAuth credential with its refresh token, once at a time per grant across every
 * instance that shares the lock, the vault and the notes: a refresh token may be spent only once,
 * and a provider that rotates it answers a second use by revoking the grant.
 */
import { createHash } from "node:crypto";
import { ResponseBodyError } from "oauth4webapi";
import { SdkError } from "../jsonrpc/errors.js";
import type { UserRef } from "../model/identity.js";
import type { StoredCredential } from "../model/interaction.js";
import { auditScopes } from "../stores/audit.js";
import type { AuditEntry, CredentialVault, ExpiringNotes, KeyedLock } from "../stores/types.js";
import type { AuthorizationServerConfig } from "./oauth-server.js";
import { OAuthServers } from "./oauth-server.js";
import { refreshCredential } from "./provider-flow.js";

export interface RenewalOptions {
  providers: Readonly<Record<string, AuthorizationServerConfig>>;
  vault: CredentialVault;
  locks: KeyedLock;
  notes: ExpiringNotes;
  /** ms before `expiresAt` at which an access token is renewed. */
  renewEarlyMs: number;
  /** ms one instance holds a grant's lock at most; its refresh is abandoned at half of it. */
  leaseMs: number;
  /** ms another instance waits for that lock. */
  waitMs: number;
  /** ms for which a refresh the provider did not answer is not tried again, by any instance. */
  outageMs: number;
  /** ms since the epoch. */
  now: () => number;
  /**
   * ms a credential must have been held (since its `updatedAt`) before a 401 forces its refresh.
   * A token that fresh was not refused for its age (another endpoint, a missing scope): a refresh
   * would spend the refresh token on every call a steered URL makes, and change nothing.
   */
  forcedRefreshAfterMs: number;
  /** Records each refresh (`grant.refreshed`, ok or failed); made with `auditTo`, so it never throws. */
  audit?: (entry: AuditEntry) => Promise<void>;
}

/**
 * The key of one grant's lock and notes: a hash of the JSON array of its parts, so no issuer,
 * subject or provider, whatever it contains, can name another grant's key, and none appears in
 * the lock's engine.
 */
export function renewalKey(user: UserRef, provider: string): string {
  const parts = JSON.stringify([user.issuer, user.subject, provider]);
  return `refresh:${createHash("sha256").update(parts).digest("base64url")}`;
}

/** Which stored version of a credential a note speaks of, without any secret in it. */
const versionOf = (credential: StoredCredential): string =>
  JSON.stringify([credential.updatedAt, credential.expiresAt ?? null]);

const sameVersion = (a: StoredCredential, b: StoredCredential): boolean =>
  a.secret === b.secret &&
  a.refreshToken === b.refreshToken &&
  a.expiresAt === b.expiresAt &&
  a.updatedAt === b.updatedAt;

/** Error codes of an error answer that say the provider is down, not that it refuses (RFC 6749 § 4.1.2.1). */
const OUTAGE_ERRORS = new Set(["server_error", "temporarily_unavailable"]);

/**
 * Whether the token endpoint refused the refresh token (RFC 6749 § 5.2), rather than saying it
 * could not serve the request now: a 429 (rate limited) or an error code of an outage is not one.
 */
function isRefusal(error: unknown): boolean {
  return error instanceof ResponseBodyError && error.status !== 429 && !OUTAGE_ERRORS.has(error.error);
}

export class CredentialRenewal {
  readonly #options: RenewalOptions;
  readonly #servers = new OAuthServers();
  /** Renewals under way in this process, by grant, so that its callers share one lock call. */
  readonly #underWay = new Map<string, Promise<StoredCredential | undefined>>();

  constructor(options: RenewalOptions) {
    this.#options = options;
  }

  /** Whether `credential` is to be renewed before use. */
  due(credential: StoredCredential): boolean {
    const renewAt = (credential.expiresAt ?? Number.POSITIVE_INFINITY) - this.#options.renewEarlyMs;
    return this.#options.now() >= renewAt;
  }

  /**
   * Renews `stale`, or returns what another instance renewed it to meanwhile.
   * @returns `undefined` when the provider refused the refresh token (the credential is deleted,
   *   so every instance hands the user off again) or the credential is gone; forced, also when it
   *   has no refresh token and has not expired (it is kept).
   * @throws SdkError "TRANSPORT_ERROR" when the provider did not answer, now or (by any instance)
   *   within the last `outageMs`, and the access token has expired (the credential is kept);
   *   SdkError "LOCK_TIMEOUT" when another instance held the grant's lock for all of `waitMs`.
   * @param options.force renew even before `expiresAt` (the provider answered 401 to the access
   *   token), unless another instance renewed it meanwhile: its token is then returned.
   */
  renew(
    user: UserRef,
    stale: StoredCredential,
    options: { force?: boolean } = {},
  ): Promise<StoredCredential | undefined> {
    const key = renewalKey(user, stale.provider);
    let underWay = this.#underWay.get(key);
    if (underWay === undefined) {
      underWay = this.#renewLocked(key, user, stale, options.force === true).finally(() => this.#underWay.delete(key));
      this.#underWay.set(key, underWay);
    }
    return underWay;
  }

  async #renewLocked(
    key: string,
    user: UserRef,
    stale: StoredCredential,
    force: boolean,
  ): Promise<StoredCredential | undefined> {
    const { leaseMs, waitMs } = this.#options;
    try {
      return await this.#options.locks.withLock(key, { leaseMs, waitMs }, () =>
        this.#renewHeld(key, user, stale, force),
      );
    } catch (error) {
      if (!(error instanceof SdkError) || error.code !== "LOCK_TIMEOUT") throw error;
      throw new SdkError(
        "LOCK_TIMEOUT",
        `The ${stale.provider} credential is being renewed elsewhere, which did not finish within ${waitMs} ms`,
        { cause: error },
      );
    }
  }

  /** Runs while this instance holds the grant's lock; the vault is read again, since another may have renewed. */
  async #renewHeld(
    key: string,
    user: UserRef,
    stale: StoredCredential,
    force: boolean,
  ): Promise<StoredCredential | undefined> {
    const { vault, notes } = this.#options;
    const current = await vault.get(user, stale.provider);
    if (current === undefined) return undefined;
    // Forced, a version other than the one refused (renewed meanwhile) is tried before another refresh.
    if (!sameVersion(current, stale) && (force || !this.due(current))) return current;
    // Forced by a 401 on a token just obtained: kept as it is, and the 401 goes back to the tool.
    if (force && !this.due(current) && this.#options.now() - current.updatedAt < this.#options.forcedRefreshAfterMs) {
      return undefined;
    }
    if (current.refreshToken === undefined) {
      // Forced by a 401 before it expired: nothing to renew it with, and a 401 does not say the
      // token is dead (an endpoint wanting another kind of token answers so), so it is kept.
      if (!this.due(current)) return undefined;
      await vault.delete(user, current.provider);
      await this.#record(user, current, "failed", "expired without a refresh token; removed");
      return undefined;
    }
    if ((await notes.get(key)) === versionOf(current)) return this.#outage(current);
    let renewed: StoredCredential;
    try {
      renewed = await refreshCredential(
        { providers: this.#options.providers, servers: this.#servers, now: this.#options.now },
        { ...current, refreshToken: current.refreshToken },
        AbortSignal.timeout(Math.max(1, Math.floor(this.#options.leaseMs / 2))),
      );
    } catch (error) {
      // Only a refusal (revoked, expired) ends the credential; an outage must not throw it away.
      if (isRefusal(error)) {
        await vault.delete(user, current.provider);
        await this.#record(user, current, "failed", "the provider refused the refresh token; removed");
        return undefined;
      }
      await notes.put(key, versionOf(current), this.#options.outageMs);
      await this.#record(user, current, "failed", "the provider did not answer");
      return this.#outage(current, error);
    }
    // A grant the user made meanwhile on a connect page (which does not wait for this lock) is
    // newer than the one renewed here: it stays, and is what the caller gets; one forgotten
    // meanwhile (`forget`) is not brought back.
    const meanwhile = await vault.get(user, current.provider);
    if (meanwhile === undefined || !sameVersion(meanwhile, current)) return meanwhile;
    // Written before the lock is released, so the next holder reads the rotated refresh token.
    await vault.put(user, renewed);
    await this.#record(user, renewed, "ok");
    return renewed;
  }

  /** One `grant.refreshed` record: the provider and scopes, never a token. */
  async #record(
    user: UserRef,
    credential: StoredCredential,
    outcome: AuditEntry["outcome"],
    reason?: string,
  ): Promise<void> {
    if (this.#options.audit === undefined) return;
    const detail: NonNullable<AuditEntry["detail"]> = {};
    if (credential.scopes !== undefined) detail.scopes = auditScopes(credential.scopes);
    if (reason !== undefined) detail.reason = reason;
    await this.#options.audit({
      at: this.#options.now(),
      event: "grant.refreshed",
      user: { issuer: user.issuer, subject: user.subject },
      provider: credential.provider,
      outcome,
      ...(Object.keys(detail).length === 0 ? {} : { detail }),
    });
  }

  /** An access token that still works is used while the provider is away; an expired one cannot be. */
  #outage(current: StoredCredential, cause?: unknown): StoredCredential {
    if (current.expiresAt !== undefined && this.#options.now() < current.expiresAt) return current;
    throw new SdkError(
      "TRANSPORT_ERROR",
      `Could not renew the ${current.provider} credential: the provider did not answer (not asked again for ${this.#options.outageMs} ms)`,
      cause === undefined ? undefined : { cause },
    );
  }
}
