/**
 * The types a handler and the server's owner see: the `RequestContext` every handler receives,
 * the `ServerSession` it arrived on, and the services a server may be given for hand-offs and
 * third-party credentials. Implementations live elsewhere; this file imports none of them.
 */

import type { RequestId } from "../jsonrpc/messages.js";
import type { RequestOptions } from "../jsonrpc/session.js";
import type { AuthInfo, UserRef } from "../model/identity.js";
import type { StoredCredential, UserInteraction } from "../model/interaction.js";
import type {
  ClientCapabilities,
  CreateMessageParams,
  CreateMessageResult,
  ElicitResult,
  ElicitUrlParams,
  Implementation,
  InteractionAction,
  ListRootsResult,
} from "../revisions/index.js";
import type { FormElicitation, FormElicitResult, RequestedSchemaInput } from "./elicit-types.js";
import type { InteractionInput, InteractionOutcome, InteractOptions, InteractParams } from "./handoff-types.js";
import type { LoggingLevel } from "./logging.js";

/** URL-mode elicitation as a handler asks for it; `elicitationId` is generated when left out. */
export type UrlElicitation = Omit<ElicitUrlParams, "elicitationId"> & { elicitationId?: string };

/** The client's answer to a URL-mode elicitation, with the id to pass to `notifyElicitationComplete`. */
export type UrlElicitResult = ElicitResult & { elicitationId: string };

/** Options of an elicitation. */
export interface ElicitOptions {
  /** ms to wait for the user; default: no limit (a human answers, possibly after a long while). */
  timeoutMs?: number;
  /** Aborting cancels the elicitation (`notifications/cancelled`). The request's own signal always does. */
  signal?: AbortSignal;
  /**
   * Revision 2026-07-28: the key of this ask in the `InputRequiredResult`'s `inputRequests` (and in
   * the client's `inputResponses`); default `elicitation-1`, `elicitation-2`, ... in asking order.
   */
  inputKey?: string;
}

/** Options of `ctx.sample` and `ctx.listRoots`. */
export interface InputRequestOptions extends RequestOptions {
  /** Revision 2026-07-28: the key of this ask in `inputRequests`; default `sampling-1`, `roots-1`, ... */
  inputKey?: string;
}

/** The one context type every handler receives. */
export interface RequestContext {
  /** Aborted when the client cancels the request (`notifications/cancelled`) or the connection closes. */
  readonly signal: AbortSignal;
  /** The JSON-RPC id of the request being handled. */
  readonly requestId: RequestId;
  /** The session (one client connection) the request arrived on. */
  readonly session: ServerSession;
  /** Verified bearer-token information, when an auth layer sits in front of the transport. */
  readonly authInfo: AuthInfo | undefined;
  /** `params._meta` of the request as received. */
  readonly meta: Record<string, unknown> | undefined;
  /**
   * What the client declared it can do, as it applies to this request: the `initialize`
   * capabilities, or (revision 2026-07-28) the request's own `_meta` capabilities. The
   * `initialize` value is frozen and may be shared with other sessions that sent the same one:
   * copy it to change it.
   */
  readonly clientCapabilities: Readonly<Record<string, unknown>>;
  /**
   * The client as it names itself (unverified), as it applies to this request: `initialize`'s
   * `clientInfo`, or (revision 2026-07-28) the request's own `_meta` one. The `initialize` value
   * is frozen and may be shared with other sessions that sent the same one: copy it to change it.
   */
  readonly clientInfo: Readonly<Implementation> | undefined;

  /**
   * Sends `notifications/progress` (spec: basic/utilities/progress) when the client asked for it
   * with a progress token; otherwise does nothing. `progress` must grow with every call; `total`
   * is optional. Never rejects: a failed send is reported to the server's logger.
   */
  progress(progress: number, total?: number, message?: string): Promise<void>;
  /**
   * Sends `notifications/message` (spec: server/utilities/logging) when `level` is at or above
   * the level the client set with `logging/setLevel`. Never rejects.
   */
  log(level: LoggingLevel, data: unknown, logger?: string): Promise<void>;
  /**
   * Asks the user for input through the client (spec 2025-11-25: client/elicitation). No timeout
   * by default.
   * - Form mode: `requestedSchema` must be a flat object of primitive properties; it is checked
   *   before sending, defaults are applied to accepted content, and content that does not match
   *   the schema rejects with `SdkError("INVALID_RESULT")`.
   *   Only `accept` carries `content`: what a client sends beside `decline` or `cancel` is
   *   dropped before the handler sees it, in either revision era. Its type is read from
   *   `requestedSchema` written inline or `as const` (`ElicitContentOf`): required fields as such,
   *   the others optional, enums as their values.
   * - URL mode (`mode: "url"`): the user is sent to `url`; `message` must not contain a URL. The
   *   answer has no `content`.
   *   The result carries the `elicitationId` to complete with `session.notifyElicitationComplete`
   *   (a notification in revision 2025-11-25; on 2026-07-28 the retried call is the completion
   *   and that call sends nothing, so one handler serves both).
   * - On 2026-07-28 the handler runs again on the retry, and an answer is used only for the very
   *   question it answered (the same method and params under the same `inputKey`): a handler that
   *   asks something else there, say a new price, ends the call with -32602 rather than taking a
   *   yes given to the old question, so ask nothing that varies from run to run (a clock, a nonce).
   * @throws SdkError "CAPABILITY_NOT_SUPPORTED" when the client did not declare that elicitation
   *   mode (nothing is sent), "INVALID_ARGUMENT" for a bad schema or a URL in the message or in the
   *   schema's titles and descriptions,
   *   "REQUEST_CANCELLED"/"REQUEST_TIMEOUT"; ProtocolError when the client answers with an error.
   */
  elicit<const S extends RequestedSchemaInput>(
    params: FormElicitation<S>,
    options?: ElicitOptions,
  ): Promise<FormElicitResult<S>>;
  elicit(params: UrlElicitation, options?: ElicitOptions): Promise<UrlElicitResult>;
  /**
   * Asks the client's model for a message (`sampling/createMessage`, spec: client/sampling).
   * Waits as long as the session's default timeout (60,000 ms) unless `options.timeoutMs` says otherwise.
   * @throws SdkError "CAPABILITY_NOT_SUPPORTED" when the client did not declare `sampling`.
   */
  sample(params: CreateMessageParams, options?: InputRequestOptions): Promise<CreateMessageResult>;
  /**
   * Asks for the client's roots (`roots/list`, spec: client/roots).
   * @throws SdkError "CAPABILITY_NOT_SUPPORTED" when the client did not declare `roots`.
   */
  listRoots(options?: InputRequestOptions): Promise<ListRootsResult>;
  /**
   * Closes the connection that carries this request's answer, without ending its stream, so a
   * long call holds no connection open (Streamable HTTP with an event store; spec 2025-11-25:
   * basic/transports § Sending Messages to the Server). The client reconnects, after the
   * server's `retryIntervalMs`, and receives what was sent meanwhile, the result included.
   * @returns false, having done nothing, on a transport that cannot do this.
   */
  closeSseStream(): boolean;
  /** Sends any notification tied to this request. @throws SdkError when the revision or client does not allow it. */
  notify(method: string, params?: Record<string, unknown>): Promise<void>;
  /**
   * Hands the user off to a page of this server (an out-of-band user interaction), in the form the
   * client understands: URL-mode `elicitation/create` with `elicitationId` = the interaction's id
   * (spec 2025-11-25: client/elicitation), else the user-interaction proposal's `interaction/create`
   * of type `ua` (an empty result is `accept`, error -32099 is `decline`). The interaction is stored
   * for the request's verified user (its authorization's issuer and subject, or the manager's
   * local user without authorization) and this session. Resolves with the user's answer; `accept`
   * means the page was opened, not that the interaction is done: see `waitForInteraction`. The
   * answer is awaited only while the interaction lives (its `expiresAt`): a client that went away
   * cannot hold the request, and its session, for ever. When the user completes the page before
   * the client answers, the request to the client is cancelled and this resolves with `accept` and
   * the completed interaction; when the user declines on the page first, with `decline` and the
   * declined interaction (a decline on the page also wins over an `accept` in a 2026-07-28 retry).
   * Completion is sent to this session only (`notifications/elicitation/complete`, or progress on
   * the client's `interaction/track`).
   * @throws the service's error when the interaction ends before the client answers
   *   (`InteractionError` "EXPIRED" from `InteractionManager` at its deadline; the request to the
   *   client is cancelled, and a tool's call becomes an `isError` result saying it expired);
   *   SdkError "CAPABILITY_NOT_SUPPORTED" when the client can do neither (nothing is stored or
   *   sent); "INVALID_ARGUMENT" for a URL in `message`, a `url` that is not absolute http(s), a
   *   request without a verified user, or a server without the `interactions` option;
   *   "REQUEST_CANCELLED"/"REQUEST_TIMEOUT"; ProtocolError when the client answers another error.
   */
  interact(params: InteractParams, options?: InteractOptions): Promise<InteractionOutcome>;
  /**
   * Resolves with the interaction once the web side has completed it. Stops waiting when this
   * request is cancelled or `options.signal` aborts. Only an interaction of this request's user.
   * @throws the manager's error (`InteractionError` "EXPIRED", "DECLINED", "CANCELLED", "NOT_FOUND");
   *   SdkError "INVALID_ARGUMENT" for an interaction of another user, of which nothing is told.
   */
  waitForInteraction(id: string, options?: { signal?: AbortSignal }): Promise<UserInteraction>;
  /**
   * The request's user's third-party credentials, kept by the server (never sent to the client).
   * Whatever this request sends that quotes one (its result, error texts, logs, notifications,
   * questions to the client), as it is, percent-encoded, JSON-escaped or inside base64, says
   * `[redacted]` there instead; values under 8 characters (`MIN_REDACTED_LENGTH`) are not looked for.
   */
  readonly credentials: {
    /**
     * What the user has connected for `provider` (e.g. `"github"`): its scopes, expiry and account,
     * renewed when expired, without its secret; when there is none, the user is handed off to
     * connect it: `InteractionRequired` is thrown (the client retries once done), or with
     * `wait: true` this waits for the user within the request. To call the provider's API, use
     * `fetch`, which attaches the secret itself.
     * @throws SdkError "INVALID_ARGUMENT" when the server's `interactions` has no `credentials`.
     */
    require(provider: string, request?: CredentialRequest): Promise<CredentialInfo>;
    /**
     * Sends one HTTP request with the user's credential for `provider` attached (as `require`
     * obtains it, handing the user off when there is none; `init.credential` is its request).
     * The credential goes only to the provider's declared API hosts, compared exactly, over https
     * (plain http to loopback only where the server opted into development), never with user info
     * in the URL. Redirects are followed here, each checked by the same rule (at most 5); a
     * redirect elsewhere is refused, not followed without the credential. An OAuth provider's
     * 401 renews the access token once and sends the request again. The `Response` returned has
     * every spelling of the credential (as it is, percent-encoded, JSON-escaped, hex, base64) replaced
     * by `[redacted]` in its status text, headers and body; its body is read in full first.
     * Spec PR #3285 ("Credential Destination Injection").
     * @throws SdkError "DESTINATION_REFUSED" when the URL or a redirect is not allowed (nothing
     *   was sent there); "INVALID_ARGUMENT" when `init` sets the credential's own header, or the
     *   server's `interactions` has no `credentials`; "TRANSPORT_ERROR" when the host did not
     *   answer; "REQUEST_CANCELLED" when the request was cancelled; whatever `require` throws.
     *   No error text holds the credential.
     */
    fetch(provider: string, input: string | URL | Request, init?: CredentialFetchInit): Promise<Response>;
    /**
     * The stored credential for `provider` with its secret, for a client library that must be
     * handed the token itself. Nothing then keeps the secret to its provider's hosts; what this
     * request sends back still has it redacted. Prefer `fetch`. Otherwise as `require`.
     */
    unsafeRevealSecret(provider: string, request?: CredentialRequest): Promise<StoredCredential>;
  };
}

/** A stored credential as `ctx.credentials.require` shows it: what it is, without its secret or refresh token. */
export type CredentialInfo = Omit<StoredCredential, "secret" | "refreshToken">;

/** `RequestInit` of `ctx.credentials.fetch`, and what the credential is to be (its scopes, `wait`). */
export type CredentialFetchInit = RequestInit & { credential?: CredentialRequest };

/** One connected client, as handlers and the server's owner see it. */
export interface ServerSession {
  /** The transport's session id (Streamable HTTP `Mcp-Session-Id`) or a random UUID. */
  readonly id: string;
  /** The negotiated protocol revision; `undefined` until `initialize` is answered. */
  readonly protocolVersion: string | undefined;
  /**
   * `clientInfo` from `initialize`: frozen, and shared with other sessions that sent the same
   * value (copy it to change it).
   */
  readonly clientInfo: Readonly<Implementation> | undefined;
  /** `capabilities` from `initialize`: frozen and shared the same way. */
  readonly clientCapabilities: Readonly<ClientCapabilities> | undefined;
  /** The threshold set by `logging/setLevel`; `undefined` (everything is sent) until the client sets one. */
  readonly logLevel: LoggingLevel | undefined;
  /** Sends `notifications/message` outside any request, subject to the session's level. Never rejects. */
  log(level: LoggingLevel, data: unknown, logger?: string): Promise<void>;
  /**
   * Tells this session's client, and only it, that the out-of-band interaction of URL-mode
   * elicitation `elicitationId` is done: `notifications/elicitation/complete` in revision 2025-11-25
   * (spec: client/elicitation § Completion Notifications). Revision 2026-07-28 has no such
   * notification (the answer to the client's retry is the completion), so there this does nothing
   * and resolves `false`: the same handler serves both eras. `ctx.interact` needs none of this.
   * @returns true when the notification was sent, false where the revision completes through the retry.
   * @throws SdkError "CAPABILITY_NOT_SUPPORTED" when a 2025-11-25 client did not declare URL-mode
   *   elicitation; "METHOD_NOT_SUPPORTED" in a revision without URL mode (before 2025-11-25).
   */
  notifyElicitationComplete(elicitationId: string): Promise<boolean>;
  /** Closes the connection; in-flight handlers see their signal abort. */
  close(): Promise<void>;
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
   * wherever it was completed. `delivered` is `true` when the instance where it completed already
   * told the session's client (see `deliverCompletionsWith`): the listener then sends nothing.
   * @returns a function that stops listening.
   */
  watchSession(sessionId: string, listener: (id: string, delivered: boolean) => void): Promise<() => Promise<void>>;
  /**
   * Registers how this instance tells a session's client, durably, that one of its interactions is
   * done (completed, or declined on the page): `deliver` runs on the instance where that happened,
   * before any other instance hears of it, and resolves `true` once the notice is where the client
   * will get it even if the instance holding its connection dies (a fleet's shared GET stream,
   * spec 2025-11-25: basic/transports § Resumability). Deliverers are tried in turn until one
   * resolves `true`; then the other instances are told it was delivered, so the client gets one
   * notice. One that rejects counts as `false` and is reported.
   * @returns a function that removes `deliver`.
   */
  deliverCompletionsWith?(deliver: (interaction: UserInteraction) => Promise<boolean>): () => void;
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
  /**
   * `ctx.credentials.fetch`: sends the request with the credential attached, to an allowed
   * destination only. Without it, that call fails with SdkError "INVALID_ARGUMENT".
   */
  fetch?(
    provider: string,
    input: string | URL | Request,
    init: CredentialFetchInit,
    ctx: RequestContext,
  ): Promise<Response>;
}
