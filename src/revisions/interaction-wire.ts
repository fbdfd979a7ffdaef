/**
 * The wire forms of an out-of-band user interaction (a hand-off), behind one neutral interface:
 * server code asks the negotiated revision for the form its client understands and uses it without
 * knowing which it is.
 *
 * - `url-elicitation` (2025-11-25, client declared `elicitation.url`): `elicitation/create` in URL
 *   mode, error -32042, completion by `notifications/elicitation/complete` (spec 2025-11-25:
 *   client/elicitation § URL Mode Elicitation Requests);
 * - `user-interaction` (the proposal, client declared `userInteraction.types` with `ua`):
 *   `interaction/create`, error -32003, completion by progress on `interaction/track`;
 * - `inbox`: the client is not asked; the server keeps the interaction for its user, and the
 *   tool's error names the server's fixed inbox page, where the signed-in user finds it (the
 *   server's opt-in last rung, for a client that declared neither of the above);
 * - `none`: the client cannot be asked to open a page at all.
 * URL elicitation wins when a client declared both, unless the server prefers the other.
 */
import { ProtocolError, SdkError, UrlElicitationRequiredError } from "../jsonrpc/errors.js";
import { clientElicitationModes } from "./capabilities.js";
import {
  declaredInteractionTypes,
  INTERACTION_CREATE,
  INTERACTION_DECLINED_CODE,
  INTERACTION_REQUIRED_CODE,
  INTERACTION_REQUIRED_MESSAGE,
  INTERACTION_TRACK,
} from "./extensions/user-interaction.js";
import type { ElicitationMode } from "./model.js";

export type InteractionForm = "url-elicitation" | "user-interaction" | "inbox" | "none";

/** The user's answer to being asked to open the page. */
export type InteractionAction = "accept" | "decline" | "cancel";

/** What the wire carries of an interaction. */
export interface WireInteraction {
  id: string;
  url: string;
  /** Plain text without a URL. */
  message: string;
}

/** A request or notification to send: its method and params. */
export interface WireMessage {
  method: string;
  params: Record<string, unknown>;
}

/** How one client is asked to open a page, and told that the interaction completed. */
export interface InteractionWire {
  readonly form: InteractionForm;
  /** The server request that asks the client to open the page; `undefined` for `none`. */
  request(interaction: WireInteraction): WireMessage | undefined;
  /** The user's answer in the client's result. @throws SdkError "INVALID_RESULT" for a malformed answer. */
  answer(result: Record<string, unknown>): InteractionAction;
  /** The user's answer carried by an error the client answered with (-32099 in the proposal), else `undefined`. */
  answerFromError(error: unknown): InteractionAction | undefined;
  /** The JSON-RPC error saying a request needs the interaction first (-32042, -32003); `undefined` for `none`. */
  requiredError(interaction: WireInteraction): ProtocolError | undefined;
  /**
   * The notification that tells the client the interaction completed, sent to the session that
   * owns it; `undefined` where completion travels otherwise (progress on a track request) or not at all.
   */
  completionNotice(id: string): WireMessage | undefined;
}

/** Where a tracked interaction stands: a status of the neutral model. */
export type TrackedStatus = "pending" | "accepted" | "declined" | "cancelled" | "completed" | "expired";

/** The proposal's `interaction/track`: the client follows an interaction through progress notifications. */
export interface InteractionTracking {
  /** The request method to handle. */
  readonly method: string;
  /** The interaction id a track request names, or `undefined` when it names none. */
  trackedId(params: Record<string, unknown>): string | undefined;
  /** The progress to report for a status; `progress === total` exactly when completed. */
  progress(status: TrackedStatus): { progress: number; total: number; message: string };
}

const URL_ELICITATION: InteractionWire = {
  form: "url-elicitation",
  request: ({ id, url, message }) => ({
    method: "elicitation/create",
    params: { mode: "url", elicitationId: id, url, message },
  }),
  answer(result) {
    const action = result.action;
    if (action === "accept" || action === "decline" || action === "cancel") return action;
    throw new SdkError(
      "INVALID_RESULT",
      `The client answered elicitation/create with action ${JSON.stringify(action)}`,
    );
  },
  answerFromError: () => undefined,
  requiredError: ({ id, url, message }) =>
    new UrlElicitationRequiredError([{ mode: "url", elicitationId: id, url, message }]),
  completionNotice: (id) => ({ method: "notifications/elicitation/complete", params: { elicitationId: id } }),
};

const USER_INTERACTION: InteractionWire = {
  form: "user-interaction",
  request: ({ id, url, message }) => ({
    method: INTERACTION_CREATE,
    params: { id, type: "ua", interaction: { url, message: { type: "text", text: message } } },
  }),
  // The proposal's only successful answer is the empty result: the client opened the page.
  answer: () => "accept",
  answerFromError: (error) =>
    error instanceof ProtocolError && error.code === INTERACTION_DECLINED_CODE ? "decline" : undefined,
  requiredError: ({ id, url, message }) =>
    new ProtocolError(INTERACTION_REQUIRED_CODE, INTERACTION_REQUIRED_MESSAGE, {
      id,
      type: "ua",
      url,
      message: { type: "text", text: message },
    }),
  completionNotice: () => undefined,
};

const NONE: InteractionWire = {
  form: "none",
  request: () => undefined,
  answer() {
    throw new SdkError("INVALID_RESULT", "This client cannot be asked to open a page");
  },
  answerFromError: () => undefined,
  requiredError: () => undefined,
  completionNotice: () => undefined,
};

/**
 * The inbox rung: nothing is sent to the client, in any revision. The request is answered with the
 * server's text naming its inbox page (built by the server, which knows the page).
 */
export const INBOX_WIRE: InteractionWire = {
  form: "inbox",
  request: () => undefined,
  answer() {
    throw new SdkError("INVALID_RESULT", "A client handed off through the inbox is never asked to open a page");
  },
  answerFromError: () => undefined,
  requiredError: () => undefined,
  completionNotice: () => undefined,
};

const TRACK_MESSAGES: Readonly<Record<TrackedStatus, string>> = {
  pending: "Waiting for the user to open the page.",
  accepted: "The user opened the page.",
  completed: "Completed.",
  declined: "The user declined.",
  cancelled: "The interaction was cancelled.",
  expired: "The interaction expired before it was completed.",
};

const TRACKING: InteractionTracking = {
  method: INTERACTION_TRACK,
  trackedId: (params) => (typeof params.id === "string" ? params.id : undefined),
  progress(status) {
    const progress = status === "completed" ? 2 : status === "accepted" ? 1 : 0;
    return { progress, total: 2, message: TRACK_MESSAGES[status] };
  },
};

/**
 * The wire form for a client, given the elicitation modes the revision defines: the first of
 * URL elicitation and user interaction the client declared, or `prefer` first when the client
 * declared it too; `none` when it declared neither.
 */
export function interactionWireFor(
  revisionModes: readonly ElicitationMode[],
  clientCapabilities: unknown,
  prefer?: InteractionForm,
): InteractionWire {
  const caps = clientCapabilities as Record<string, unknown> | undefined;
  const url = revisionModes.includes("url") && clientElicitationModes(caps).includes("url");
  const ua = declaredInteractionTypes(caps).includes("ua");
  if (prefer === "user-interaction" && ua) return USER_INTERACTION;
  if (url) return URL_ELICITATION;
  if (ua) return USER_INTERACTION;
  return NONE;
}

/** `interaction/track` for a client that declared the user-interaction extension, else `undefined`. */
export function interactionTrackingFor(clientCapabilities: unknown): InteractionTracking | undefined {
  return declaredInteractionTypes(clientCapabilities).length > 0 ? TRACKING : undefined;
}
