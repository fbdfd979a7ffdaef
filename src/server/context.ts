/**
 * `RequestContext`: what a tool, resource or prompt handler gets besides its arguments. It sends
 * progress and logs tied to the request, and asks the client for input (elicitation), model
 * output (sampling), roots or a visit to a web page (a hand-off), each only when the client
 * declared the capability.
 */
import { randomUUID } from "node:crypto";
import { SdkError } from "../jsonrpc/errors.js";
import type { RequestId } from "../jsonrpc/messages.js";
import type { InboundRequest, RequestOptions } from "../jsonrpc/session.js";
import type { AuthInfo } from "../model/identity.js";
import type { StoredCredential, UserInteraction } from "../model/interaction.js";
import type {
  CreateMessageParams,
  CreateMessageResult,
  ElicitResult,
  ElicitUrlParams,
  ListRootsResult,
} from "../revisions/index.js";
import { applyDefaults, checkRequestedSchema, messageContainsUrl, validateElicitContent } from "../revisions/index.js";
import type { FormElicitation, FormElicitResult, RequestedSchemaInput } from "./elicit-types.js";
import type {
  CredentialRequest,
  CredentialSource,
  InteractionOutcome,
  InteractOptions,
  InteractParams,
} from "./interactions.js";
import type { LoggingLevel } from "./logging.js";
import type { ServerSession } from "./session.js";
import type { SessionInteractions } from "./session-interactions.js";

export type { ElicitContentOf, FormElicitation, FormElicitResult, RequestedSchemaInput } from "./elicit-types.js";

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
   * capabilities, or (revision 2026-07-28) the request's own `_meta` capabilities.
   */
  readonly clientCapabilities: Record<string, unknown>;

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
   * request is cancelled or `options.signal` aborts.
   * @throws the manager's error (`InteractionError` "EXPIRED", "DECLINED", "CANCELLED", "NOT_FOUND").
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
     * The stored credential for `provider` (e.g. `"github"`), renewed when expired; when there is
     * none, the user is handed off to connect it: `InteractionRequired` is thrown (the client
     * retries once done), or with `wait: true` this waits for the user within the request.
     * @throws SdkError "INVALID_ARGUMENT" when the server's `interactions` has no `credentials`.
     */
    require(provider: string, request?: CredentialRequest): Promise<StoredCredential>;
  };
}

/** What the context needs from its session. */
export interface ContextHost {
  readonly session: ServerSession;
  /** Sends a log notification if the session's level lets it through; never rejects. */
  log(level: LoggingLevel, data: unknown, logger: string | undefined, relatedRequestId: RequestId): Promise<void>;
  /** Reports a local problem to the server's logger. */
  report(message: string, error: unknown): void;
  /** Notes which request a URL-mode elicitation was made in, so its completion can travel with it. */
  elicitationStarted(elicitationId: string, requestId: RequestId): void;
  /** The connection's hand-offs. */
  readonly interactions: SessionInteractions;
  /** Where `ctx.credentials` comes from, when the server's `interactions` provide it. */
  readonly credentials?: CredentialSource | undefined;
  /** The client's capabilities for this request. */
  readonly clientCapabilities: Record<string, unknown>;
}

/**
 * Every member that is a function is made when first read, so a handler that uses few of them
 * (most use none) costs no closures; destructuring (`{ log, signal }`) still works.
 */
export function createRequestContext(host: ContextHost, inbound: InboundRequest): RequestContext {
  return new Context(host, inbound);
}

/** The context as one object per request; its getters live on the prototype, not on each object. */
class Context implements RequestContext {
  readonly requestId: RequestId;
  readonly session: ServerSession;
  readonly authInfo: AuthInfo | undefined;
  readonly meta: Record<string, unknown> | undefined;
  readonly clientCapabilities: Record<string, unknown>;
  readonly #host: ContextHost;
  readonly #inbound: InboundRequest;

  constructor(host: ContextHost, inbound: InboundRequest) {
    this.#host = host;
    this.#inbound = inbound;
    this.requestId = inbound.id;
    this.session = host.session;
    this.authInfo = inbound.extra?.authInfo;
    this.meta = inbound.meta;
    this.clientCapabilities = host.clientCapabilities;
  }

  get signal(): AbortSignal {
    return this.#inbound.signal;
  }

  get progress(): RequestContext["progress"] {
    const host = this.#host;
    const inbound = this.#inbound;
    return async (progress, total, message) => {
      const update: { progress: number; total?: number; message?: string } = { progress };
      if (total !== undefined) update.total = total;
      if (message !== undefined) update.message = message;
      await inbound.sendProgress(update).catch((error: unknown) => host.report("Could not send progress", error));
    };
  }

  get log(): RequestContext["log"] {
    const host = this.#host;
    const id = this.#inbound.id;
    return (level, data, logger) => host.log(level, data, logger, id);
  }

  get elicit(): RequestContext["elicit"] {
    const host = this.#host;
    const inbound = this.#inbound;
    return ((params: FormElicitation | UrlElicitation, options?: ElicitOptions) =>
      elicitFor(host, inbound, params, options)) as RequestContext["elicit"];
  }

  get sample(): RequestContext["sample"] {
    const inbound = this.#inbound;
    return async (params, options) =>
      (await inbound.request("sampling/createMessage", { ...params }, options)) as unknown as CreateMessageResult;
  }

  get listRoots(): RequestContext["listRoots"] {
    const inbound = this.#inbound;
    return async (options) => (await inbound.request("roots/list", undefined, options)) as unknown as ListRootsResult;
  }

  get closeSseStream(): RequestContext["closeSseStream"] {
    const close = this.#inbound.extra?.closeSseStream;
    return () => {
      close?.();
      return close !== undefined;
    };
  }

  get notify(): RequestContext["notify"] {
    const inbound = this.#inbound;
    return (method, params) => inbound.notify(method, params);
  }

  get interact(): RequestContext["interact"] {
    const host = this.#host;
    const inbound = this.#inbound;
    return (params, options = {}) => host.interactions.interact(params, options, inbound);
  }

  get waitForInteraction(): RequestContext["waitForInteraction"] {
    const host = this.#host;
    const inbound = this.#inbound;
    return (id, options = {}) =>
      host.interactions.waitFor(
        id,
        options.signal ? AbortSignal.any([options.signal, inbound.signal]) : inbound.signal,
        inbound,
      );
  }

  get credentials(): RequestContext["credentials"] {
    const host = this.#host;
    return {
      require: async (provider, request = {}) => {
        if (host.credentials === undefined) {
          throw new SdkError(
            "INVALID_ARGUMENT",
            "This server keeps no credentials: its `interactions` lack `credentials`",
          );
        }
        return host.credentials.require(provider, request, this);
      },
    };
  }
}

async function elicitFor(
  host: ContextHost,
  inbound: InboundRequest,
  params: FormElicitation | UrlElicitation,
  options: ElicitOptions = {},
): Promise<ElicitResult | UrlElicitResult> {
  // URLs belong only in the `url` field of a URL-mode request (spec: client/elicitation § Safety).
  if (messageContainsUrl(params.message)) {
    throw new SdkError("INVALID_ARGUMENT", "An elicitation message must not contain a URL; put it in `url` (URL mode)");
  }
  const requestOptions: InputRequestOptions = { timeoutMs: options.timeoutMs ?? Number.POSITIVE_INFINITY };
  if (options.signal) requestOptions.signal = options.signal;
  if (options.inputKey !== undefined) requestOptions.inputKey = options.inputKey;
  if (params.mode === "url") {
    const sent = { ...params, elicitationId: params.elicitationId ?? randomUUID() };
    host.elicitationStarted(sent.elicitationId, inbound.id);
    // A URL-mode answer has no content, whatever its action: the data stays on the server's page.
    const { content: _none, ...result } = checkAction(
      await inbound.request("elicitation/create", sent, requestOptions),
    );
    return { ...result, elicitationId: sent.elicitationId };
  }
  const problem = checkRequestedSchema(params.requestedSchema);
  if (problem) throw new SdkError("INVALID_ARGUMENT", `Invalid requestedSchema: ${problem}`);
  if (displayTexts(params.requestedSchema).some(messageContainsUrl)) {
    throw new SdkError("INVALID_ARGUMENT", "The titles and descriptions of requestedSchema must not contain a URL");
  }
  const result = checkAction(await inbound.request("elicitation/create", { ...params }, requestOptions));
  if (result.action !== "accept") return result;
  const content = applyDefaults(params.requestedSchema, result.content ?? {});
  const invalid = validateElicitContent(params.requestedSchema, content);
  if (invalid) throw new SdkError("INVALID_RESULT", `The accepted elicitation content is invalid: ${invalid}`);
  // Validated just above against the requested schema, so it has the declared shape.
  return { ...result, content: content as ElicitResult["content"] };
}

function checkAction(result: Record<string, unknown>): ElicitResult {
  if (result.action === "accept" || result.action === "decline" || result.action === "cancel") {
    return result as unknown as ElicitResult;
  }
  throw new SdkError(
    "INVALID_RESULT",
    `The client answered elicitation/create with action ${JSON.stringify(result.action)}`,
  );
}

/** Every `title` and `description` in a schema: the text a client shows next to the form. */
function displayTexts(schema: unknown): string[] {
  if (Array.isArray(schema)) return schema.flatMap(displayTexts);
  if (typeof schema !== "object" || schema === null) return [];
  return Object.entries(schema).flatMap(([key, value]) =>
    (key === "title" || key === "description") && typeof value === "string" ? [value] : displayTexts(value),
  );
}
