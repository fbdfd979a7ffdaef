/**
 * The seam between the JSON-RPC session and the negotiated protocol revision. The session asks
 * its gate whether a message may pass; only `src/revisions` builds gates, so the session and
 * everything above it never compare version strings.
 */
import type { ProtocolError, SdkError } from "./errors.js";
import type { JsonRpcMessage, JsonRpcNotification, JsonRpcRequest } from "./messages.js";

export interface MessageGate {
  /** Whether a JSON-RPC batch (array) may be received. */
  readonly acceptsBatch: boolean;
  /** An inbound request or notification: `undefined` lets it through, a ProtocolError is answered instead. */
  checkInbound(message: JsonRpcRequest | JsonRpcNotification): ProtocolError | undefined;
  /** An outbound request or notification: an SdkError is thrown locally and nothing is sent. */
  checkOutbound(message: JsonRpcRequest | JsonRpcNotification): SdkError | undefined;
  /** Shapes an outbound message for the wire (e.g. drops fields an older revision lacks). */
  encode<M extends JsonRpcMessage>(message: M): M;
  /**
   * Reads the result of an outbound request `method` before its caller gets it, e.g. drops what
   * the revision says such a result cannot carry; the same object when nothing changes. Absent:
   * results pass as they arrive.
   */
  decodeResult?(method: string, result: Record<string, unknown>): Record<string, unknown>;
}

/** A gate that lets everything through; used before negotiation and in tests. */
export const openGate: MessageGate = {
  acceptsBatch: false,
  checkInbound: () => undefined,
  checkOutbound: () => undefined,
  encode: (message) => message,
};
