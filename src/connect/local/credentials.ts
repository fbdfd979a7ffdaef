/**
 * `LocalCredentials`: what `ctx.credentials.require` runs on a server on the user's own machine.
 * It returns the stored secret, or hands the user off to the local connect page with a link that
 * carries a one-time token (256 random bits) of its own: the token lives only in that link (the
 * interaction's `url`), so the interaction's id, which travels as the `elicitationId` and may be
 * logged, opens nothing by itself.
 */
import { randomBytes } from "node:crypto";
import { INTERACTION_ID_IN_URL, InteractionRequired } from "../../interaction/server/index.js";
import { SdkError } from "../../jsonrpc/errors.js";
import { type Logger, stderrLogger } from "../../jsonrpc/logger.js";
import type { StoredCredential } from "../../model/interaction.js";
import type {
  CredentialFetchInit,
  CredentialRequest,
  CredentialSource,
  InteractionService,
  RequestContext,
} from "../../server/index.js";
import { auditTo } from "../../stores/audit.js";
import type { AuditLog, CredentialVault } from "../../stores/types.js";
import { type CredentialFetchSettings, credentialFetchSettings, fetchWithCredential } from "../credential-fetch.js";
import { checkDestination, type SecretDestination, secretDestination } from "../destination.js";
import { secretName } from "../purpose.js";

/** The query parameter of a local link that holds its token. */
export const TOKEN_PARAM = "token";

export interface LocalCredentialsOptions {
  /** Finds the request's user (`userFor`): the local user for a request without authorization. */
  service: Pick<InteractionService, "userFor">;
  vault: CredentialVault;
  /** Where the local connect pages are served, e.g. `http://127.0.0.1:53124`. */
  origin: string;
  /**
   * Each secret's API hosts, header and label for `ctx.credentials.fetch`, as in
   * `CredentialBrokerOptions.secrets`. A secret not listed is sent nowhere by `fetch`.
   * @throws SdkError "INVALID_ARGUMENT" from the constructor for an invalid host or header.
   */
  secrets?: Readonly<Record<string, SecretDestination>>;
  /** Where each use by `ctx.credentials.fetch` is recorded ("credential.used"); default none. */
  audit?: AuditLog;
  /** Hears a failed audit append or `markUsed`; default `stderrLogger()` (stdout may carry JSON-RPC). */
  logger?: Logger;
  /** What `ctx.credentials.fetch` sends with; default `globalThis.fetch`. */
  fetch?: typeof globalThis.fetch;
  /**
   * Development only: lets `ctx.credentials.fetch` send a secret over plain http to a listed
   * loopback API host. Default false: https only.
   */
  unsafeHttpLoopbackForDevelopment?: boolean;
  /** ms since the epoch; default `Date.now`. */
  now?: () => number;
}

export class LocalCredentials implements CredentialSource {
  readonly #options: LocalCredentialsOptions;
  readonly #fetching: CredentialFetchSettings;

  constructor(options: LocalCredentialsOptions) {
    this.#options = options;
    for (const [name, config] of Object.entries(options.secrets ?? {}))
      checkDestination(name, secretDestination(config));
    const logger = options.logger ?? stderrLogger();
    this.#fetching = credentialFetchSettings(options, {
      audit: auditTo(options.audit, logger),
      vault: options.vault,
      logger,
      now: options.now ?? Date.now,
    });
  }

  /**
   * `ctx.credentials.fetch`: the secret goes as its `secrets` entry declares, to its hosts only.
   * @throws as `RequestContext.credentials.fetch` says, and what `require` throws.
   */
  async fetch(
    provider: string,
    input: string | URL | Request,
    init: CredentialFetchInit,
    ctx: RequestContext,
  ): Promise<Response> {
    const user = this.#options.service.userFor(ctx.authInfo);
    if (user === undefined) throw new SdkError("INVALID_ARGUMENT", "This request has no local user");
    const request = init.credential ?? {};
    return fetchWithCredential(
      this.#fetching,
      {
        provider,
        user,
        ctx,
        destination: secretDestination(this.#declared(provider)),
        obtain: () => this.require(provider, request, ctx),
      },
      input,
      init,
    );
  }

  /**
   * The stored secret of the request's user for `provider`, else a hand-off to the local page that
   * asks for it, labelled `request.label` (default "API key", said as "<provider> API key" unless
   * the label names the provider already).
   * @throws InteractionRequired when the user must enter it first (without `wait`); SdkError
   *   "INVALID_ARGUMENT" for `kind: "oauth"` (a local server asks for secrets only) or a request
   *   without a user; with `wait`, whatever `ctx.interact` and `ctx.waitForInteraction` throw, or
   *   SdkError "REQUEST_CANCELLED" when the user declined, on the page or in the client, or did
   *   not open the page.
   */
  async require(provider: string, request: CredentialRequest, ctx: RequestContext): Promise<StoredCredential> {
    if (request.kind === "oauth") {
      throw new SdkError("INVALID_ARGUMENT", "A local server asks only for secrets, not for OAuth grants");
    }
    const user = this.#options.service.userFor(ctx.authInfo);
    if (user === undefined) throw new SdkError("INVALID_ARGUMENT", "This request has no local user");
    const stored = await this.#options.vault.get(user, provider);
    if (stored !== undefined) return stored;
    const label = request.label ?? this.#declared(provider)?.label ?? "API key";
    const token = randomBytes(32).toString("base64url");
    const params = {
      url: `${this.#options.origin}/connect/${INTERACTION_ID_IN_URL}?${TOKEN_PARAM}=${token}`,
      message: `Enter your ${secretName(provider, label)} to continue. It stays on this computer and is never shown to your app.`,
      purpose: { kind: "secret", provider, label },
    };
    if (!request.wait) throw new InteractionRequired(params);
    const outcome = await ctx.interact(params);
    if (outcome.action === "decline") {
      throw new SdkError("REQUEST_CANCELLED", `The user declined to give the ${secretName(provider, label)}`);
    }
    if (outcome.action !== "accept") throw new SdkError("REQUEST_CANCELLED", "The user did not open the page");
    await ctx.waitForInteraction(outcome.interaction.id);
    const obtained = await this.#options.vault.get(user, provider);
    if (obtained === undefined) throw new SdkError("INVALID_RESULT", "The hand-off completed without a credential");
    return obtained;
  }

  /** The `secrets` entry of `provider`, when the options have one of their own. */
  #declared(provider: string): SecretDestination | undefined {
    const secrets = this.#options.secrets;
    return secrets !== undefined && Object.hasOwn(secrets, provider) ? secrets[provider] : undefined;
  }
}
