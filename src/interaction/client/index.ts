/**
 * The client side of hand-offs: `HandoffClient` around an `McpClient`, the `UrlInteraction` every
 * hand-off reaches the user as, the default terminal consent policy, and the source interface for
 * further wire forms.
 */
export {
  type InspectUrlOptions,
  inspectUrl,
  LONG_URL_LENGTH,
  type UrlInteractionInfo,
  type UrlRefusal,
  type UrlWarning,
  type UrlWarningCode,
} from "../url-safety.js";
export { type ConsentPolicyOptions, createConsentPolicy } from "./consent-policy.js";
export {
  DEFAULT_COLUMNS,
  highlightUrl,
  MAX_MESSAGE_ROWS,
  type RenderOptions,
  renderInteraction,
  renderRefusal,
} from "./consent-text.js";
export { UrlElicitationSource } from "./elicitation-source.js";
export { HandoffError, type HandoffFailure } from "./errors.js";
export {
  DEFAULT_HANDOFF_TIMEOUT_MS,
  DEFAULT_MAX_ROUNDS,
  type HandoffCallOptions,
  HandoffClient,
  type HandoffClientOptions,
} from "./handoff-client.js";
export type {
  HandoffKind,
  HandoffServer,
  InteractionAnswer,
  InteractionContext,
  InteractionHandler,
  ReceivedHandoff,
  RefusedHandoff,
  UrlInteraction,
} from "./interaction.js";
export { toUrlInteraction } from "./interaction.js";
export { DEFAULT_POLL_INTERVAL_MS, type PacerClock, RoundPacer } from "./round-pacer.js";
export type { HandoffHost, HandoffSource } from "./sources.js";
export { UserInteractionSource } from "./user-interaction-source.js";
