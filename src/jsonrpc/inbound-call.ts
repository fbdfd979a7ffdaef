/** One inbound request of a `JsonRpcSession`, as its handler sees it. */

import { SdkError } from "./errors.js";
import { isRequestId, type RequestId } from "./messages.js";
import type { Progress, ProgressToken } from "./progress.js";
import type { InboundRequest, Params, RequestOptions, Result } from "./session-types.js";
import type { MessageExtra } from "./transport.js";

/** What an inbound call needs of the session that received it. */
export interface InboundOwner {
  /** Whether `call` is still waiting for its answer (not answered, cancelled or closed). */
  isLive(call: InboundCall): boolean;
  notify(method: string, params?: Params, options?: { relatedRequestId?: RequestId }): Promise<void>;
  request(method: string, params?: Params, options?: RequestOptions): Promise<Result>;
}

/**
 * One inbound request as its handler sees it. Its `AbortSignal` is made only when a handler asks
 * for it, so a request that never looks at it costs no controller.
 */
export class InboundCall implements InboundRequest {
  readonly progressToken: ProgressToken | undefined;
  #controller: AbortController | undefined;
  #aborted = false;
  #reason: unknown;

  constructor(
    private readonly session: InboundOwner,
    readonly id: RequestId,
    readonly method: string,
    readonly meta: Params | undefined,
    readonly extra: MessageExtra | undefined,
  ) {
    const token = meta?.progressToken;
    this.progressToken = isRequestId(token) ? token : undefined;
  }

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  /** Whether the peer cancelled the request or the connection closed. */
  get aborted(): boolean {
    return this.#aborted;
  }

  abort(reason: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    this.#controller?.abort(reason);
  }

  /** The peer cancelled the request (`notifications/cancelled`, with its `reason`): "REQUEST_CANCELLED". */
  cancelledByPeer(reason: unknown): void {
    this.abort(new SdkError("REQUEST_CANCELLED", typeof reason === "string" ? reason : "Cancelled by the peer"));
  }

  async sendProgress(progress: Progress): Promise<void> {
    const progressToken = this.progressToken;
    // Progress stops once the request is answered, cancelled or the connection closed.
    if (progressToken === undefined || !this.session.isLive(this)) return;
    await this.session.notify("notifications/progress", { progressToken, ...progress }, { relatedRequestId: this.id });
  }

  notify(method: string, params?: Params): Promise<void> {
    return this.session.notify(method, params, { relatedRequestId: this.id });
  }

  request(method: string, params?: Params, options: RequestOptions = {}): Promise<Result> {
    return this.session.request(method, params, {
      ...options,
      relatedRequestId: this.id,
      signal: options.signal ? AbortSignal.any([options.signal, this.signal]) : this.signal,
    });
  }
}
