/**
 * Answers to the requests a server sends a client: `elicitation/create` (spec 2025-11-25:
 * client/elicitation), `sampling/createMessage` (client/sampling) and `roots/list`
 * (client/roots). Each checks the server's params before the user-facing handler runs and the
 * handler's answer before it leaves.
 */
import { ErrorCode, ProtocolError, SdkError } from "../jsonrpc/errors.js";
import type { InboundRequest, JsonRpcSession, Params, Result } from "../jsonrpc/session.js";
import {
  applyDefaults,
  checkRequestedSchema,
  clientElicitationModes,
  formContainsUrl,
  interactionDeclinedError,
  readInteractionCreate,
  validateElicitContent,
} from "../revisions/index.js";
import type { ElicitationTracker } from "./notifications.js";
import type {
  ClientCapabilities,
  CreateMessageParams,
  ElicitationHandler,
  ElicitationMode,
  ElicitationParams,
  ElicitResult,
  Implementation,
  RootsHandler,
  SamplingHandler,
  ServerRequestContext,
  UserInteractionHandler,
} from "./types.js";

/** An elicitation handler and the modes it can present. */
export interface ElicitationRegistration {
  handler: ElicitationHandler;
  modes: readonly ElicitationMode[];
}

/** What the request handlers read from the client, at the time each request arrives. */
export interface HandlerHost {
  readonly elicitation: ElicitationRegistration | undefined;
  readonly sampling: SamplingHandler | undefined;
  readonly roots: RootsHandler | undefined;
  /** Answers `interaction/create` (the user-interaction proposal). */
  readonly userInteraction: UserInteractionHandler | undefined;
  /** The capabilities this client declared in `initialize`. */
  readonly declared: ClientCapabilities;
  readonly serverInfo: Implementation | undefined;
  readonly elicitations: ElicitationTracker;
  /** Checks an answer against the negotiated revision's result schema; an SdkError when it does not fit. */
  checkAnswer(method: string, params: Params, result: Result): SdkError | undefined;
  /** Reports a local failure the server only sees as -32603. */
  report(error: Error): void;
  /** Tells the application that a request was refused before its handler saw it, and why. */
  refused(reason: string, ctx: ServerRequestContext): void;
}

/** Registers the three server-request handlers on a session. */
export function installRequestHandlers(session: JsonRpcSession, host: HandlerHost): void {
  session.setRequestHandler("elicitation/create", (params, request) =>
    finish(host, "elicitation/create", params, answerElicitation(host, params, context(host, request))),
  );
  session.setRequestHandler("sampling/createMessage", (params, request) =>
    finish(host, "sampling/createMessage", params, answerSampling(host, params, context(host, request))),
  );
  session.setRequestHandler("roots/list", (params, request) =>
    finish(host, "roots/list", params, answerRoots(host, context(host, request))),
  );
  session.setRequestHandler("interaction/create", (params, request) =>
    finish(host, "interaction/create", params, answerInteraction(host, params, context(host, request))),
  );
}

/**
 * Answers one request of an `InputRequiredResult` (stateless era: basic/patterns/mrtr) with the
 * same handlers and checks as a request the server sent: a missing handler or a bad request is
 * the ProtocolError the server would have got, thrown here instead.
 */
export function answerInputRequest(
  host: HandlerHost,
  method: string,
  params: Params,
  ctx: ServerRequestContext,
): Promise<Result> {
  switch (method) {
    case "elicitation/create":
      return finish(host, method, params, answerElicitation(host, params, ctx));
    case "sampling/createMessage":
      return finish(host, method, params, answerSampling(host, params, ctx));
    case "roots/list":
      return finish(host, method, params, answerRoots(host, ctx));
    default:
      return Promise.reject(notHandled(method));
  }
}

function context(host: HandlerHost, request: InboundRequest): ServerRequestContext {
  return { requestId: request.id, signal: request.signal, serverInfo: host.serverInfo ?? { name: "", version: "" } };
}

function invalidParams(message: string): ProtocolError {
  return new ProtocolError(ErrorCode.InvalidParams, `Invalid params: ${message}`);
}

function notHandled(method: string): ProtocolError {
  return new ProtocolError(ErrorCode.MethodNotFound, `Method not found: this client does not handle ${method}`);
}

/** A handler's answer that breaks the schema is the client's fault: -32603, with details kept local. */
function internalError(host: HandlerHost, error: SdkError): ProtocolError {
  host.report(error);
  return new ProtocolError(ErrorCode.InternalError, `Internal error: ${error.message}`);
}

async function finish(host: HandlerHost, method: string, params: Params, answer: Promise<Result>): Promise<Result> {
  const result = await answer;
  const problem = host.checkAnswer(method, params, result);
  if (problem) throw internalError(host, problem);
  return result;
}

/**
 * Undeclared or unknown modes and malformed params are the server's fault: -32602 (spec:
 * client/elicitation § Error Handling), and so is a form whose message, field titles or
 * descriptions carry a URL (§ Safe URL Handling), which the handler never sees. A form answer gets the schema's defaults filled in and is
 * validated; one that still does not match is the client's fault: -32603, because the server's
 * params were fine and only the local handler erred.
 */
async function answerElicitation(host: HandlerHost, params: Params, ctx: ServerRequestContext): Promise<Result> {
  const registration = host.elicitation;
  if (!registration) throw notHandled("elicitation/create");
  const mode = params.mode ?? "form";
  if (mode !== "form" && mode !== "url") throw invalidParams(`unknown elicitation mode ${JSON.stringify(mode)}`);
  const usable = clientElicitationModes(host.declared).filter((m) => registration.modes.includes(m));
  if (!usable.includes(mode)) throw invalidParams(`this client did not declare elicitation mode "${mode}"`);
  if (typeof params.message !== "string") throw invalidParams("message must be a string");

  if (mode === "url") {
    const { url, elicitationId } = params;
    if (typeof url !== "string" || !URL.canParse(url)) throw invalidParams("url must be a valid URL");
    if (typeof elicitationId !== "string") throw invalidParams("elicitationId must be a string");
    const answer = await registration.handler({ ...params, mode } as ElicitationParams, ctx);
    const bare = withoutContent(host, answer);
    // Inside an InputRequiredResult the id is the client's own; completion is learnt on the retry.
    if (bare.action === "accept" && ctx.input === undefined) host.elicitations.track(elicitationId);
    return bare;
  }

  const schema = params.requestedSchema;
  const problem = checkRequestedSchema(schema);
  if (problem !== undefined) throw invalidParams(problem);
  if (formContainsUrl(params)) {
    // A link in a form would send the user to a page without the consent a URL-mode request gets.
    const reason = "a form-mode elicitation must not contain a URL in its message, field titles or descriptions";
    host.refused(reason, ctx);
    throw invalidParams(reason);
  }
  const answer = await registration.handler({ ...params, mode } as ElicitationParams, ctx);
  const bare = withoutContent(host, answer);
  if (bare.action !== "accept") return bare;
  const content = applyDefaults(schema, answer.content ?? {});
  const invalid = validateElicitContent(schema, content);
  if (invalid !== undefined) {
    throw internalError(
      host,
      new SdkError("INVALID_RESULT", `the elicitation answer does not match requestedSchema: ${invalid}`),
    );
  }
  return { ...bare, content };
}

/** The answer's action and `_meta` only: declined, cancelled and URL-mode answers carry no content. */
function withoutContent(host: HandlerHost, answer: ElicitResult): Result {
  const action = (answer as Partial<ElicitResult> | undefined)?.action;
  if (action !== "accept" && action !== "decline" && action !== "cancel") {
    throw internalError(
      host,
      new SdkError("INVALID_RESULT", `the elicitation handler answered with action ${JSON.stringify(action)}`),
    );
  }
  return answer._meta === undefined ? { action } : { action, _meta: answer._meta };
}

/**
 * The user-interaction proposal's `interaction/create`: only type `ua` is declared, so anything
 * else is the server's fault (-32602). The user's yes is the empty result; no is error -32099.
 */
async function answerInteraction(host: HandlerHost, params: Params, ctx: ServerRequestContext): Promise<Result> {
  const handler = host.userInteraction;
  if (!handler) throw notHandled("interaction/create");
  const interaction = readInteractionCreate(params);
  if (!interaction) throw invalidParams('this client handles interaction type "ua" with a url only');
  if (!URL.canParse(interaction.url)) throw invalidParams("interaction.url must be a valid URL");
  const action = await handler(interaction, ctx);
  if (action === "accept") return {};
  if (action !== "decline" && action !== "cancel") {
    throw internalError(
      host,
      new SdkError("INVALID_RESULT", `the interaction handler answered with ${JSON.stringify(action)}`),
    );
  }
  throw interactionDeclinedError();
}

async function answerSampling(host: HandlerHost, params: Params, ctx: ServerRequestContext): Promise<Result> {
  const handler = host.sampling;
  if (!handler) throw notHandled("sampling/createMessage");
  if (params.tools !== undefined && typeof host.declared.sampling?.tools !== "object") {
    throw invalidParams("this client did not declare sampling.tools, so the request may not offer tools");
  }
  return (await handler(params as unknown as CreateMessageParams, ctx)) as unknown as Result;
}

async function answerRoots(host: HandlerHost, ctx: ServerRequestContext): Promise<Result> {
  const handler = host.roots;
  if (!handler) throw notHandled("roots/list");
  return (await handler(ctx)) as unknown as Result;
}
