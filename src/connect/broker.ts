/**
 * `CredentialBroker`: what `ctx.credentials.require` runs. It returns the user's stored credential
 * (renewed through its refresh token when expired) or starts the hand-off that obtains one: an
 * interaction whose URL is this server's connect page and whose purpose says what to do there.
 * `ctx.credentials.fetch` uses the same credential for a request to the provider's own API hosts.
 */

import { INTERACTION_ID_IN_URL, InteractionRequired } from "../interaction/server/index.js";
import { SdkError } from "../jsonrpc/errors.js";
import { consoleLogger, type Logger } from "../jsonrpc/logger.js";
import type { UserRef } from "../model/identity.js";
import type { StoredCredential } from "../model/interaction.js";
import type {
  CredentialFetchInit,
  CredentialRequest,
  CredentialSource,
  InteractionService,
  RequestContext,
} from "../server/index.js";
import { auditTo } from "../stores/audit.js";
import { MemoryExpiringNotes } from "../stores/memory-expiring-notes.js";
import { MemoryKeyedLock } from "../stores/memory-keyed-lock.js";
import { tracedLock, tracedVault } from "../stores/traced.js";
import type { AuditLog, CredentialVault, ExpiringNotes, KeyedLock, MessageBus } from "../stores/types.js";
import { Tracing, type TracingOption } from "../tracing/index.js";
import {
  announceRevoked,
  type Connection,
  connectionOf,
  type DisconnectedBy,
  type DisconnectResult,
  parseRevoked,
  REVOKED_CHANNEL,
  type RevokedGrant,
  revokeUpstream,
} from "./connections.js";
import { type CredentialFetchSettings, credentialFetchSettings, fetchWithCredential } from "./credential-fetch.js";
import { checkDestination, oauthDestination, type SecretDestination, secretDestination } from "./destination.js";
import { type AuthorizationServerConfig, OAuthServers } from "./oauth-server.js";
import { secretName } from "./purpose.js";
import { CredentialRenewal, renewalKey } from "./renewal.js";

export interface CredentialBrokerOptions {
  /** Finds the request's user (`userFor`). */
  service: Pick<InteractionService, "userFor">;
  vault: CredentialVault;
  /** Where the connect pages are served; the hand-off URL is `${baseUrl}/connect/<id>`. */
  baseUrl: string;
  /** OAuth providers (the same as the connect handler's); any other name is asked for as a secret. */
  providers: Readonly<Record<string, AuthorizationServerConfig>>;
  /**
   * Secret providers (API keys) by name: the hosts `ctx.credentials.fetch` may send each to, the
   * header it goes in and its label, e.g. `{ forecast: { hosts: ["api.forecast.example"], header:
   * "X-Api-Key", label: "Forecast API key" } }`. A secret provider not listed here is still asked
   * for, but `fetch` sends it nowhere.
   * @throws SdkError "INVALID_ARGUMENT" from the constructor for a host that is not a bare host
   *   name (with an optional port) or a header that is not a header name.
   */
  secrets?: Readonly<Record<string, SecretDestination>>;
  /** Form labels of secret providers, e.g. `{ forecast: "API key" }`, where `secrets` gives no `label`; default "API key". */
  secretLabels?: Readonly<Record<string, string>>;
  /**
   * Where the broker's steps are recorded (`docs/audit.md`): each use of a credential by
   * `ctx.credentials.fetch` ("credential.used": the provider, host, method and status, the user,
   * client and session), each refresh ("grant.refreshed", ok or failed) and each `disconnect`
   * ("grant.revoked", outcome `failed` when the provider did not revoke). A log that fails is
   * reported to `logger` and the step goes on. Default: none.
   */
  audit?: AuditLog;
  /**
   * Hears a failed audit append, a failed `markUsed`, a failed renewal after a 401, a provider's
   * failed revocation and a bus that failed; default `consoleLogger()`.
   */
  logger?: Logger;
  /**
   * What `ctx.credentials.fetch` sends each request with, e.g. a `fetch` bound to an undici
   * `Agent` with the API's CA; default `globalThis.fetch`. It is called with `redirect: "manual"`.
   */
  fetch?: typeof globalThis.fetch;
  /** Redirects `ctx.credentials.fetch` follows before refusing; default 5. */
  maxRedirects?: number;
  /**
   * Development only: lets `ctx.credentials.fetch` send credentials over plain http to listed API
   * hosts on loopback (`127.0.0.1`, `[::1]`, `localhost`). Never set it on a deployed server:
   * anything else on the machine could read the traffic. Default false: https only.
   */
  unsafeHttpLoopbackForDevelopment?: boolean;
  /** ms before `expiresAt` at which an access token is renewed; default 30,000. */
  renewEarlyMs?: number;
  /**
   * ms a credential must have been held before a 401 to `ctx.credentials.fetch` refreshes it;
   * default 60,000. A token obtained more recently than that is not refreshed (the 401 is
   * returned as it is), so that a URL answering every token with 401 cannot make each call spend
   * the refresh token.
   */
  forcedRefreshAfterMs?: number;
  /**
   * Held while one grant is renewed (key `refresh:` and a hash of issuer, subject and provider), so
   * that the instances of a fleet spend a refresh token once: give every instance the same Redis
   * or PostgreSQL lock. Default: a `MemoryKeyedLock` of this broker (one instance).
   */
  locks?: KeyedLock;
  /**
   * Where a refresh the provider did not answer is noted (under the lock's key) for
   * `renewalOutageMs`, so the instances waiting on it fail at once instead of each asking again:
   * share it like `locks`. Default: a `MemoryExpiringNotes` of this broker.
   */
  notes?: ExpiringNotes;
  /** ms one instance holds a grant's lock at most; its refresh is abandoned at half of it. Default 20,000. */
  renewalLeaseMs?: number;
  /** ms to wait for a grant's lock another instance holds; default 25,000. */
  renewalWaitMs?: number;
  /** ms for which a refresh the provider did not answer is not tried again; default 5,000. */
  renewalOutageMs?: number;
  /** ms since the epoch; default `Date.now`. */
  now?: () => number;
  /**
   * OpenTelemetry tracing (`docs/tracing.md`): a span for each call to the vault and the lock made
   * while a request is traced. Default: the global tracer provider when `@opentelemetry/api` is
   * installed, else none; `false`: none.
   */
  tracing?: TracingOption;
  /**
   * Where `disconnect` announces a revoked grant (channel `mcp-handoff:grants:revoked`, no token in
   * it), and where this broker hears the others' announcements: give every instance the same bus.
   * Default none (one instance).
   */
  bus?: MessageBus;
  /**
   * Called on every instance sharing `bus` (this one included) when a user's grant was revoked,
   * for whatever the application keeps made from the token (an API client, a cache of answers).
   * The broker itself keeps no copy: the vault is the only one.
   */
  onRevoked?: (grant: RevokedGrant) => void;
  /** ms a provider's revocation endpoint is given to answer; default 10,000. */
  revocationTimeoutMs?: number;
}

export class CredentialBroker implements CredentialSource {
  readonly #options: CredentialBrokerOptions;
  readonly #renewal: CredentialRenewal;
  readonly #fetching: CredentialFetchSettings;
  readonly #locks: KeyedLock;
  readonly #servers = new OAuthServers();
  readonly #logger: Logger;
  readonly #audit: ReturnType<typeof auditTo>;
  readonly #listening: Promise<(() => Promise<void>) | undefined>;

  constructor(options: CredentialBrokerOptions) {
    const tracing = Tracing.from(options.tracing);
    this.#options = { ...options, vault: tracedVault(options.vault, tracing) };
    const now = options.now ?? Date.now;
    for (const [name, config] of Object.entries(options.providers))
      checkDestination(name, oauthDestination(config.apiHosts));
    for (const [name, config] of Object.entries(options.secrets ?? {}))
      checkDestination(name, secretDestination(config));
    const logger = options.logger ?? consoleLogger();
    this.#logger = logger;
    this.#audit = auditTo(options.audit, logger);
    this.#locks = tracedLock(options.locks ?? new MemoryKeyedLock(), tracing);
    this.#listening = this.#listen();
    this.#fetching = credentialFetchSettings(options, { audit: this.#audit, vault: this.#options.vault, logger, now });
    this.#renewal = new CredentialRenewal({
      providers: options.providers,
      vault: this.#options.vault,
      locks: this.#locks,
      notes: options.notes ?? new MemoryExpiringNotes({ now }),
      renewEarlyMs: options.renewEarlyMs ?? 30_000,
      forcedRefreshAfterMs: options.forcedRefreshAfterMs ?? 60_000,
      leaseMs: options.renewalLeaseMs ?? 20_000,
      waitMs: options.renewalWaitMs ?? 25_000,
      outageMs: options.renewalOutageMs ?? 5_000,
      now,
      ...(options.audit === undefined ? {} : { audit: this.#audit }),
    });
  }

  /**
   * `request.kind` `"secret"` asks for a typed secret even for a provider with an authorization
   * server; `request.label` names it on the form and in the message.
   * @throws InteractionRequired when the user must connect `provider` first (without `wait`);
   *   SdkError "INVALID_ARGUMENT" when the request has no verified user, or asks for `kind: "oauth"`
   *   of a provider without an authorization server in `providers`; with `wait`, whatever
   *   `ctx.interact` and `ctx.waitForInteraction` throw, or SdkError "REQUEST_CANCELLED" when the
   *   user did not open the page; SdkError "TRANSPORT_ERROR" when renewal fails without an answer
   *   from the provider, now or within `renewalOutageMs`, and the access token has expired (the
   *   credential is kept; one that still works is returned instead); SdkError "LOCK_TIMEOUT" when
   *   another instance renewed the grant for longer than `renewalWaitMs`.
   */
  async require(provider: string, request: CredentialRequest, ctx: RequestContext): Promise<StoredCredential> {
    const user = this.#options.service.userFor(ctx.authInfo);
    if (user === undefined) {
      throw new SdkError(
        "INVALID_ARGUMENT",
        "Credentials need a verified user (authorization with issuer and subject)",
      );
    }
    const scopes = request.scopes ?? [];
    const stored = await this.#usable(user, provider, scopes);
    if (stored !== undefined) return stored;
    const configured = Object.hasOwn(this.#options.providers, provider);
    const oauth = request.kind === undefined ? configured : request.kind === "oauth";
    if (oauth && !configured) {
      throw new SdkError("INVALID_ARGUMENT", `No authorization server is configured for ${JSON.stringify(provider)}`);
    }
    const label =
      request.label ??
      own(this.#options.secrets, provider)?.label ??
      own(this.#options.secretLabels, provider) ??
      "API key";
    const params = {
      url: `${this.#options.baseUrl.replace(/\/+$/, "")}/connect/${INTERACTION_ID_IN_URL}`,
      message: oauth
        ? `Connect your ${provider} account to continue.`
        : `Enter your ${secretName(provider, label)} to continue.`,
      purpose: oauth ? { kind: "oauth", provider, scopes } : { kind: "secret", provider, label },
    };
    if (!request.wait) throw new InteractionRequired(params);
    const outcome = await ctx.interact(params);
    if (outcome.action === "decline")
      throw new SdkError("REQUEST_CANCELLED", `The user declined to connect ${provider}`);
    if (outcome.action !== "accept") throw new SdkError("REQUEST_CANCELLED", "The user did not open the page");
    await ctx.waitForInteraction(outcome.interaction.id);
    const obtained = await this.#options.vault.get(user, provider);
    if (obtained === undefined) throw new SdkError("INVALID_RESULT", "The hand-off completed without a credential");
    return obtained;
  }

  /**
   * `ctx.credentials.fetch`: an OAuth provider's access token goes as `Authorization: Bearer` to
   * its `apiHosts`, renewed once on a 401; a secret goes as its `secrets` entry declares.
   * @throws as `RequestContext.credentials.fetch` says, and what `require` throws.
   */
  async fetch(
    provider: string,
    input: string | URL | Request,
    init: CredentialFetchInit,
    ctx: RequestContext,
  ): Promise<Response> {
    const user = this.#options.service.userFor(ctx.authInfo);
    if (user === undefined) {
      throw new SdkError(
        "INVALID_ARGUMENT",
        "Credentials need a verified user (authorization with issuer and subject)",
      );
    }
    const request = init.credential ?? {};
    const configured = Object.hasOwn(this.#options.providers, provider);
    const oauth = request.kind === undefined ? configured : request.kind === "oauth";
    const destination = oauth
      ? oauthDestination(configured ? this.#options.providers[provider]?.apiHosts : undefined)
      : secretDestination(own(this.#options.secrets, provider));
    return fetchWithCredential(
      this.#fetching,
      {
        provider,
        user,
        ctx,
        destination,
        obtain: () => this.require(provider, request, ctx),
        ...(oauth ? { renew: (stale: StoredCredential) => this.#renewal.renew(user, stale, { force: true }) } : {}),
      },
      input,
      init,
    );
  }

  /** The stored credential if it can be used (renewed if needed); a refused renewal forgets it. */
  async #usable(
    user: { issuer: string; subject: string },
    provider: string,
    scopes: readonly string[],
  ): Promise<StoredCredential | undefined> {
    const vault = this.#options.vault;
    const stored = await vault.get(user, provider);
    if (stored === undefined || !covers(stored, scopes)) return undefined;
    if (!this.#renewal.due(stored)) return stored;
    if (stored.refreshToken === undefined || !Object.hasOwn(this.#options.providers, provider)) {
      await vault.delete(user, provider);
      return undefined;
    }
    const renewed = await this.#renewal.renew(user, stored);
    return renewed !== undefined && covers(renewed, scopes) ? renewed : undefined;
  }

  /**
   * Forgets the user's credential for `provider`, e.g. after the provider rejected it, so the next
   * `require` hands the user off again. @returns whether one was stored.
   */
  async forget(user: { issuer: string; subject: string }, provider: string): Promise<boolean> {
    return this.#options.vault.delete(user, provider);
  }

  /**
   * The user's connections, by provider name: provider, account, scopes, created, last used,
   * expiry; never a secret or a refresh token. Empty when the vault cannot list (`list` absent).
   * @throws SdkError "INVALID_ARGUMENT" for a malformed user; "CREDENTIAL_UNREADABLE" when a stored
   *   secret cannot be decrypted; "STORE_UNAVAILABLE" when the vault cannot be reached.
   */
  async connections(user: UserRef): Promise<Connection[]> {
    const list = await this.#options.vault.list?.(user);
    return (list ?? []).map(connectionOf);
  }

  /**
   * Takes the user's connection to `provider` back: revokes it at the provider (RFC 7009, the
   * refresh token when there is one, else the access token) when the provider's metadata has a
   * `revocation_endpoint`, deletes it from the vault whatever the provider answered, announces
   * it on `bus`, and appends `grant.revoked` to `audit` (outcome `failed` when the provider did not
   * revoke). Held under the grant's renewal lock, so a refresh under way on any instance finishes
   * first and its token is the one revoked. The next `require` for `provider` hands the user off.
   * A credential that cannot be decrypted is deleted without a revocation (`failed`).
   * @throws SdkError "INVALID_ARGUMENT" for a malformed user or provider; "LOCK_TIMEOUT" when a
   *   renewal elsewhere held the lock for `renewalWaitMs` (nothing changed); "STORE_UNAVAILABLE"
   *   when the vault cannot be reached (then retry: the provider may have revoked already).
   * @param by the MCP client and session that asked (the `connections_disconnect` tool), named in
   *   the audit record; none for the connections page, where the signed-in user asked in the browser.
   */
  async disconnect(user: UserRef, provider: string, by: DisconnectedBy = {}): Promise<DisconnectResult> {
    const { vault } = this.#options;
    const key = renewalKey(user, provider);
    const leaseMs = this.#options.renewalLeaseMs ?? 20_000;
    const waitMs = this.#options.renewalWaitMs ?? 25_000;
    const result = await this.#locks.withLock(key, { leaseMs, waitMs }, async () => {
      let stored: StoredCredential | undefined;
      try {
        stored = await vault.get(user, provider);
      } catch (error) {
        if (!(error instanceof SdkError) || error.code !== "CREDENTIAL_UNREADABLE") throw error;
        this.#report("A stored credential could not be decrypted; it is deleted without a revocation", error);
        return { removed: await vault.delete(user, provider), upstream: "failed" } satisfies DisconnectResult;
      }
      if (stored === undefined) return { removed: false, upstream: "none" } satisfies DisconnectResult;
      const revoked = await revokeUpstream(
        {
          providers: this.#options.providers,
          servers: this.#servers,
          vault,
          report: (message, error) => this.#report(message, error),
          timeoutMs: this.#options.revocationTimeoutMs ?? 10_000,
        },
        stored,
      );
      return { removed: await vault.delete(user, provider), ...revoked } satisfies DisconnectResult;
    });
    if (result.upstream === "none") return result;
    const grant = { user: { issuer: user.issuer, subject: user.subject }, provider };
    await announceRevoked({ bus: this.#options.bus, report: (m, e) => this.#report(m, e) }, grant);
    // Without a bus, this instance is the only one to tell.
    if (this.#options.bus === undefined) this.#heard(grant);
    await this.#audit({
      at: (this.#options.now ?? Date.now)(),
      event: "grant.revoked",
      user: grant.user,
      ...(by.client === undefined ? {} : { client: by.client }),
      ...(by.sessionId === undefined ? {} : { sessionId: by.sessionId }),
      provider,
      outcome: result.upstream === "failed" ? "failed" : "ok",
      detail: { reason: `upstream ${result.upstream}` },
    });
    return result;
  }

  /** Stops listening to the bus (the bus itself is the caller's to close). */
  async close(): Promise<void> {
    const unsubscribe = await this.#listening;
    await unsubscribe?.();
  }

  async #listen(): Promise<(() => Promise<void>) | undefined> {
    const { bus } = this.#options;
    if (bus === undefined) return undefined;
    try {
      return await bus.subscribe(REVOKED_CHANNEL, (message) => {
        const grant = parseRevoked(message);
        if (grant !== undefined) this.#heard(grant);
      });
    } catch (error) {
      this.#report("Could not listen for revoked grants on the message bus", error);
      return undefined;
    }
  }

  #heard(grant: RevokedGrant): void {
    try {
      this.#options.onRevoked?.(grant);
    } catch (error) {
      this.#report("onRevoked threw", error);
    }
  }

  #report(message: string, error: unknown): void {
    try {
      this.#logger.error({ err: error }, message);
    } catch {
      // A logger that throws must not fail the disconnect it reports on.
    }
  }
}

/** `record[key]` when it is the record's own entry (never `constructor` or `__proto__` of its prototype). */
const own = <T>(record: Readonly<Record<string, T>> | undefined, key: string): T | undefined =>
  record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;

/** Whether the credential was granted every scope asked for (one without recorded scopes is taken as it is). */
const covers = (credential: StoredCredential, scopes: readonly string[]): boolean =>
  credential.scopes === undefined || scopes.every((scope) => credential.scopes?.includes(scope));
