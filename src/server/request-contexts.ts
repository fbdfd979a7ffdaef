/**
 * The request contexts one server connection hands its handlers: each request's own log sink and
 * client capabilities on top of what the connection lends them all, and, where the server keeps
 * third-party credentials, the redaction of every credential the handler obtained from what the
 * request sends.
 */
import type { RequestId } from "../jsonrpc/messages.js";
import type { InboundRequest } from "../jsonrpc/session.js";
import { type ContextHost, createRequestContext, type HandoffApi, type RequestContext } from "./context.js";
import type { CredentialSource } from "./handler-types.js";
import type { LoggingLevel } from "./logging.js";
import { attachRedactor, SecretRedactor } from "./redaction.js";

/** Sends one `notifications/message` tied to request `related`; never rejects. */
export type LogSender = (
  level: LoggingLevel,
  data: unknown,
  logger: string | undefined,
  related: RequestId,
) => Promise<void>;

/** What a connection lends every context it makes; `interactions` is read only when a handler uses it. */
export type ConnectionHooks = Omit<ContextHost, "credentials" | "clientCapabilities">;

/** A context host on `hooks`, with this request's log sink, reporter, capabilities and credentials. */
export function contextHost(
  hooks: ConnectionHooks,
  clientCapabilities: Record<string, unknown>,
  log: LogSender = hooks.log,
  report: ContextHost["report"] = hooks.report,
  credentials?: CredentialSource,
): ContextHost {
  return {
    session: hooks.session,
    log,
    report,
    elicitationStarted: hooks.elicitationStarted,
    ...(hooks.clientInfo === undefined ? {} : { clientInfo: hooks.clientInfo }),
    get interactions() {
      return hooks.interactions;
    },
    clientCapabilities,
    ...(credentials === undefined ? {} : { credentials }),
  };
}

/**
 * The context of a request that logs through `log` and may be handed credentials from `source`.
 * With a source, every credential handed to the handler is remembered, so no result, log,
 * report, notification, progress message or question to the client of this request quotes it.
 */
export function requestContext(
  hooks: ConnectionHooks,
  inbound: InboundRequest,
  clientCapabilities: Record<string, unknown>,
  log: LogSender,
  source: CredentialSource | undefined,
): RequestContext {
  // Without a credential source a request is handed no secrets, so there is nothing to redact.
  if (source === undefined) return createRequestContext(contextHost(hooks, clientCapabilities, log), inbound);
  const redactor = new SecretRedactor();
  const fetch = source.fetch?.bind(source);
  const ctx = createRequestContext(
    contextHost(
      hooks,
      clientCapabilities,
      (level, data, logger, related) => log(level, redactor.value(data), logger, related),
      (message, error) => hooks.report(message, redactor.error(error)),
      {
        require: async (provider, request, context) => {
          const credential = await source.require(provider, request, context);
          const first = redactor.isEmpty;
          redactor.remember(credential);
          if (first && !redactor.isEmpty) redactNotifications(ctx, redactor);
          return credential;
        },
        // The credential never reaches the handler here; the source scrubs it from the response.
        ...(fetch === undefined ? {} : { fetch }),
      },
    ),
    inbound,
  );
  attachRedactor(ctx, redactor);
  return ctx;
}

/**
 * From the first credential on, what the handler sends besides its result is redacted as well:
 * notifications, progress messages, and what it asks the client (elicitation, sampling, a
 * hand-off's message and URL).
 */
function redactNotifications(ctx: RequestContext, redactor: SecretRedactor): void {
  const notify = ctx.notify.bind(ctx);
  const progress = ctx.progress.bind(ctx);
  const elicit = ctx.elicit.bind(ctx) as (params: unknown, options: unknown) => Promise<unknown>;
  const sample = ctx.sample.bind(ctx);
  const interact = ctx.interact.bind(ctx);
  // Defined rather than assigned: the context may serve its members through getters.
  Object.defineProperties(ctx, {
    interact: {
      // The message and URL go to the client; the purpose stays on the server.
      value: ((params, options) =>
        interact(
          { ...params, url: redactor.url(params.url), message: redactor.text(params.message) },
          options,
        )) satisfies RequestContext["interact"],
      configurable: true,
    },
    elicit: {
      value: ((params: unknown, options: unknown) =>
        elicit(redactor.value(params), options)) as unknown as RequestContext["elicit"],
      configurable: true,
    },
    sample: {
      value: ((params, options) => sample(redactor.value(params), options)) satisfies RequestContext["sample"],
      configurable: true,
    },
    notify: {
      value: ((method, params) => notify(method, redactor.value(params))) satisfies RequestContext["notify"],
      configurable: true,
    },
    progress: {
      value: ((value, total, message) =>
        progress(
          value,
          total,
          message === undefined ? undefined : redactor.text(message),
        )) satisfies RequestContext["progress"],
      configurable: true,
    },
  });
}

/** `hooks` with the hand-offs of one request (a multi round-trip request's round) instead of the connection's. */
export function withHandoffs(hooks: ConnectionHooks, handoffs: HandoffApi): ConnectionHooks {
  return {
    session: hooks.session,
    log: hooks.log,
    report: hooks.report,
    elicitationStarted: hooks.elicitationStarted,
    ...(hooks.clientInfo === undefined ? {} : { clientInfo: hooks.clientInfo }),
    interactions: handoffs,
  };
}
