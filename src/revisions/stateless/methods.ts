/**
 * The method table of 2026-07-28, written out from the official schema's `ClientRequest`,
 * `ClientNotification` and `ServerNotification` unions. No `initialize`, `ping`,
 * `logging/setLevel` or `resources/subscribe`; `server/discover` and `subscriptions/listen`
 * instead. A server sends no requests: what it needs from the client travels in an
 * `InputRequiredResult` (`INPUT_REQUESTS`).
 */
import {
  type MethodTable,
  type NotificationRow,
  notificationMap,
  type RequestRow,
  type RequestSpec,
  requestMap,
} from "../method-table.js";

const CLIENT_REQUESTS: readonly RequestRow[] = [
  ["server/discover", "DiscoverRequest", "DiscoverResult"],
  ["resources/list", "ListResourcesRequest", "ListResourcesResult"],
  ["resources/templates/list", "ListResourceTemplatesRequest", "ListResourceTemplatesResult"],
  ["resources/read", "ReadResourceRequest", "ReadResourceResult"],
  ["subscriptions/listen", "SubscriptionsListenRequest", "SubscriptionsListenResult"],
  ["prompts/list", "ListPromptsRequest", "ListPromptsResult"],
  ["prompts/get", "GetPromptRequest", "GetPromptResult"],
  ["tools/list", "ListToolsRequest", "ListToolsResult"],
  ["tools/call", "CallToolRequest", "CallToolResult"],
  ["completion/complete", "CompleteRequest", "CompleteResult"],
];

const SERVER_NOTIFICATIONS: readonly NotificationRow[] = [
  ["notifications/cancelled", "CancelledNotification"],
  ["notifications/progress", "ProgressNotification"],
  ["notifications/resources/list_changed", "ResourceListChangedNotification"],
  ["notifications/subscriptions/acknowledged", "SubscriptionsAcknowledgedNotification"],
  ["notifications/resources/updated", "ResourceUpdatedNotification"],
  ["notifications/prompts/list_changed", "PromptListChangedNotification"],
  ["notifications/tools/list_changed", "ToolListChangedNotification"],
  ["notifications/message", "LoggingMessageNotification"],
];

export const STATELESS_METHODS: MethodTable = {
  clientRequests: requestMap(CLIENT_REQUESTS),
  serverRequests: new Map(),
  clientNotifications: notificationMap([["notifications/cancelled", "CancelledNotification"]]),
  serverNotifications: notificationMap(SERVER_NOTIFICATIONS),
};

/** Requests a server may place in `inputRequests`, with their request and result definitions. */
export const INPUT_REQUESTS: ReadonlyMap<string, RequestSpec> = requestMap([
  ["elicitation/create", "ElicitRequest", "ElicitResult"],
  ["sampling/createMessage", "CreateMessageRequest", "CreateMessageResult"],
  ["roots/list", "ListRootsRequest", "ListRootsResult"],
]);

/**
 * Results that carry the cache hints `ttlMs` and `cacheScope` (`CacheableResult`; spec 2026-07-28:
 * server/utilities/caching § Cacheable Results, where they are a MUST).
 */
export const CACHEABLE_METHODS: ReadonlySet<string> = new Set([
  "server/discover",
  "tools/list",
  "prompts/list",
  "resources/list",
  "resources/templates/list",
  "resources/read",
]);
