/**
 * The stateless era: protocol revision 2026-07-28 (no `initialize`; every request carries its
 * version and the client's capabilities in `_meta`; multi round-trip requests instead of
 * server-initiated ones).
 */
export { type CacheHints, type CacheScope, DEFAULT_CACHE_HINTS, encodeResult, type ResultEncoding } from "./encode.js";
export { createEntryGate, createStatelessGate, type StatelessGate, type StatelessGateOptions } from "./gate.js";
export { checkInputResponse } from "./input.js";
export { isStatelessRequest, isStatelessVersion, readRequestMeta, requestedVersion } from "./meta.js";
export { CACHEABLE_METHODS, INPUT_REQUESTS, STATELESS_METHODS } from "./methods.js";
export {
  openRequestState,
  questionDigest,
  type RequestStateAnswer,
  type RequestStateAsk,
  type RequestStatePayload,
  requestDigest,
  type StateUser,
  sealRequestState,
  swappedQuestion,
} from "./request-state.js";
export {
  checkRequestStateKeys,
  derivedKeyId,
  type RequestStateKey,
  type RequestStateKeys,
} from "./request-state-keys.js";
export { requestInteractionWire, STATELESS_REVISIONS, StatelessRevision } from "./revision.js";
export {
  INPUT_REQUEST_METHODS,
  type InputRequest,
  type InputRequestMethod,
  type InputRequests,
  type InputRequiredResult,
  type InputResponses,
  isInputRequired,
  META,
  MRTR_METHODS,
  RESULT_COMPLETE,
  RESULT_INPUT_REQUIRED,
  type RequestMeta,
  type ResultType,
  StatelessErrorCode,
} from "./wire.js";
