/**
 * Revision 2026-07-28 as a `Revision` object: its method table and schema checks in both
 * directions. Nothing is down-levelled: the neutral model's fields all exist here, and the
 * additions (`resultType`, `_meta` keys, cache hints) are put on by the gate's encoder.
 */
import { ErrorCode, ProtocolError } from "../../jsonrpc/errors.js";
import { isErrorResponse, isNotification, isRequest, type JsonRpcMessage } from "../../jsonrpc/messages.js";
import { clientElicitationModes } from "../capabilities.js";
import { explainMismatch } from "../explain.js";
import type { InteractionTracking, InteractionWire } from "../interaction-wire.js";
import type { ElicitationMode } from "../model.js";
import type { MessageContext, Revision, Role } from "../revision.js";
import { definitionsOf } from "../schemas.js";
import type { StatelessVersion } from "../versions.js";
import { STATELESS_METHODS } from "./methods.js";
import { isInputRequired, StatelessErrorCode } from "./wire.js";

/** Errors of this revision whose shape the schema fixes, by code. */
const ERROR_DEFINITIONS: ReadonlyMap<number, string> = new Map([
  [StatelessErrorCode.HeaderMismatch, "HeaderMismatchError"],
  [StatelessErrorCode.MissingRequiredClientCapability, "MissingRequiredClientCapabilityError"],
  [StatelessErrorCode.UnsupportedProtocolVersion, "UnsupportedProtocolVersionError"],
]);

/**
 * A hand-off in this revision: a URL-mode `elicitation/create` without `elicitationId`, carried in
 * an `InputRequiredResult`; the client learns completion by retrying (spec 2026-07-28:
 * basic/patterns/mrtr, client/elicitation § URL Mode).
 */
const MRTR_URL_ELICITATION: InteractionWire = {
  form: "url-elicitation",
  request: ({ url, message }) => ({ method: "elicitation/create", params: { mode: "url", url, message } }),
  answer(result) {
    const action = result.action;
    if (action === "accept" || action === "decline" || action === "cancel") return action;
    return "cancel";
  },
  answerFromError: () => undefined,
  requiredError: () => undefined,
  completionNotice: () => undefined,
};

const NO_WIRE: InteractionWire = {
  form: "none",
  request: () => undefined,
  answer: () => "cancel",
  answerFromError: () => undefined,
  requiredError: () => undefined,
  completionNotice: () => undefined,
};

function other(role: Role): Role {
  return role === "client" ? "server" : "client";
}

export class StatelessRevision implements Revision {
  readonly era = "stateless";
  readonly supportsBatch = false;
  readonly protocolVersionHeader = true;
  readonly methods = STATELESS_METHODS;
  readonly elicitationModes: readonly ElicitationMode[] = ["form", "url"];
  #serverCapabilities: ReadonlySet<string> | undefined;

  constructor(readonly version: StatelessVersion) {}

  /** Read from the revision's schema when first asked, so loading the codec parses no schema. */
  get serverCapabilities(): ReadonlySet<string> {
    this.#serverCapabilities ??= new Set(Object.keys(definitionsOf(this.version).ServerCapabilities?.properties ?? {}));
    return this.#serverCapabilities;
  }

  hasRequest(method: string, sender: Role): boolean {
    return (sender === "client" ? this.methods.clientRequests : this.methods.serverRequests).has(method);
  }

  hasNotification(method: string, sender: Role): boolean {
    return (sender === "client" ? this.methods.clientNotifications : this.methods.serverNotifications).has(method);
  }

  validateInbound(message: JsonRpcMessage, context: MessageContext): ProtocolError | undefined {
    return this.#validate(message, other(context.role), context);
  }

  validateOutbound(message: JsonRpcMessage, context: MessageContext): ProtocolError | undefined {
    return this.#validate(message, context.role, context);
  }

  encodeOutbound<M extends JsonRpcMessage>(message: M): M {
    return message;
  }

  forClient(): Revision {
    return this;
  }

  interactionWire(clientCapabilities: unknown): InteractionWire {
    return clientElicitationModes(clientCapabilities as Record<string, unknown> | undefined).includes("url")
      ? MRTR_URL_ELICITATION
      : NO_WIRE;
  }

  interactionTracking(): InteractionTracking | undefined {
    return undefined;
  }

  /** Nothing to send: the answer to the client's retry is the completion (basic/patterns/mrtr). */
  elicitationCompleteNotice(): undefined {
    return undefined;
  }

  /** The result definition a response to `request` must match (`InputRequiredResult` for an interim one). */
  resultDefinition(method: string, result: unknown, requester: Role): string | undefined {
    if (isInputRequired(result)) return "InputRequiredResult";
    const table = requester === "client" ? this.methods.clientRequests : this.methods.serverRequests;
    return table.get(method)?.result;
  }

  #validate(message: JsonRpcMessage, sender: Role, context: MessageContext): ProtocolError | undefined {
    if (isRequest(message) || isNotification(message)) {
      const kind = isRequest(message) ? "request" : "notification";
      const table = isRequest(message)
        ? sender === "client"
          ? this.methods.clientRequests
          : this.methods.serverRequests
        : sender === "client"
          ? this.methods.clientNotifications
          : this.methods.serverNotifications;
      const spec = table.get(message.method);
      const definition = spec === undefined ? undefined : "request" in spec ? spec.request : spec.notification;
      if (definition === undefined) {
        return new ProtocolError(
          ErrorCode.MethodNotFound,
          `Method not found: ${sender} ${kind} "${message.method}" does not exist in protocol revision ${this.version}`,
        );
      }
      const problem = explainMismatch(this.version, definition, message, "");
      return problem === undefined
        ? undefined
        : new ProtocolError(ErrorCode.InvalidParams, `Invalid params for ${message.method}: ${problem}`);
    }
    if (isErrorResponse(message)) {
      const definition = ERROR_DEFINITIONS.get(message.error.code);
      if (definition === undefined) return undefined;
      const problem = explainMismatch(this.version, definition, message, "");
      return problem === undefined
        ? undefined
        : new ProtocolError(ErrorCode.InvalidParams, `Invalid ${definition}: ${problem}`);
    }
    if ("result" in message && context.request !== undefined) {
      const definition = this.resultDefinition(context.request.method, message.result, other(sender));
      if (definition === undefined) return undefined;
      const problem = explainMismatch(this.version, definition, message.result, "result");
      return problem === undefined
        ? undefined
        : new ProtocolError(ErrorCode.InvalidParams, `Invalid result for ${context.request.method}: ${problem}`);
    }
    return undefined;
  }
}

/** The one `Revision` of each stateless version, created once. */
export const STATELESS_REVISIONS: Readonly<Record<StatelessVersion, StatelessRevision>> = {
  "2026-07-28": new StatelessRevision("2026-07-28"),
};

/**
 * How a stateless request's client is handed off to a page: a URL-mode elicitation inside an
 * `InputRequiredResult` when its capabilities declare `elicitation.url`, else `none`.
 */
export function requestInteractionWire(clientCapabilities: Record<string, unknown>): InteractionWire {
  return STATELESS_REVISIONS["2026-07-28"].interactionWire(clientCapabilities);
}
