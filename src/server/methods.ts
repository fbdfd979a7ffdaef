/**
 * The server's one method table: for each client request it serves, the server capability it
 * needs, whether it may answer in rounds (revision 2026-07-28), and what serves it. A request for
 * a method not in the table is answered -32601 by the session; one for a capability the server
 * does not offer, -32601 by the era driver (spec: basic/lifecycle § Capability Negotiation).
 */
import { ErrorCode, ProtocolError } from "../jsonrpc/errors.js";
import type { Params, Result } from "../jsonrpc/session.js";
import { isPromiseLike } from "../jsonrpc/thenable.js";
import { MissingClientCapabilityError } from "../revisions/index.js";
import { complete } from "./completion.js";
import type { ServerDefinition } from "./definition.js";
import {
  type ConnectionServe,
  discover,
  type HandlerMethod,
  initialize,
  listen,
  type MethodSpec,
  type ServedSession,
} from "./eras/index.js";
import type { RequestContext } from "./handler-types.js";
import { InputNeeded } from "./input-needed.js";
import { InteractionRequired } from "./interactions.js";
import { isLoggingLevel } from "./logging.js";
import { redactorOf } from "./redaction.js";

/** Every method a server serves, by name. */
export type MethodTable = ReadonlyMap<string, MethodSpec>;

/** `logging/setLevel`. @throws ProtocolError -32602 for a level that is none of `LOGGING_LEVELS`. */
const setLevel: ConnectionServe = (connection, params) => {
  if (!isLoggingLevel(params.level)) {
    throw new ProtocolError(
      ErrorCode.InvalidParams,
      `Invalid params: unknown logging level ${JSON.stringify(params.level)}`,
    );
  }
  const recorded = connection.setLogLevel(params.level);
  return recorded === undefined ? {} : recorded.then(() => ({}));
};

/** `resources/subscribe` and `resources/unsubscribe`. @throws ProtocolError -32602 when `uri` is no string. */
function subscription(subscribe: boolean): HandlerMethod["serve"] {
  return (params: Params, _ctx: RequestContext, session: ServedSession) => {
    if (typeof params.uri !== "string") {
      throw new ProtocolError(ErrorCode.InvalidParams, "Invalid params: uri must be a string");
    }
    const recorded = subscribe ? session.subscribe(params.uri) : session.unsubscribe(params.uri);
    return recorded === undefined ? {} : recorded.then(() => ({}));
  };
}

/** The table of a server that serves `definition`; made once per server and shared by its sessions. */
export function serverMethods(definition: ServerDefinition): MethodTable {
  const { tools, resources, prompts, pageSize: size } = definition;
  const entries: [string, MethodSpec][] = [
    ["initialize", { by: "entry", serve: initialize }],
    ["server/discover", { by: "entry", serve: discover }],
    ["subscriptions/listen", { by: "entry", serve: listen }],
    ["logging/setLevel", { by: "connection", capability: "logging", serve: setLevel }],
    ["tools/list", { by: "handler", capability: "tools", serve: (params) => tools.list(params.cursor, size) }],
    [
      "tools/call",
      {
        by: "handler",
        capability: "tools",
        rounds: true,
        refusesWithResult: true,
        inputSchemaOf: (params) => tools.inputSchemaOf(params.name),
        serve: (params, ctx) => tools.call(params, ctx),
      },
    ],
    [
      "resources/list",
      { by: "handler", capability: "resources", serve: (params, ctx) => resources.list(params.cursor, size, ctx) },
    ],
    [
      "resources/templates/list",
      { by: "handler", capability: "resources", serve: (params) => resources.listTemplates(params.cursor, size) },
    ],
    [
      "resources/read",
      { by: "handler", capability: "resources", rounds: true, serve: (params, ctx) => resources.read(params, ctx) },
    ],
    ["resources/subscribe", { by: "handler", capability: "resources", serve: subscription(true) }],
    ["resources/unsubscribe", { by: "handler", capability: "resources", serve: subscription(false) }],
    ["prompts/list", { by: "handler", capability: "prompts", serve: (params) => prompts.list(params.cursor, size) }],
    [
      "prompts/get",
      { by: "handler", capability: "prompts", rounds: true, serve: (params, ctx) => prompts.get(params, ctx) },
    ],
    [
      "completion/complete",
      { by: "handler", capability: "completions", serve: (params) => complete(params, prompts, resources) },
    ],
  ];
  return new Map(entries);
}

/**
 * Runs a handler method and shapes what leaves the server: whatever the handler quotes of a
 * credential it was handed is redacted from the result and from errors. An ask the client did
 * not declare, left uncaught, is answered -32021 in every revision; a `ProtocolError` is an answer
 * the handler chose; anything else is a failure the operator should see (`report`), answered -32603.
 */
export function serveHandler(
  method: string,
  spec: HandlerMethod,
  params: Params,
  ctx: RequestContext,
  session: ServedSession,
  report: (message: string, error: unknown) => void,
): Result | Promise<Result> {
  let served: unknown;
  let pending: boolean;
  try {
    served = spec.serve(params, ctx, session);
    pending = isPromiseLike(served);
  } catch (caught) {
    return refuse(method, ctx, caught, report);
  }
  // A handler that answers at once is answered within the same microtask: no promise of its own.
  if (!pending) return redacted(method, ctx, served, report);
  return Promise.resolve(served).then(
    (value) => redacted(method, ctx, value, report),
    (caught: unknown) => refuse(method, ctx, caught, report),
  );
}

/** What a handler returned, as it leaves the server: with what it quotes of a credential redacted. */
function redacted(
  method: string,
  ctx: RequestContext,
  value: unknown,
  report: (message: string, error: unknown) => void,
): Result {
  try {
    // Model types are closed interfaces; the session carries them as plain records.
    return redactorOf(ctx).value(value) as unknown as Result;
  } catch (caught) {
    return refuse(method, ctx, caught, report);
  }
}

/** Rethrows what a handler threw as its answer: redacted, and reported unless it is an answer. */
function refuse(
  method: string,
  ctx: RequestContext,
  caught: unknown,
  report: (message: string, error: unknown) => void,
): never {
  const error = caught instanceof MissingClientCapabilityError ? caught.toProtocolError() : caught;
  // InteractionRequired and a round's missing input are answers too, given by the connection.
  const answer = error instanceof ProtocolError || error instanceof InteractionRequired || error instanceof InputNeeded;
  // A hand-off's message and URL go to the client.
  if (error instanceof InteractionRequired) throw redactorOf(ctx).handoff(error);
  if (answer && !(error instanceof ProtocolError)) throw error;
  // A ProtocolError's message and data go to the client; the logger's entry may be shipped anywhere.
  const redactedError = redactorOf(ctx).error(error);
  if (!answer) report(`${method} failed`, redactedError);
  throw error instanceof ProtocolError ? redactedError : error;
}
