/**
 * Message gates of the stateful era (spec: basic/lifecycle). One gate guards the handshake, before
 * a revision is agreed; another, built from the negotiated revision and the peer's capabilities,
 * guards everything after. Both sides (server and client) use them.
 */
import { ErrorCode, ProtocolError, SdkError } from "../../jsonrpc/errors.js";
import type { MessageGate } from "../../jsonrpc/gate.js";
import {
  isErrorResponse,
  isRequest,
  isResponse,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type RequestId,
} from "../../jsonrpc/messages.js";
import { assertClientCapability, assertServerCapability, clientElicitationModes } from "../capabilities.js";
import { decodeElicitResult } from "../elicitation.js";
import type { ElicitationMode } from "../model.js";
import type { MessageContext, Revision, Role } from "../revision.js";
import { requestedVersion } from "../stateless/meta.js";

/** A request received before the gate existed that it will answer (the `initialize` request itself). */
export interface InFlightRequest {
  id: RequestId;
  method: string;
  params?: Record<string, unknown>;
}

export interface GateOptions {
  /** The side this gate guards. */
  role: Role;
  /** What the peer declared in the handshake (`capabilities` of `initialize` or of its result). */
  peerCapabilities: Record<string, unknown>;
  /**
   * Server: whether `notifications/initialized` has arrived; until then only `ping` may be sent as
   * a request. Client: whether the client has sent it. Read when a request is sent: an object
   * (the connection itself, say) rather than a closure, so that a connection holds none for it.
   */
  initialized: { readonly initialized: boolean };
  /** Requests already received whose responses will pass through this gate. */
  inFlight?: readonly InFlightRequest[];
  /**
   * Client: the capabilities it declared in `initialize`, so that extensions it declared (such as
   * `userInteraction`) are spoken. A server reads them from `peerCapabilities`.
   */
  localCapabilities?: Record<string, unknown>;
}

/**
 * The gate of a negotiated revision.
 * - inbound: the revision's schema and method table (-32601, -32602); a server refuses a second
 *   `initialize`, and a request that names a protocol version in `_meta` (the stateless era's, so
 *   it cannot trade the agreed capabilities for its own) (-32600);
 * - outbound: the method must exist in the revision for this role (`SdkError("METHOD_NOT_SUPPORTED")`);
 *   a server sends no request but `ping` before `notifications/initialized` (`SdkError("NOT_CONNECTED")`);
 *   the peer must have declared the capability it needs, and an elicitation's mode must exist in the
 *   revision (`SdkError("CAPABILITY_NOT_SUPPORTED")`); the message must be valid for the revision
 *   (`SdkError("INVALID_ARGUMENT")`);
 * - encode: the revision's codec, with responses matched to the request they answer.
 * Extensions the client declared (the user-interaction proposal) join the revision's methods.
 * @internal
 */
export function createGate(negotiated: Revision, options: GateOptions): MessageGate {
  return new NegotiatedGate(negotiated, options);
}

/** The gate `createGate` builds: one object per connection, its methods shared by all of them. */
class NegotiatedGate implements MessageGate {
  readonly #role: Role;
  readonly #peerCapabilities: Record<string, unknown>;
  readonly #initialized: { readonly initialized: boolean };
  readonly #revision: Revision;
  /** Inbound requests not yet answered, for encoding their results (made on first use). */
  #answering: Map<RequestId, AnsweredRequest> | undefined;

  constructor(negotiated: Revision, options: GateOptions) {
    const { role, peerCapabilities } = options;
    this.#role = role;
    this.#peerCapabilities = peerCapabilities;
    this.#initialized = options.initialized;
    this.#revision = negotiated.forClient(role === "server" ? peerCapabilities : (options.localCapabilities ?? {}));
    for (const request of options.inFlight ?? []) this.remember(request.id, request);
  }

  // What follows from the role and the revision is read from them, not kept: a gate is one object
  // per connection, and a server holds thousands of idle ones. Its methods are `private`, not `#`:
  // V8 gives each instance of a class with `#` methods a slot for the class's brand.
  get acceptsBatch(): boolean {
    return this.#revision.supportsBatch;
  }

  /** The side the peer speaks for. */
  private get peerRole(): Role {
    return this.#role === "server" ? "client" : "server";
  }

  /** The context of every message this gate checks or encodes. */
  private get messageContext(): MessageContext {
    return this.#role === "server" ? SERVER_CONTEXT : CLIENT_CONTEXT;
  }

  /** Whether results are reshaped, and so the requests they answer must be kept. */
  private get keepsRequests(): boolean {
    return this.#revision.reshapesResults !== false;
  }

  checkInbound(message: JsonRpcRequest | JsonRpcNotification): ProtocolError | undefined {
    const revision = this.#revision;
    if (this.#role === "server" && isRequest(message) && message.method === "initialize") {
      return new ProtocolError(ErrorCode.InvalidRequest, "Invalid Request: the session is already initialized");
    }
    // A request that names its own protocol version (the stateless era) would be served with the
    // capabilities it claims, not those the handshake agreed.
    if (this.#role === "server" && isRequest(message) && requestedVersion(message.params) !== undefined) {
      return new ProtocolError(
        ErrorCode.InvalidRequest,
        `Invalid Request: this session was initialized at protocol revision ${revision.version}; a request naming its protocol version in _meta is not served in it`,
      );
    }
    // A notification this revision does not define (an extension's) has no schema to check; the
    // session drops it unless the application registered a handler for it.
    if (!isRequest(message) && !revision.hasNotification(message.method, this.peerRole)) return undefined;
    const refusal = revision.validateInbound(message, this.messageContext);
    if (refusal) return refusal;
    if (isRequest(message)) {
      this.remember(message.id, message.params === undefined ? { method: message.method } : message);
    } else if (message.method === "notifications/cancelled") {
      const id = message.params?.requestId;
      if (typeof id === "string" || typeof id === "number") this.#answering?.delete(id);
    }
    return undefined;
  }

  checkOutbound(message: JsonRpcRequest | JsonRpcNotification): SdkError | undefined {
    const revision = this.#revision;
    const role = this.#role;
    const peerCapabilities = this.#peerCapabilities;
    const request = isRequest(message);
    const known = request ? revision.hasRequest(message.method, role) : revision.hasNotification(message.method, role);
    if (!known) {
      return new SdkError(
        "METHOD_NOT_SUPPORTED",
        `${message.method} is not a ${role} ${request ? "request" : "notification"} in protocol revision ${revision.version}`,
      );
    }
    if (role === "server" && request && message.method !== "ping" && !this.#initialized.initialized) {
      return new SdkError(
        "NOT_CONNECTED",
        `Cannot send ${message.method} before the client has sent notifications/initialized`,
      );
    }
    const missing =
      role === "server"
        ? (elicitationRefusal(revision, peerCapabilities, message) ??
          assertClientCapability(peerCapabilities, message.method, message.params))
        : assertServerCapability(peerCapabilities, message.method, message.params, revision.serverCapabilities);
    if (missing) return missing;
    const invalid = revision.validateOutbound(message, this.messageContext);
    if (invalid) return new SdkError("INVALID_ARGUMENT", invalid.message, { cause: invalid });
    return undefined;
  }

  encode<M extends JsonRpcMessage>(message: M): M {
    const revision = this.#revision;
    if (!isResponse(message)) return revision.encodeOutbound(message, this.messageContext);
    if (message.id === null) return message;
    const request = this.#answering?.get(message.id);
    this.#answering?.delete(message.id);
    if (isErrorResponse(message) || !request) return revision.encodeOutbound(message, this.messageContext);
    return revision.encodeOutbound(message, { role: this.#role, request });
  }

  /** A form's decline or cancel reaches the handler without content (`decodeElicitResult`). */
  decodeResult(method: string, result: Record<string, unknown>): Record<string, unknown> {
    return method === "elicitation/create" ? decodeElicitResult(result) : result;
  }

  private remember(id: RequestId, request: AnsweredRequest): void {
    if (!this.keepsRequests) return;
    this.#answering ??= new Map();
    this.#answering.set(id, request);
  }
}

type AnsweredRequest = { method: string; params?: Record<string, unknown> };

/** The contexts gates check messages in, shared by every gate of each side. */
const SERVER_CONTEXT: MessageContext = Object.freeze({ role: "server" });
const CLIENT_CONTEXT: MessageContext = Object.freeze({ role: "client" });

/**
 * A server may send an elicitation only in a mode the revision defines (URL mode arrived in
 * 2025-11-25), and `notifications/elicitation/complete` only to a client that declared URL mode.
 */
function elicitationRefusal(
  revision: Revision,
  peerCapabilities: Record<string, unknown>,
  message: JsonRpcRequest | JsonRpcNotification,
): SdkError | undefined {
  if (message.method === "elicitation/create") {
    const mode = String(message.params?.mode ?? "form");
    if (!revision.elicitationModes.includes(mode as ElicitationMode)) {
      return new SdkError(
        "CAPABILITY_NOT_SUPPORTED",
        `${mode}-mode elicitation does not exist in protocol revision ${revision.version}`,
      );
    }
  }
  if (
    message.method === "notifications/elicitation/complete" &&
    !clientElicitationModes(peerCapabilities).includes("url")
  ) {
    return new SdkError(
      "CAPABILITY_NOT_SUPPORTED",
      "The client did not declare URL-mode elicitation, which notifications/elicitation/complete requires",
    );
  }
  return undefined;
}

/**
 * The gate of the handshake, before any revision is agreed.
 * - server: receives only `initialize` and `ping` (anything else: -32600); sends only `ping` requests;
 * - client: receives only `ping` requests; sends only `initialize` and `ping` requests.
 * Notifications pass: the lifecycle allows logging and cancellation around the handshake.
 * @internal
 */
export function createHandshakeGate(role: Role): MessageGate {
  const inbound = role === "server" ? ["initialize", "ping"] : ["ping"];
  const outbound = role === "server" ? ["ping"] : ["initialize", "ping"];
  return {
    acceptsBatch: false,
    checkInbound(message: JsonRpcRequest | JsonRpcNotification) {
      if (!isRequest(message) || inbound.includes(message.method)) return undefined;
      const wanted = role === "server" ? "initialize" : "the initialize result";
      return new ProtocolError(
        ErrorCode.InvalidRequest,
        `Invalid Request: ${message.method} cannot be handled before ${wanted}; the session is not initialized`,
      );
    },
    checkOutbound(message: JsonRpcRequest | JsonRpcNotification) {
      if (!isRequest(message) || outbound.includes(message.method)) return undefined;
      return new SdkError("NOT_CONNECTED", `Cannot send ${message.method} before the session is initialized`);
    },
    encode: (message) => message,
  };
}
