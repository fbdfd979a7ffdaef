/** The handlers of a `JsonRpcSession` set by name (`setRequestHandler`, `setNotificationHandler`). */
import type { NotificationHandler, RequestHandler } from "./session-types.js";

/** Both kinds in one object, each map made with its first handler: a session served through a delegate holds none. */
export interface NamedHandlers {
  requests: Map<string, RequestHandler> | undefined;
  notifications: Map<string, NotificationHandler> | undefined;
}
