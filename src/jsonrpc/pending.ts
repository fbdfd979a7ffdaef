/** One outbound request of a `JsonRpcSession` while it waits for its response. */
import { SdkError } from "./errors.js";
import type { RequestId } from "./messages.js";
import type { ProgressCallback, ProgressToken } from "./progress.js";
import type { RequestTimers, TimerOwner, TimerSlot } from "./request-timers.js";
import type { RequestOptions, Result } from "./session-types.js";

/** What a pending request needs of the session that sent it. */
export interface PendingOwner {
  /** ms for requests that pass no `timeoutMs`. */
  readonly defaultTimeoutMs: number;
  /** Where the request's timeout timer comes from and goes back to. */
  readonly timers: RequestTimers;
  /** Rejects the request with `reason`, tells the peer when it was cancelled, and forgets it. */
  abandon(id: RequestId, reason: SdkError): void;
  forgetProgressToken(token: ProgressToken): void;
}

/** An outbound request waiting for its response: its timer and its abort listener. */
export class Pending implements TimerOwner {
  readonly onprogress: ProgressCallback | undefined;
  /** ms since the epoch when sent; read only under `maxTotalTimeoutMs`. */
  readonly #startedAt: number;
  #timer: TimerSlot | undefined;
  /** ms the running timer waits, for the error it ends with. */
  #wait = 0;
  #onAbort: (() => void) | undefined;

  constructor(
    private readonly session: PendingOwner,
    readonly id: RequestId,
    readonly method: string,
    private readonly options: RequestOptions,
    readonly resolve: (result: Result) => void,
    readonly reject: (error: Error) => void,
    private readonly progressToken: ProgressToken | undefined,
  ) {
    this.onprogress = options.onprogress;
    this.#startedAt = options.maxTotalTimeoutMs === undefined ? 0 : Date.now();
    const signal = options.signal;
    if (signal !== undefined) {
      this.#onAbort = () => session.abandon(id, cancelled(method, signal));
      signal.addEventListener("abort", this.#onAbort, { once: true });
    }
  }

  /** (Re)starts the timeout: `timeoutMs`, capped by what is left of `maxTotalTimeoutMs`. */
  arm(): void {
    const { options } = this;
    let wait = options.timeoutMs ?? this.session.defaultTimeoutMs;
    if (options.maxTotalTimeoutMs !== undefined) {
      wait = Math.min(wait, options.maxTotalTimeoutMs - (Date.now() - this.#startedAt));
    }
    const timers = this.session.timers;
    if (this.#timer !== undefined) {
      timers.stop(this.#timer);
      this.#timer = undefined;
    }
    if (!Number.isFinite(wait)) return;
    this.#wait = wait;
    this.#timer = timers.start(this, Math.max(0, wait));
  }

  /** The timer ran out: the request is given up with `SdkError("REQUEST_TIMEOUT")`. */
  expire(): void {
    this.#timer = undefined;
    this.session.abandon(
      this.id,
      new SdkError("REQUEST_TIMEOUT", `${this.method} timed out after ${Math.round(this.#wait)} ms`),
    );
  }

  resetTimeout(): void {
    if (this.options.resetTimeoutOnProgress) this.arm();
  }

  cleanup(): void {
    if (this.#timer !== undefined) {
      this.session.timers.stop(this.#timer);
      this.#timer = undefined;
    }
    if (this.#onAbort !== undefined) this.options.signal?.removeEventListener("abort", this.#onAbort);
    if (this.progressToken !== undefined) this.session.forgetProgressToken(this.progressToken);
  }
}

/** The error of a request whose `signal` aborted, before it was sent or while it waited: "REQUEST_CANCELLED". */
export function cancelled(method: string, signal: AbortSignal): SdkError {
  return new SdkError("REQUEST_CANCELLED", `${method} was cancelled`, { cause: signal.reason });
}
