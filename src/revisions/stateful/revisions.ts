/**
 * The stateful-era revisions (2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25) as `Revision` objects:
 * method tables, schema validation in both directions, and outbound down-levelling.
 */
import { ErrorCode, ProtocolError } from "../../jsonrpc/errors.js";
import { isErrorResponse, isNotification, isRequest, type JsonRpcMessage } from "../../jsonrpc/messages.js";
import { explainMismatch } from "../explain.js";
import { extendRevision } from "../extensions/extended.js";
import { declaredInteractionTypes, USER_INTERACTION_EXTENSION } from "../extensions/user-interaction.js";
import {
  type InteractionForm,
  type InteractionTracking,
  type InteractionWire,
  interactionTrackingFor,
  interactionWireFor,
  type WireMessage,
} from "../interaction-wire.js";
import type { RequestSpec } from "../method-table.js";
import type { ElicitationMode } from "../model.js";
import type { MessageContext, Revision, Role } from "../revision.js";
import { definitionsOf } from "../schemas.js";
import { hasDefinition } from "../validators.js";
import type { StatefulVersion } from "../versions.js";
import { downgradeRequestedSchema, fitToSchema } from "./encode.js";
import { STATEFUL_METHODS } from "./methods.js";

const ELICITATION_MODES: Readonly<Record<StatefulVersion, readonly ElicitationMode[]>> = {
  "2024-11-05": [],
  "2025-03-26": [],
  "2025-06-18": ["form"],
  "2025-11-25": ["form", "url"],
};

const NEUTRAL_VERSION: StatefulVersion = "2025-11-25";

function other(role: Role): Role {
  return role === "client" ? "server" : "client";
}

class StatefulRevision implements Revision {
  readonly era = "stateful";
  readonly supportsBatch: boolean;
  /** Results pass through unchanged in the revision the neutral model is written in. */
  readonly reshapesResults: boolean;
  readonly protocolVersionHeader: boolean;
  readonly methods;
  readonly elicitationModes: readonly ElicitationMode[];
  #serverCapabilities: ReadonlySet<string> | undefined;
  #withUserInteraction: Revision | undefined;

  constructor(readonly version: StatefulVersion) {
    this.supportsBatch = version === "2025-03-26";
    this.reshapesResults = version !== NEUTRAL_VERSION;
    this.protocolVersionHeader = version !== "2024-11-05" && version !== "2025-03-26";
    this.methods = STATEFUL_METHODS[version];
    this.elicitationModes = ELICITATION_MODES[version];
  }

  /** Read from the revision's schema when first asked, so loading the codec parses no schema. */
  get serverCapabilities(): ReadonlySet<string> {
    this.#serverCapabilities ??= new Set(Object.keys(definitionsOf(this.version).ServerCapabilities?.properties ?? {}));
    return this.#serverCapabilities;
  }

  hasRequest(method: string, sender: Role): boolean {
    return this.requestSpec(method, sender) !== undefined;
  }

  hasNotification(method: string, sender: Role): boolean {
    return this.notificationDefinition(method, sender) !== undefined;
  }

  validateInbound(message: JsonRpcMessage, context: MessageContext): ProtocolError | undefined {
    return this.validate(message, other(context.role), context);
  }

  validateOutbound(message: JsonRpcMessage, context: MessageContext): ProtocolError | undefined {
    return this.validate(message, context.role, context);
  }

  encodeOutbound<M extends JsonRpcMessage>(message: M, context: MessageContext): M {
    if (this.version === NEUTRAL_VERSION) return message;
    const definitions = definitionsOf(this.version);
    if (isRequest(message) || isNotification(message)) {
      const definition = isRequest(message)
        ? this.requestSpec(message.method, context.role)?.request
        : this.notificationDefinition(message.method, context.role);
      const paramsSchema = definition === undefined ? undefined : definitions[definition]?.properties?.params;
      if (paramsSchema === undefined || message.params === undefined) return message;
      let params = fitToSchema(this.version, paramsSchema, message.params) as Record<string, unknown>;
      // `params._meta` (with `progressToken`) exists in every revision, though older generated
      // definitions of specific requests and notifications leave it out.
      if (message.params._meta !== undefined && params._meta === undefined) {
        params = { ...params, _meta: message.params._meta };
      }
      if (message.method === "elicitation/create" && params.requestedSchema !== undefined) {
        const requestedSchema = downgradeRequestedSchema(this.version, params.requestedSchema);
        if (requestedSchema !== params.requestedSchema) params = { ...params, requestedSchema };
      }
      return params === message.params ? message : { ...message, params };
    }
    if ("result" in message && context.request !== undefined) {
      const resultDefinition = this.resultDefinition(context.request, other(context.role));
      const schema = resultDefinition === undefined ? undefined : definitions[resultDefinition];
      if (schema === undefined) return message;
      const result = fitToSchema(this.version, schema, message.result);
      return result === message.result ? message : { ...message, result };
    }
    return message;
  }

  forClient(clientCapabilities: unknown): Revision {
    if (declaredInteractionTypes(clientCapabilities).length === 0) return this;
    this.#withUserInteraction ??= extendRevision(this, USER_INTERACTION_EXTENSION);
    return this.#withUserInteraction;
  }

  interactionWire(clientCapabilities: unknown, prefer?: InteractionForm): InteractionWire {
    return interactionWireFor(this.elicitationModes, clientCapabilities, prefer);
  }

  interactionTracking(clientCapabilities: unknown): InteractionTracking | undefined {
    return interactionTrackingFor(clientCapabilities);
  }

  /** The stateful era announces completion; the gate refuses it where URL mode is not declared. */
  elicitationCompleteNotice(elicitationId: string): WireMessage {
    return { method: "notifications/elicitation/complete", params: { elicitationId } };
  }

  private requestSpec(method: string, sender: Role): RequestSpec | undefined {
    const table = sender === "client" ? this.methods.clientRequests : this.methods.serverRequests;
    return table.get(method);
  }

  private notificationDefinition(method: string, sender: Role): string | undefined {
    const table = sender === "client" ? this.methods.clientNotifications : this.methods.serverNotifications;
    return table.get(method)?.notification;
  }

  private resultDefinition(request: NonNullable<MessageContext["request"]>, requester: Role): string | undefined {
    const spec = this.requestSpec(request.method, requester);
    if (spec === undefined) return undefined;
    return request.params?.task !== undefined && spec.taskResult !== undefined ? spec.taskResult : spec.result;
  }

  /** Validates a message sent by `sender`. */
  private validate(message: JsonRpcMessage, sender: Role, context: MessageContext): ProtocolError | undefined {
    if (isRequest(message) || isNotification(message)) {
      const kind = isRequest(message) ? "request" : "notification";
      const definition = isRequest(message)
        ? this.requestSpec(message.method, sender)?.request
        : this.notificationDefinition(message.method, sender);
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
      if (message.error.code !== ErrorCode.UrlElicitationRequired) return undefined;
      if (!hasDefinition(this.version, "URLElicitationRequiredError")) return undefined;
      const problem = explainMismatch(this.version, "URLElicitationRequiredError", message, "");
      return problem === undefined
        ? undefined
        : new ProtocolError(ErrorCode.InvalidParams, `Invalid URL elicitation required error: ${problem}`);
    }
    if ("result" in message && context.request !== undefined) {
      const definition = this.resultDefinition(context.request, other(sender));
      if (definition === undefined) return undefined;
      const problem = explainMismatch(this.version, definition, message.result, "result");
      return problem === undefined
        ? undefined
        : new ProtocolError(ErrorCode.InvalidParams, `Invalid result for ${context.request.method}: ${problem}`);
    }
    return undefined;
  }
}

/** One `Revision` per stateful version, created once. */
export const STATEFUL_REVISIONS: Readonly<Record<StatefulVersion, Revision>> = {
  "2024-11-05": new StatefulRevision("2024-11-05"),
  "2025-03-26": new StatefulRevision("2025-03-26"),
  "2025-06-18": new StatefulRevision("2025-06-18"),
  "2025-11-25": new StatefulRevision("2025-11-25"),
};
