/**
 * What a client needs to speak the stateless era (spec 2026-07-28: basic/versioning § Backward
 * Compatibility, server/discover, basic/patterns/mrtr): the `server/discover` probe and how to
 * read its outcome, the per-request `_meta`, the gate, and the multi round-trip shapes.
 */
import { ErrorCode, ProtocolError, SdkError } from "../../jsonrpc/errors.js";
import type { MessageGate } from "../../jsonrpc/gate.js";
import type { JsonRpcNotification, JsonRpcRequest } from "../../jsonrpc/messages.js";
import { isSupportedVersion } from "../negotiate.js";
import { STATELESS_VERSIONS, type StatelessVersion } from "../versions.js";
import { STATELESS_METHODS } from "./methods.js";
import {
  type InputRequests,
  isInputRequired,
  META,
  MRTR_METHODS,
  type RequestMeta,
  StatelessErrorCode,
} from "./wire.js";

/** The stateless revision a client asks for first. */
export const LATEST_STATELESS_VERSION: StatelessVersion = STATELESS_VERSIONS[0];

/** Which era a version string belongs to: `stateless`, `stateful`, or `undefined` when unknown. */
export function eraOfVersion(version: unknown): "stateless" | "stateful" | undefined {
  if (typeof version !== "string") return undefined;
  if ((STATELESS_VERSIONS as readonly string[]).includes(version)) return "stateless";
  return isSupportedVersion(version) ? "stateful" : undefined;
}

/** `params._meta` of a stateless request: the version, the capabilities, the client, the log level. */
export function statelessMeta(meta: RequestMeta): Record<string, unknown> {
  const out: Record<string, unknown> = {
    [META.protocolVersion]: meta.protocolVersion,
    [META.clientCapabilities]: meta.clientCapabilities,
  };
  if (meta.clientInfo !== undefined) out[META.clientInfo] = meta.clientInfo;
  if (meta.logLevel !== undefined) out[META.logLevel] = meta.logLevel;
  return out;
}

/** `params` with the stateless `_meta` merged in; the caller's own `_meta` keys are kept. */
export function withStatelessMeta(
  params: Record<string, unknown> | undefined,
  meta: RequestMeta,
): Record<string, unknown> {
  const own = params?._meta as Record<string, unknown> | undefined;
  return { ...params, _meta: { ...own, ...statelessMeta(meta) } };
}

/** What a `DiscoverResult` says about the server, read leniently. */
export interface Discovered {
  supportedVersions: string[];
  capabilities: Record<string, unknown>;
  serverInfo: { name: string; version: string; [key: string]: unknown } | undefined;
  instructions: string | undefined;
}

/**
 * Reads a `server/discover` result.
 * @throws SdkError "INVALID_RESULT" when `supportedVersions` or `capabilities` is missing.
 */
export function readDiscoverResult(result: Record<string, unknown>): Discovered {
  const versions = result.supportedVersions;
  const capabilities = result.capabilities;
  if (!Array.isArray(versions) || typeof capabilities !== "object" || capabilities === null) {
    throw new SdkError("INVALID_RESULT", "server/discover answered without supportedVersions or capabilities", {
      cause: result,
    });
  }
  const meta = result._meta as Record<string, unknown> | undefined;
  // Some servers put serverInfo beside the capabilities rather than in _meta.
  const info = (meta?.[META.serverInfo] ?? result.serverInfo) as Discovered["serverInfo"];
  return {
    supportedVersions: versions.filter((v): v is string => typeof v === "string"),
    capabilities: capabilities as Record<string, unknown>,
    serverInfo: typeof info === "object" && info !== null ? info : undefined,
    instructions: typeof result.instructions === "string" ? result.instructions : undefined,
  };
}

/** The newest stateless version this package speaks that `supported` lists, or `undefined`. */
export function pickStatelessVersion(supported: readonly unknown[]): StatelessVersion | undefined {
  return STATELESS_VERSIONS.find((version) => supported.includes(version));
}

/**
 * How a failed probe is read (spec: basic/transports/stdio § Backward Compatibility): a
 * recognised modern error (-32022 with `data.supported`) means a modern server that wants another
 * version; anything else (-32601, -32602, an HTTP 400/404, a timeout) means a legacy server.
 */
export function probeFailure(error: unknown): { era: "legacy" } | { era: "modern"; supported: string[] } {
  if (error instanceof ProtocolError && error.code === StatelessErrorCode.UnsupportedProtocolVersion) {
    const supported = (error.data as { supported?: unknown } | undefined)?.supported;
    if (Array.isArray(supported)) {
      return { era: "modern", supported: supported.filter((v): v is string => typeof v === "string") };
    }
  }
  return { era: "legacy" };
}

/** `"input_required"` or `"complete"`; a result without `resultType` counts as complete (spec: changelog). */
export function resultTypeOf(result: Record<string, unknown>): "complete" | "input_required" | "other" {
  if (isInputRequired(result)) return "input_required";
  const type = result.resultType;
  return type === undefined || type === "complete" ? "complete" : "other";
}

/** The requests and state of an `InputRequiredResult`; `requestState` exactly as received. */
export function readInputRequired(result: Record<string, unknown>): {
  inputRequests: InputRequests;
  requestState: string | undefined;
} {
  const requests = result.inputRequests;
  const state = result.requestState;
  if ((requests !== undefined && (typeof requests !== "object" || requests === null)) || !isStateOk(state)) {
    throw new SdkError("INVALID_RESULT", "the InputRequiredResult is malformed", { cause: result });
  }
  if (requests === undefined && state === undefined) {
    throw new SdkError("INVALID_RESULT", "the InputRequiredResult carries neither inputRequests nor requestState", {
      cause: result,
    });
  }
  return { inputRequests: (requests ?? {}) as InputRequests, requestState: state };
}

function isStateOk(state: unknown): state is string | undefined {
  return state === undefined || typeof state === "string";
}

/**
 * The params of a retry: the original params, this round's `inputResponses`, and `requestState`
 * only when the server sent one (spec: basic/patterns/mrtr § Client Requirements).
 */
export function retryParams(
  original: Record<string, unknown> | undefined,
  inputResponses: Record<string, unknown>,
  requestState: string | undefined,
): Record<string, unknown> {
  const { inputResponses: _responses, requestState: _state, ...rest } = original ?? {};
  const params: Record<string, unknown> = { ...rest, inputResponses };
  if (requestState !== undefined) params.requestState = requestState;
  return params;
}

/** The result without `resultType`, which the neutral model does not carry. */
export function completeResult(result: Record<string, unknown>): Record<string, unknown> {
  const { resultType: _type, ...rest } = result;
  return rest;
}

/**
 * The client's gate in the stateless era: only the revision's client requests leave (`ping`,
 * `initialize`, `logging/setLevel`, `resources/subscribe` are refused locally, nothing is sent);
 * a server request is answered -32601, since servers send none in this era.
 */
export function createStatelessClientGate(): MessageGate {
  return {
    acceptsBatch: false,
    checkInbound(message: JsonRpcRequest | JsonRpcNotification) {
      if ("id" in message) {
        return new ProtocolError(ErrorCode.MethodNotFound, `Method not found: ${message.method}`);
      }
      return undefined;
    },
    checkOutbound(message: JsonRpcRequest | JsonRpcNotification) {
      const known =
        "id" in message
          ? STATELESS_METHODS.clientRequests.has(message.method)
          : STATELESS_METHODS.clientNotifications.has(message.method);
      if (known) return undefined;
      return new SdkError("METHOD_NOT_SUPPORTED", `${message.method} does not exist in the stateless protocol era`);
    },
    encode: (message) => message,
  };
}

/** Whether a server may answer `method` with an `InputRequiredResult` (`tools/call`, `prompts/get`, `resources/read`). */
export function acceptsInputRequired(method: string): boolean {
  return MRTR_METHODS.has(method);
}
