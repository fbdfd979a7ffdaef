/**
 * Shapes the client API speaks in: the neutral model (the newest stateful revision's shapes,
 * whatever revision is on the wire) plus what only a client needs, the handlers of
 * server-to-client requests.
 */
import type { RequestId } from "../jsonrpc/messages.js";
import type { RequestOptions } from "../jsonrpc/session.js";
import type {
  CreateMessageParams,
  CreateMessageResult,
  ElicitFormParams,
  ElicitResult,
  ElicitUrlParams,
  Implementation,
  ListRootsResult,
  UaInteraction,
} from "../revisions/index.js";

export type {
  CallToolParams,
  CallToolResult,
  ClientCapabilities,
  CompleteParams,
  CompleteResult,
  ContentBlock,
  CreateMessageParams,
  CreateMessageResult,
  ElicitationMode,
  ElicitResult,
  EmptyResult,
  GetPromptParams,
  GetPromptResult,
  Implementation,
  InitializeResult,
  ListPromptsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ListRootsResult,
  ListToolsResult,
  LoggingLevel,
  LoggingMessageParams,
  PaginatedParams,
  Prompt,
  ReadResourceParams,
  ReadResourceResult,
  Resource,
  ResourceContents,
  ResourceTemplate,
  Root,
  ServerCapabilities,
  SetLevelParams,
  SubscribeParams,
  Tool,
} from "../revisions/index.js";

/** Params of requests that carry nothing but `_meta` (`ping`). */
export interface RequestParams {
  _meta?: Record<string, unknown>;
}

/**
 * Per-request options: `signal` (abort sends `notifications/cancelled`), `timeoutMs` (ms,
 * `Infinity` to wait forever), `onprogress`, `resetTimeoutOnProgress`, `maxTotalTimeoutMs` (ms).
 */
export type CallOptions = Omit<RequestOptions, "relatedRequestId">;

/** What a handler of a server-to-client request is told besides the params. */
export interface ServerRequestContext {
  /** The JSON-RPC id of the server's request. */
  readonly requestId: RequestId;
  /** Aborted when the server cancels the request or the connection closes. */
  readonly signal: AbortSignal;
  /** The requesting server, as it introduced itself; show it to the user (spec: client/elicitation § Security). */
  readonly serverInfo: Implementation;
  /**
   * Set when the request came inside an `InputRequiredResult` (multi round-trip requests): the
   * server's key for it, the round (1 for the first), and `waiting` when the same URL-mode
   * elicitation was already accepted earlier in this call, so the user is not asked again and
   * the handler only paces the retry (waits for the user's "done" or a poll interval).
   * A URL-mode request here carries a client-made `elicitationId`, stable for the call and URL.
   */
  readonly input?: { readonly key: string; readonly round: number; readonly waiting: boolean };
}

/** A form-mode `elicitation/create`. A request without `mode` (older servers) arrives here as `"form"`. */
export type FormElicitationParams = ElicitFormParams & { mode: "form" };

/**
 * A URL-mode `elicitation/create`. Never fetch or open `url` without the user's explicit
 * consent, and show the full URL first (spec 2025-11-25: client/elicitation § Safe URL Handling).
 */
export type UrlElicitationParams = ElicitUrlParams;

/** What an elicitation handler receives: form params (`mode: "form"`, also for servers that omit it) or URL params. */
export type ElicitationParams = FormElicitationParams | UrlElicitationParams;

/** The user's answer to an elicitation: `action`, and `content` for a form-mode `accept`. */
export type ElicitationResult = ElicitResult;

/**
 * Answers `elicitation/create` in the modes it was registered for. `content` is read only for a
 * form-mode `accept`; it is dropped for `decline`, `cancel` and URL mode.
 */
export type ElicitationHandler = (
  params: ElicitationParams,
  ctx: ServerRequestContext,
) => ElicitationResult | Promise<ElicitationResult>;

/**
 * A `ua` interaction of the user-interaction proposal (`interaction/create`): the page to open
 * and, when the server gave one, why. Never open `url` without the user's consent.
 */
export type { UaInteraction } from "../revisions/index.js";

/**
 * Answers the user-interaction proposal's `interaction/create` (type `ua`): `accept` once the page
 * was opened (the server gets `{}`), `decline` or `cancel` when the user said no (error -32099).
 */
export type UserInteractionHandler = (
  interaction: UaInteraction,
  ctx: ServerRequestContext,
) => "accept" | "decline" | "cancel" | Promise<"accept" | "decline" | "cancel">;

/** Answers `sampling/createMessage`; a human should be able to review the request and the answer (spec: client/sampling). */
export type SamplingHandler = (
  params: CreateMessageParams,
  ctx: ServerRequestContext,
) => CreateMessageResult | Promise<CreateMessageResult>;

/** Answers `roots/list` (spec: client/roots). */
export type RootsHandler = (ctx: ServerRequestContext) => ListRootsResult | Promise<ListRootsResult>;
