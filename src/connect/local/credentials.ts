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
import type { StoredCredential } from "../../model/interaction.js";
import type { CredentialRequest, CredentialSource, InteractionService, RequestContext } from "../../server/index.js";
import type { CredentialVault } from "../../stores/types.js";
import { secretName } from "../purpose.js";

/** The query parameter of a local link that holds its token. */
export const TOKEN_PARAM = "token";

export interface LocalCredentialsOptions {
  /** Finds the request's user (`userFor`): the local user for a request without authorization. */
  service: Pick<InteractionService, "userFor">;
  vault: CredentialVault;
  /** Where the local connect pages are served, e.g. `http://127.0.0.1:53124`. */
  origin: string;
}

export class LocalCredentials implements CredentialSource {
  readonly #options: LocalCredentialsOptions;

  constructor(options: LocalCredentialsOptions) {
    this.#options = options;
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
    const label = request.label ?? "API key";
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
}
