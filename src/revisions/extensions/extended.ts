/**
 * A revision as spoken with a peer that declared an extension: the extension's methods join the
 * revision's method table and are checked against the extension's own schemas; everything else is
 * the revision's business. Extension messages are never down-levelled: no revision defines them.
 */
import type { ErrorObject } from "ajv";
import { ErrorCode, ProtocolError } from "../../jsonrpc/errors.js";
import { isErrorResponse, isNotification, isRequest, type JsonRpcMessage } from "../../jsonrpc/messages.js";
import { joinPath } from "../explain.js";
import type { InteractionForm } from "../interaction-wire.js";
import type { MethodTable, RequestSpec } from "../method-table.js";
import type { MessageContext, Revision, Role } from "../revision.js";
import type { WireExtension } from "./user-interaction.js";

function other(role: Role): Role {
  return role === "client" ? "server" : "client";
}

function merge<V>(base: ReadonlyMap<string, V>, added: ReadonlyMap<string, V>): ReadonlyMap<string, V> {
  return new Map([...base, ...added]);
}

/** One sentence naming the first failing field, e.g. `params.id is required`. */
function explain(errors: readonly ErrorObject[] | null | undefined, root: string): string {
  const error = errors?.find((e) => e.keyword !== "if") ?? errors?.[0];
  if (error === undefined) return `${root} does not match the schema`;
  const segments = error.instancePath === "" ? [] : error.instancePath.slice(1).split("/");
  const where = joinPath(root, segments);
  const params = error.params as Record<string, unknown>;
  if (error.keyword === "required") return `${joinPath(where, [String(params.missingProperty)])} is required`;
  if (error.keyword === "const") return `${where} must be ${JSON.stringify(params.allowedValue)}`;
  return `${where} ${error.message ?? "is invalid"}`;
}

class ExtendedRevision implements Revision {
  readonly methods: MethodTable;

  constructor(
    private readonly base: Revision,
    private readonly extension: WireExtension,
  ) {
    const added = extension.methods;
    this.methods = {
      clientRequests: merge(base.methods.clientRequests, added.clientRequests),
      serverRequests: merge(base.methods.serverRequests, added.serverRequests),
      clientNotifications: merge(base.methods.clientNotifications, added.clientNotifications),
      serverNotifications: merge(base.methods.serverNotifications, added.serverNotifications),
    };
  }

  get version() {
    return this.base.version;
  }
  get era() {
    return this.base.era;
  }
  get supportsBatch() {
    return this.base.supportsBatch;
  }
  get protocolVersionHeader() {
    return this.base.protocolVersionHeader;
  }
  get elicitationModes() {
    return this.base.elicitationModes;
  }
  get serverCapabilities() {
    return this.base.serverCapabilities;
  }
  /** The extension's own results are never reshaped; the base revision's may be. */
  get reshapesResults() {
    return this.base.reshapesResults;
  }

  hasRequest(method: string, sender: Role): boolean {
    return (sender === "client" ? this.methods.clientRequests : this.methods.serverRequests).has(method);
  }

  hasNotification(method: string, sender: Role): boolean {
    return (sender === "client" ? this.methods.clientNotifications : this.methods.serverNotifications).has(method);
  }

  validateInbound(message: JsonRpcMessage, context: MessageContext): ProtocolError | undefined {
    const own = this.validateOwn(message, other(context.role), context);
    return own === undefined ? this.base.validateInbound(message, context) : own || undefined;
  }

  validateOutbound(message: JsonRpcMessage, context: MessageContext): ProtocolError | undefined {
    const own = this.validateOwn(message, context.role, context);
    return own === undefined ? this.base.validateOutbound(message, context) : own || undefined;
  }

  encodeOutbound<M extends JsonRpcMessage>(message: M, context: MessageContext): M {
    return this.ownSpec(message, context.role, context) === undefined
      ? this.base.encodeOutbound(message, context)
      : message;
  }

  forClient(clientCapabilities: unknown): Revision {
    return this.base.forClient(clientCapabilities);
  }

  interactionWire(clientCapabilities: unknown, prefer?: InteractionForm) {
    return this.base.interactionWire(clientCapabilities, prefer);
  }

  interactionTracking(clientCapabilities: unknown) {
    return this.base.interactionTracking(clientCapabilities);
  }

  elicitationCompleteNotice(elicitationId: string) {
    return this.base.elicitationCompleteNotice(elicitationId);
  }

  /** The extension's definition for a message sent by `sender`, or `undefined` when it is not the extension's. */
  private ownSpec(message: JsonRpcMessage, sender: Role, context: MessageContext): string | undefined {
    const requests = (role: Role) =>
      role === "client" ? this.extension.methods.clientRequests : this.extension.methods.serverRequests;
    if (isRequest(message)) return requests(sender).get(message.method)?.request;
    if (isNotification(message)) {
      const notifications =
        sender === "client" ? this.extension.methods.clientNotifications : this.extension.methods.serverNotifications;
      return notifications.get(message.method)?.notification;
    }
    if (isErrorResponse(message)) return this.extension.errors.get(message.error.code);
    const spec: RequestSpec | undefined =
      context.request === undefined ? undefined : requests(other(sender)).get(context.request.method);
    return spec?.result;
  }

  /**
   * `undefined` when the message is not the extension's (the revision checks it), `false` when it
   * is and is valid, or the refusal.
   */
  private validateOwn(
    message: JsonRpcMessage,
    sender: Role,
    context: MessageContext,
  ): ProtocolError | false | undefined {
    const definition = this.ownSpec(message, sender, context);
    if (definition === undefined) return undefined;
    const validate = this.extension.validator(definition);
    const valid = (value: unknown): boolean => validate(value) === true;
    if (isErrorResponse(message)) {
      if (valid(message.error)) return false;
      return new ProtocolError(
        ErrorCode.InvalidParams,
        `Invalid error ${message.error.code}: ${explain(validate.errors, "error")}`,
      );
    }
    if (isRequest(message) || isNotification(message)) {
      if (valid(message)) return false;
      return new ProtocolError(
        ErrorCode.InvalidParams,
        `Invalid params for ${message.method}: ${explain(validate.errors, "")}`,
      );
    }
    if (valid(message.result)) return false;
    return new ProtocolError(
      ErrorCode.InvalidParams,
      `Invalid result for ${context.request?.method}: ${explain(validate.errors, "result")}`,
    );
  }
}

/** `base` with `extension`'s methods added. */
export function extendRevision(base: Revision, extension: WireExtension): Revision {
  return new ExtendedRevision(base, extension);
}
