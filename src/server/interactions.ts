/**
 * What `McpServer` needs to hand a user off to a web page (an out-of-band user interaction): the
 * service that keeps interactions (`InteractionManager` in `mcp-handoff/interaction` implements
 * it), and `InteractionRequired`, which a handler throws when a request cannot go on until the
 * user has been to a page.
 */

import type { AuthInfo, UserRef } from "../model/identity.js";
import type { StoredCredential, UserInteraction } from "../model/interaction.js";
import type { InteractionAction } from "../revisions/index.js";
import type { RequestContext } from "./context.js";

export type { InteractionAction };

/** What creating an interaction needs. */
export interface InteractionInput {
  /** The page the user is sent to: an absolute http(s) URL served by this server. */
  url: string;
  /** Why the user should go there: plain text without a URL. */
  message: string;
  user: UserRef;
  /** The MCP session that asks; completion is delivered there only. */
  sessionId: string;
  /** What the web side must do; opaque here. */
  purpose?: Record<string, unknown>;
  /** The requesting client's self-declared name (`clientInfo`), shown on the page marked as unverified. */
  clientName?: string;
}

/** Keeps interactions and tells sessions when theirs complete, on this or any other server instance. */
export interface InteractionService {
  /**
   * The verified user behind a request: the `issuer` and `subject` of its authorization, or, for a
   * request without authorization, the configured local user; `undefined` when neither applies.
   */
  userFor(authInfo: AuthInfo | undefined): UserRef | undefined;
  /** Stores a new `pending` interaction. @throws SdkError "INVALID_ARGUMENT" for a bad URL or a URL in the message. */
  create(input: InteractionInput): Promise<UserInteraction>;
  get(id: string): Promise<UserInteraction | undefined>;
  /** Records the client's answer (`pending` → `accepted` | `declined` | `cancelled`); `undefined` if it no longer applies. */
  recordAnswer(id: string, action: InteractionAction): Promise<UserInteraction | undefined>;
  /**
   * Resolves with the interaction once it is `completed`.
   * @throws the service's error when it expires, is declined or cancelled, or is unknown; the
   *   signal's reason when `signal` aborts first.
   */
  waitForCompletion(id: string, signal?: AbortSignal): Promise<UserInteraction>;
  /**
   * Calls `listener` with the id of each interaction of session `sessionId` that completes,
   * wherever it was completed. @returns a function that stops listening.
   */
  watchSession(sessionId: string, listener: (id: string) => void): Promise<() => Promise<void>>;
  /** Where `ctx.credentials.require` gets third-party credentials; without it that call fails. */
  readonly credentials?: CredentialSource;
}

/** What `ctx.credentials.require` asks for. */
export interface CredentialRequest {
  /**
   * `"secret"`: a value the user types on the server's page, such as an API key; `"oauth"`: a grant
   * at the provider's authorization server. Default: `"oauth"` for a provider the server has an
   * authorization server for, `"secret"` for any other.
   */
  kind?: "secret" | "oauth";
  /** What a secret is called on its page and in the message, e.g. "Weather API key"; ignored for OAuth. */
  label?: string;
  /** OAuth scopes the credential must have; ignored for secrets. */
  scopes?: string[];
  /**
   * `true`: hand the user off with `ctx.interact` and wait for completion within this request;
   * default `false`: throw `InteractionRequired`, for the client to retry once the user is done.
   */
  wait?: boolean;
}

/** Keeps users' third-party credentials and starts the hand-off that obtains a missing one. */
export interface CredentialSource {
  /**
   * The credential of the request's user for `provider`, renewed when needed.
   * @throws InteractionRequired when the user must connect first (unless `wait`).
   */
  require(provider: string, request: CredentialRequest, ctx: RequestContext): Promise<StoredCredential>;
}

/** What `ctx.interact` asks for. */
export interface InteractParams {
  /** The page: an absolute http(s) URL served by this server (the connect URL). */
  url: string;
  /** Why the user should go there: plain text without a URL. */
  message: string;
  /** What the web side must do, stored with the interaction, e.g. `{ kind: "oauth", provider: "github" }`. */
  purpose?: Record<string, unknown>;
}

export interface InteractOptions {
  /** ms to wait for the client's answer; default: until the interaction expires (a person answers). */
  timeoutMs?: number;
  /** Aborting cancels the request to the client. The handler's own signal always does. */
  signal?: AbortSignal;
}

/** The client's answer to `ctx.interact`. */
export interface InteractionOutcome {
  /** `accept`: the client opened the page (the interaction is not finished yet); `decline`, `cancel`: it did not. */
  action: InteractionAction;
  /**
   * The interaction as stored after the answer (`accepted`, `declined` or `cancelled`), or
   * `completed` when the user finished the page before the client's answer arrived.
   */
  interaction: UserInteraction;
}

/**
 * Thrown by a tool, resource or prompt handler: the request needs the user to visit `url` first.
 * The server stores an interaction for the request's user and answers with the error the client
 * understands: -32042 with `data.elicitations` (URL-mode elicitation), -32003
 * `interaction_required` (the user-interaction proposal); a client that can do neither gets a tool
 * result with `isError: true` that says so and carries no URL (other requests: -32603).
 * The client retries the request once the interaction completes.
 */
export class InteractionRequired extends Error {
  override readonly name = "InteractionRequired";
  readonly url: string;
  readonly purpose: Record<string, unknown> | undefined;

  /** @param params `message` is shown to the user and must not contain a URL. */
  constructor(params: InteractParams) {
    // The message never carries the URL: only the wire form's `url` field may.
    super(params.message);
    this.url = params.url;
    this.purpose = params.purpose;
  }
}
