/**
 * Server gates of the stateless era. `createStatelessGate` guards requests written in 2026-07-28:
 * their `_meta` (version, capabilities), the method table and schema, and encodes their results.
 * `createEntryGate` is what a fresh connection starts with: it serves both eras, sending a
 * stateless request to the stateless gate and anything else to the handshake gate, until
 * `initialize` installs a stateful revision's gate.
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
import { createHandshakeGate } from "../stateful/gate.js";
import { type CacheHints, encodeResult } from "./encode.js";
import { isStatelessRequest, readRequestMeta } from "./meta.js";
import { STATELESS_REVISIONS } from "./revision.js";
import { StatelessErrorCode } from "./wire.js";

export interface StatelessGateOptions {
  /** Put in every result's `_meta` (`io.modelcontextprotocol/serverInfo`). */
  serverInfo?: Record<string, unknown>;
  /** Cache hints for list and read results; default `DEFAULT_CACHE_HINTS`. */
  cache?: CacheHints;
  /** Every version the server speaks, listed in -32022 errors; default: all of this package's. */
  supported?: readonly string[];
}

/** A gate that also says which requests it guards. */
export interface StatelessGate extends MessageGate {
  /** Whether this request belongs to the stateless era (and so to this gate). */
  claims(message: JsonRpcRequest | JsonRpcNotification): boolean;
  /** Whether the response to request `id` is this gate's to encode (it let that request in). */
  answers(id: RequestId): boolean;
}

/**
 * The server's gate for stateless requests.
 * - inbound: -32022 for a version the server does not speak, -32602 for missing `_meta` fields or a
 *   malformed request, -32601 for a method 2026-07-28 lacks (`initialize`, `ping`, ...);
 * - outbound: only the revision's server notifications, valid for its schema; never a request
 *   (`SdkError("METHOD_NOT_SUPPORTED")`: what a server needs travels in an `InputRequiredResult`);
 * - encode: results get `resultType`, `serverInfo` and cache hints.
 */
export function createStatelessGate(options: StatelessGateOptions = {}): StatelessGate {
  const answering = new Map<RequestId, string>();
  const encoding = { serverInfo: options.serverInfo, ...(options.cache ? { cache: options.cache } : {}) };

  return {
    acceptsBatch: false,

    claims: (message) => isRequest(message) && isStatelessRequest(message.method, message.params),

    answers: (id) => answering.has(id),

    checkInbound(message) {
      if (!isRequest(message)) {
        const revision = STATELESS_REVISIONS["2026-07-28"];
        if (!revision.hasNotification(message.method, "client")) return undefined;
        return revision.validateInbound(message, { role: "server" });
      }
      let version: keyof typeof STATELESS_REVISIONS;
      try {
        version = readRequestMeta(message.params, options.supported).protocolVersion;
      } catch (error) {
        if (error instanceof ProtocolError) return error;
        throw error;
      }
      const refusal = STATELESS_REVISIONS[version].validateInbound(message, { role: "server" });
      if (refusal) return refusal;
      answering.set(message.id, message.method);
      return undefined;
    },

    checkOutbound(message) {
      const revision = STATELESS_REVISIONS["2026-07-28"];
      if (isRequest(message) || !revision.hasNotification(message.method, "server")) {
        return new SdkError(
          "METHOD_NOT_SUPPORTED",
          `${message.method} is not a server ${isRequest(message) ? "request" : "notification"} in protocol revision ${revision.version}`,
        );
      }
      const invalid = revision.validateOutbound(message, { role: "server" });
      if (invalid) return new SdkError("INVALID_ARGUMENT", invalid.message, { cause: invalid });
      return undefined;
    },

    encode<M extends JsonRpcMessage>(message: M): M {
      if (!isResponse(message) || message.id === null) return message;
      const method = answering.get(message.id);
      answering.delete(message.id);
      if (method === undefined) return message;
      if (isErrorResponse(message)) {
        // A missing resource is -32602 in this revision (it was -32002).
        if (message.error.code !== ErrorCode.ResourceNotFound) return message;
        return { ...message, error: { ...message.error, code: StatelessErrorCode.ResourceNotFound } };
      }
      return { ...message, result: encodeResult(method, message.result, encoding) };
    },
  };
}

/**
 * The gate a server connection starts with: stateless requests go to `stateless`, everything else
 * (`initialize`, `ping`, requests without a version in `_meta`) to `fallback`, by default the
 * handshake gate (a presumed handshake passes the gate of its revision instead). Outbound
 * notifications follow the era the connection has been spoken in so far.
 * @internal
 */
export function createEntryGate(
  stateless: StatelessGate = createStatelessGate(),
  fallback: MessageGate = createHandshakeGate("server"),
): MessageGate {
  let spokenStateless = false;
  return {
    acceptsBatch: fallback.acceptsBatch,
    checkInbound(message) {
      if (stateless.claims(message)) {
        spokenStateless = true;
        return stateless.checkInbound(message);
      }
      if (isRequest(message) || !spokenStateless) return fallback.checkInbound(message);
      return stateless.checkInbound(message);
    },
    checkOutbound(message) {
      return (spokenStateless ? stateless : fallback).checkOutbound(message);
    },
    encode<M extends JsonRpcMessage>(message: M): M {
      // A response goes back through the gate that let its request in.
      if (isResponse(message) && message.id !== null && stateless.answers(message.id)) return stateless.encode(message);
      return (spokenStateless && !isResponse(message) ? stateless : fallback).encode(message);
    },
  };
}
