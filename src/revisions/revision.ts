/**
 * The one object server and client code consult about the protocol revision on the wire. They ask it
 * what the revision supports; they never compare version strings themselves.
 */
import type { ProtocolError } from "../jsonrpc/errors.js";
import type { JsonRpcMessage } from "../jsonrpc/messages.js";
import type { InteractionForm, InteractionTracking, InteractionWire, WireMessage } from "./interaction-wire.js";
import type { MethodTable } from "./method-table.js";
import type { ElicitationMode } from "./model.js";
import type { ProtocolVersion } from "./versions.js";

/** Which end of the connection is speaking. */
export type Role = "client" | "server";

/** What the codec needs to know about a message besides the message itself. */
export interface MessageContext {
  /** The side doing the validating or encoding. */
  readonly role: Role;
  /**
   * For a response: the request it answers (the session keeps it to correlate ids). Without it a
   * result cannot be checked against its method's result shape, and only framing is checked.
   */
  readonly request?: { readonly method: string; readonly params?: Record<string, unknown> };
}

export interface Revision {
  /** The `protocolVersion` string, e.g. `2025-11-25`. */
  readonly version: ProtocolVersion;
  /**
   * Stateful revisions use the `initialize` handshake and server-initiated requests; stateless ones
   * (2026-07-28) carry version and capabilities on every request and ask for input by result.
   */
  readonly era: "stateful" | "stateless";
  /** Whether JSON-RPC batches (arrays of messages) are allowed; only 2025-03-26 allows them. */
  readonly supportsBatch: boolean;
  /**
   * `false` when `encodeOutbound` passes every result through as it is, so a gate need not keep
   * the request each response answers; absent or `true`, it may reshape results.
   */
  readonly reshapesResults?: boolean;
  /**
   * Whether a Streamable HTTP client sends `MCP-Protocol-Version` on every request after
   * initialization (spec 2025-06-18 and later: basic/transports § Protocol Version Header).
   */
  readonly protocolVersionHeader: boolean;
  /** Requests and notifications each side may send in this revision. */
  readonly methods: MethodTable;
  /** Elicitation modes the revision defines: none before 2025-06-18, form in 2025-06-18, both after. */
  readonly elicitationModes: readonly ElicitationMode[];
  /**
   * The top-level server capabilities this revision's schema defines. A request whose capability
   * the revision lacks (`completions` in 2024-11-05) needs no declaration in that revision.
   */
  readonly serverCapabilities: ReadonlySet<string>;

  /** Whether `sender` may send request `method` in this revision. */
  hasRequest(method: string, sender: Role): boolean;
  /** Whether `sender` may send notification `method` in this revision. */
  hasNotification(method: string, sender: Role): boolean;

  /**
   * Checks a message received from the peer against this revision's official schema.
   * Returns -32601 (Method not found) for a method the revision lacks, -32602 (Invalid params) naming
   * the failing field for a malformed message, or `undefined` when the message is valid.
   */
  validateInbound(message: JsonRpcMessage, context: MessageContext): ProtocolError | undefined;
  /** The same checks for a message about to be sent, so a malformed message never leaves. */
  validateOutbound(message: JsonRpcMessage, context: MessageContext): ProtocolError | undefined;
  /**
   * Rewrites a message built from the neutral (newest) model into what this revision carries: fields
   * and content the revision lacks are dropped. Returns the message itself when nothing changes.
   */
  encodeOutbound<M extends JsonRpcMessage>(message: M, context: MessageContext): M;

  /**
   * This revision as spoken with a client that declared `clientCapabilities`: extensions the client
   * declared (the user-interaction proposal's `userInteraction`) add their methods and schemas.
   * Returns this revision itself when the client declared none.
   */
  forClient(clientCapabilities: unknown): Revision;
  /**
   * How to hand a client off to a web page: URL-mode elicitation where the revision defines it and
   * the client declared `elicitation.url`, else the user-interaction proposal where the client
   * declared `userInteraction` with type `ua`, else `none`. `prefer` (a server's choice for this
   * client) comes first when the client declared it too; a form it did not declare is never chosen.
   */
  interactionWire(clientCapabilities: unknown, prefer?: InteractionForm): InteractionWire;
  /** `interaction/track` when the client declared the user-interaction extension, else `undefined`. */
  interactionTracking(clientCapabilities: unknown): InteractionTracking | undefined;
  /**
   * The notification that tells the client URL-mode elicitation `elicitationId` completed
   * (`notifications/elicitation/complete`, spec 2025-11-25: client/elicitation § Completion
   * Notifications), or `undefined` where the client learns of completion by retrying its request
   * (2026-07-28: basic/patterns/mrtr), so there is nothing to send. The gate still refuses the
   * notification to a client or revision without URL mode.
   */
  elicitationCompleteNotice(elicitationId: string): WireMessage | undefined;
}
