/** What a `JsonRpcSession` keeps for the requests it sends, and the progress it hears of them. */
import { isRequestId, type RequestId } from "./messages.js";
import type { Pending } from "./pending.js";
import { PendingTable } from "./pending-table.js";
import type { Progress, ProgressToken } from "./progress.js";
import type { RequestTimers } from "./request-timers.js";
import type { Params } from "./session-types.js";

/** Made with a session's first request (or its id prefix): a session that never sends one holds none. */
export class OwnRequests {
  nextId = 0;
  /** Put before the number of each request id the session sends; `undefined`: plain numbers. */
  idPrefix: string | undefined;
  readonly pending = new PendingTable<Pending>();
  progressTokens: Map<ProgressToken, RequestId> | undefined;
  /** The timeout timers of its requests, reused from one request to the next. */
  timers: RequestTimers | undefined;

  /** Removes a waiting request and returns it, so that it settles at most once. */
  settle(id: RequestId): Pending | undefined {
    const pending = this.pending.take(id);
    if (pending !== undefined) pending.cleanup();
    return pending;
  }

  /**
   * A `notifications/progress` for one of these requests: to its `onprogress`, restarting its
   * timeout under `resetTimeoutOnProgress`. Progress for a token no waiting request has is dropped.
   */
  progressed(params: Params): void {
    const token = params.progressToken;
    if (!isRequestId(token) || typeof params.progress !== "number") return;
    const id = this.progressTokens?.get(token);
    const pending = id === undefined ? undefined : this.pending.get(id);
    if (!pending?.onprogress) return;
    pending.resetTimeout();
    const progress: Progress = { progress: params.progress };
    if (typeof params.total === "number") progress.total = params.total;
    if (typeof params.message === "string") progress.message = params.message;
    pending.onprogress(progress);
  }
}
