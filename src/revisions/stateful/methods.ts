/**
 * Method tables of the stateful revisions, written out from each official schema's `ClientRequest`,
 * `ServerRequest`, `ClientNotification` and `ServerNotification` unions. test/revisions/methods.test.ts
 * reads the schemas and fails if a table and its schema disagree.
 */
import {
  type MethodTable,
  type NotificationRow,
  notificationMap,
  type RequestRow,
  requestMap,
} from "../method-table.js";
import type { StatefulVersion } from "../versions.js";

const CLIENT_REQUESTS_2024: readonly RequestRow[] = [
  ["initialize", "InitializeRequest", "InitializeResult"],
  ["ping", "PingRequest", "EmptyResult"],
  ["resources/list", "ListResourcesRequest", "ListResourcesResult"],
  ["resources/templates/list", "ListResourceTemplatesRequest", "ListResourceTemplatesResult"],
  ["resources/read", "ReadResourceRequest", "ReadResourceResult"],
  ["resources/subscribe", "SubscribeRequest", "EmptyResult"],
  ["resources/unsubscribe", "UnsubscribeRequest", "EmptyResult"],
  ["prompts/list", "ListPromptsRequest", "ListPromptsResult"],
  ["prompts/get", "GetPromptRequest", "GetPromptResult"],
  ["tools/list", "ListToolsRequest", "ListToolsResult"],
  ["tools/call", "CallToolRequest", "CallToolResult"],
  ["logging/setLevel", "SetLevelRequest", "EmptyResult"],
  ["completion/complete", "CompleteRequest", "CompleteResult"],
];

const SERVER_REQUESTS_2024: readonly RequestRow[] = [
  ["ping", "PingRequest", "EmptyResult"],
  ["sampling/createMessage", "CreateMessageRequest", "CreateMessageResult"],
  ["roots/list", "ListRootsRequest", "ListRootsResult"],
];

const CLIENT_NOTIFICATIONS_2024: readonly NotificationRow[] = [
  ["notifications/cancelled", "CancelledNotification"],
  ["notifications/initialized", "InitializedNotification"],
  ["notifications/progress", "ProgressNotification"],
  ["notifications/roots/list_changed", "RootsListChangedNotification"],
];

const SERVER_NOTIFICATIONS_2024: readonly NotificationRow[] = [
  ["notifications/cancelled", "CancelledNotification"],
  ["notifications/progress", "ProgressNotification"],
  ["notifications/resources/list_changed", "ResourceListChangedNotification"],
  ["notifications/resources/updated", "ResourceUpdatedNotification"],
  ["notifications/prompts/list_changed", "PromptListChangedNotification"],
  ["notifications/tools/list_changed", "ToolListChangedNotification"],
  ["notifications/message", "LoggingMessageNotification"],
];

/** 2025-11-25 adds tasks: either side may poll, fetch or cancel the other's task-augmented requests. */
const TASK_REQUESTS: readonly RequestRow[] = [
  ["tasks/get", "GetTaskRequest", "GetTaskResult"],
  ["tasks/result", "GetTaskPayloadRequest", "GetTaskPayloadResult"],
  ["tasks/cancel", "CancelTaskRequest", "CancelTaskResult"],
  ["tasks/list", "ListTasksRequest", "ListTasksResult"],
];

const TABLE_2024: MethodTable = {
  clientRequests: requestMap(CLIENT_REQUESTS_2024),
  serverRequests: requestMap(SERVER_REQUESTS_2024),
  clientNotifications: notificationMap(CLIENT_NOTIFICATIONS_2024),
  serverNotifications: notificationMap(SERVER_NOTIFICATIONS_2024),
};

const TABLE_2025_06: MethodTable = {
  ...TABLE_2024,
  serverRequests: requestMap([...SERVER_REQUESTS_2024, ["elicitation/create", "ElicitRequest", "ElicitResult"]]),
};

/** Requests that may carry `params.task` in 2025-11-25 and then answer with a `CreateTaskResult`. */
function withTasks(rows: readonly RequestRow[], augmentable: readonly string[]): RequestRow[] {
  return rows.map(([method, request, result]) =>
    augmentable.includes(method) ? [method, request, result, "CreateTaskResult"] : [method, request, result],
  );
}

const TABLE_2025_11: MethodTable = {
  clientRequests: requestMap([...withTasks(CLIENT_REQUESTS_2024, ["tools/call"]), ...TASK_REQUESTS]),
  serverRequests: requestMap([
    ...withTasks(
      [...SERVER_REQUESTS_2024, ["elicitation/create", "ElicitRequest", "ElicitResult"]],
      ["sampling/createMessage", "elicitation/create"],
    ),
    ...TASK_REQUESTS,
  ]),
  clientNotifications: notificationMap([
    ...CLIENT_NOTIFICATIONS_2024,
    ["notifications/tasks/status", "TaskStatusNotification"],
  ]),
  serverNotifications: notificationMap([
    ...SERVER_NOTIFICATIONS_2024,
    ["notifications/tasks/status", "TaskStatusNotification"],
    ["notifications/elicitation/complete", "ElicitationCompleteNotification"],
  ]),
};

export const STATEFUL_METHODS: Readonly<Record<StatefulVersion, MethodTable>> = {
  "2024-11-05": TABLE_2024,
  "2025-03-26": TABLE_2024,
  "2025-06-18": TABLE_2025_06,
  "2025-11-25": TABLE_2025_11,
};
