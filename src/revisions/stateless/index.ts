/**
 * The stateless era: protocol revision 2026-07-28 (no `initialize`; every request carries its
 * version and the client's capabilities in `_meta`; multi round-trip requests instead of
 * server-initiated ones). Exports:
 * - `META`, `RESULT_COMPLETE`, `RESULT_INPUT_REQUIRED`, `StatelessErrorCode`: the `_meta` keys,
 *   `resultType` values and error codes (-32020, -32021, -32022; -32602 for a missing resource);
 * - `InputRequest`, `InputRequests`, `InputResponses`, `InputRequiredResult`, `RequestMeta`,
 *   `isInputRequired`, `INPUT_REQUEST_METHODS`, `MRTR_METHODS`: the multi round-trip shapes;
 * - `STATELESS_METHODS`, `INPUT_REQUESTS`, `CACHEABLE_METHODS`: the method table;
 * - `StatelessRevision`, `STATELESS_REVISIONS`: the revision object (schema checks both ways);
 *   `requestInteractionWire`: how a request's client is handed off to a page;
 * - `isStatelessRequest`, `isStatelessVersion`, `requestedVersion`, `readRequestMeta`: reading a
 *   request's era and `_meta`;
 * - `checkInputResponse`: checks the answers to input requests;
 * - `encodeResult`, `CacheHints`, `DEFAULT_CACHE_HINTS`: what results carry on the wire;
 * - `createStatelessGate`, `createEntryGate`: the server's gates (one connection, both eras);
 * - `signRequestState`, `openRequestState`: the server's signed, expiring `requestState`.
 */
export { type CacheHints, type CacheScope, DEFAULT_CACHE_HINTS, encodeResult, type ResultEncoding } from "./encode.js";
export { createEntryGate, createStatelessGate, type StatelessGate, type StatelessGateOptions } from "./gate.js";
export { checkInputResponse } from "./input.js";
export { isStatelessRequest, isStatelessVersion, readRequestMeta, requestedVersion } from "./meta.js";
export { CACHEABLE_METHODS, INPUT_REQUESTS, STATELESS_METHODS } from "./methods.js";
export {
  openRequestState,
  type RequestStateAnswer,
  type RequestStateAsk,
  type RequestStateKeys,
  type RequestStatePayload,
  requestDigest,
  type StateUser,
  signRequestState,
} from "./request-state.js";
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
