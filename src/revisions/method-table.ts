/**
 * The shape of a revision's method table: which requests and notifications each side may send, and
 * which schema definitions describe them. A method missing from the table does not exist in that
 * revision (inbound: -32601 Method not found).
 */

/** A request method: the definition of the whole request message and of its result. */
export interface RequestSpec {
  readonly method: string;
  /** Schema definition of the request message, e.g. `CallToolRequest`. */
  readonly request: string;
  /** Schema definition of the result, e.g. `CallToolResult` (`EmptyResult` for acknowledgements). */
  readonly result: string;
  /** Schema definition of the result when the request carries `params.task` (task-augmented). */
  readonly taskResult?: string;
}

/** A notification method and the definition of its message. */
export interface NotificationSpec {
  readonly method: string;
  /** Schema definition of the notification message, e.g. `ProgressNotification`. */
  readonly notification: string;
}

/** Methods by sender: `clientRequests` are the requests a client sends and a server handles. */
export interface MethodTable {
  /** Requests a client sends (a server answers them), by method. */
  readonly clientRequests: ReadonlyMap<string, RequestSpec>;
  /** Requests a server sends (a client answers them), by method. */
  readonly serverRequests: ReadonlyMap<string, RequestSpec>;
  /** Notifications a client sends, by method. */
  readonly clientNotifications: ReadonlyMap<string, NotificationSpec>;
  /** Notifications a server sends, by method. */
  readonly serverNotifications: ReadonlyMap<string, NotificationSpec>;
}

/** `[method, request definition, result definition, task result definition?]` */
export type RequestRow = readonly [string, string, string, string?];
/** `[method, notification definition]` */
export type NotificationRow = readonly [string, string];

export function requestMap(rows: readonly RequestRow[]): ReadonlyMap<string, RequestSpec> {
  return new Map(
    rows.map(([method, request, result, taskResult]) => [
      method,
      taskResult === undefined ? { method, request, result } : { method, request, result, taskResult },
    ]),
  );
}

export function notificationMap(rows: readonly NotificationRow[]): ReadonlyMap<string, NotificationSpec> {
  return new Map(rows.map(([method, notification]) => [method, { method, notification }]));
}
