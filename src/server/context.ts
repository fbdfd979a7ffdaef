/**
 * `RequestContext`: what a tool, resource or prompt handler gets besides its arguments. It sends
 * progress and logs tied to the request, and asks the client for input (elicitation), model
 * output (sampling), roots or a visit to a web page (a hand-off), each only when the client
 * declared the capability.
 */
import { randomUUID } from "node:crypto";
import { SdkError } from "../jsonrpc/errors.js";
import type { RequestId } from "../jsonrpc/messages.js";
import type { InboundRequest } from "../jsonrpc/session.js";
import type { AuthInfo } from "../model/identity.js";
import type { UserInteraction } from "../model/interaction.js";
import type { CreateMessageResult, ElicitResult, Implementation, ListRootsResult } from "../revisions/index.js";
import { applyDefaults, checkRequestedSchema, messageContainsUrl, validateElicitContent } from "../revisions/index.js";
import type { FormElicitation } from "./elicit-types.js";
import type {
  CredentialSource,
  ElicitOptions,
  InputRequestOptions,
  RequestContext,
  ServerSession,
  UrlElicitation,
  UrlElicitResult,
} from "./handler-types.js";
import type { InteractionOutcome, InteractOptions, InteractParams } from "./handoff-types.js";
import type { LoggingLevel } from "./logging.js";

export type { ElicitContentOf, FormElicitation, FormElicitResult, RequestedSchemaInput } from "./elicit-types.js";
export type {
  ElicitOptions,
  InputRequestOptions,
  RequestContext,
  UrlElicitation,
  UrlElicitResult,
} from "./handler-types.js";

/**
 * The hand-offs of the connection a request arrived on, in the form of the request's era: asked
 * and awaited within the request (stateful era), or collected into the round's
 * `InputRequiredResult` (a multi round-trip request, revision 2026-07-28).
 */
export interface HandoffApi {
  /** `ctx.interact`. */
  interact(params: InteractParams, options: InteractOptions, inbound: InboundRequest): Promise<InteractionOutcome>;
  /** `ctx.waitForInteraction`. */
  waitFor(id: string, signal: AbortSignal, inbound: InboundRequest): Promise<UserInteraction>;
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
  /** The connection's hand-offs, in the request's era. */
  readonly interactions: HandoffApi;
  /** Where `ctx.credentials` comes from, when the server's `interactions` provide it. */
  readonly credentials?: CredentialSource | undefined;
  /** The client's capabilities for this request. */
  readonly clientCapabilities: Record<string, unknown>;
  /** The client's `clientInfo` as it applies to `inbound`; default the session's. */
  clientInfo?(inbound: InboundRequest): Implementation | undefined;
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

  get clientInfo(): Implementation | undefined {
    return this.#host.clientInfo?.(this.#inbound) ?? this.session.clientInfo;
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
    const source = (): CredentialSource => {
      if (host.credentials === undefined) {
        throw new SdkError(
          "INVALID_ARGUMENT",
          "This server keeps no credentials: its `interactions` lack `credentials`",
        );
      }
      return host.credentials;
    };
    return {
      require: async (provider, request = {}) => {
        // The handler learns what is connected; the secret stays with the source (`fetch` uses it).
        const { secret: _secret, refreshToken: _refresh, ...info } = await source().require(provider, request, this);
        return info;
      },
      fetch: async (provider, input, init = {}) => {
        const credentials = source();
        if (credentials.fetch === undefined) {
          throw new SdkError(
            "INVALID_ARGUMENT",
            "This server's credentials cannot be used with `ctx.credentials.fetch`",
          );
        }
        return credentials.fetch(provider, input, init, this);
      },
      unsafeRevealSecret: async (provider, request = {}) => source().require(provider, request, this),
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
