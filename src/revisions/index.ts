/**
 * What the rest of the package uses from the revision codecs: negotiation, the `Revision` object,
 * capability checks, elicitation helpers, the wire forms of a hand-off and the neutral model.
 * Generated wire types of older revisions stay inside this folder.
 */
export { createAjv, type Dialect } from "./ajv.js";
export {
  assertClientCapability,
  assertServerCapability,
  clientElicitationModes,
  MissingClientCapabilityError,
} from "./capabilities.js";
export {
  applyDefaults,
  checkRequestedSchema,
  decodeElicitResult,
  formContainsUrl,
  messageContainsUrl,
  validateElicitContent,
} from "./elicitation.js";
export {
  declaredInteractionTypes,
  INTERACTION_DECLINED_CODE,
  INTERACTION_REQUIRED_CODE,
  interactionDeclinedError,
  isInteractionTrackComplete,
  readInteractionCreate,
  readInteractionRequired,
  type UaInteraction,
} from "./extensions/user-interaction.js";
export type {
  InteractionAction,
  InteractionForm,
  InteractionTracking,
  InteractionWire,
  TrackedStatus,
  WireInteraction,
  WireMessage,
} from "./interaction-wire.js";
export { INBOX_WIRE } from "./interaction-wire.js";
export { type JsonSchemaDraft, metaSchemaProblem } from "./json-schema-meta.js";
export type { MethodTable, NotificationSpec, RequestSpec } from "./method-table.js";
export type * from "./model.js";
export {
  acceptServerVersion,
  isSupportedVersion,
  LATEST_VERSION,
  negotiateVersion,
  revisionFor,
  SUPPORTED_VERSIONS,
} from "./negotiate.js";
export type { MessageContext, Revision, Role } from "./revision.js";
export { createGate, createHandshakeGate } from "./stateful/gate.js";
export { createPresumedGate, type PresumedHandshake, presumeHandshake, presumeSession } from "./stateful/presumed.js";
export {
  acceptsInputRequired,
  completeResult,
  createStatelessClientGate,
  type Discovered,
  eraOfVersion,
  LATEST_STATELESS_VERSION,
  pickStatelessVersion,
  probeFailure,
  readDiscoverResult,
  readInputRequired,
  resultTypeOf,
  retryParams,
  withStatelessMeta,
} from "./stateless/client-era.js";
export { type ParamHeader, paramHeadersOf, standardHeaders } from "./stateless/client-headers.js";
export * from "./stateless/index.js";
export { type SchemaValidator, validatorFor } from "./validators.js";
export type { ProtocolVersion, StatefulVersion, StatelessVersion } from "./versions.js";
export { STATEFUL_VERSIONS, STATELESS_VERSIONS } from "./versions.js";
