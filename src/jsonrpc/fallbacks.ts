/** The delegate of a `JsonRpcSession` that `setFallbackRequestHandler` and `setFallbackNotificationHandler` fill in. */
import type {
  FallbackNotificationHandler,
  InboundRequest,
  Params,
  RequestHandler,
  Result,
  SessionDelegate,
} from "./session-types.js";
import type { MessageExtra } from "./transport.js";

/** One handler for the requests, one for the notifications, each for the methods its `accepts` says yes to. */
export class Fallbacks implements SessionDelegate<unknown> {
  requests: { accepts(method: string): boolean; handler: RequestHandler } | undefined;
  notifications: { accepts(method: string): boolean; handler: FallbackNotificationHandler } | undefined;

  acceptsRequest(_owner: unknown, method: string): boolean {
    return this.requests?.accepts(method) === true;
  }

  serveRequest(_owner: unknown, params: Params, request: InboundRequest): Result | Promise<Result> {
    return (this.requests as NonNullable<Fallbacks["requests"]>).handler(params, request);
  }

  acceptsNotification(_owner: unknown, method: string): boolean {
    return this.notifications?.accepts(method) === true;
  }

  serveNotification(_owner: unknown, method: string, params: Params, extra: MessageExtra | undefined) {
    return this.notifications?.handler(method, params, extra);
  }
}
