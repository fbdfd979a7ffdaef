/**
 * Change notifications in the stateless era (spec 2026-07-28: basic/patterns/subscriptions): the
 * client keeps one `subscriptions/listen` request open whose filter names what it wants (list
 * changes for the hooks set, updates for the subscribed resource URIs). A new filter replaces
 * the listen: the old one is cancelled first, and its leftover notifications are dropped by id.
 * A listen the server ends with a result (graceful closure) stays closed; one lost to a dropped
 * connection or an error is reported and re-opened after a delay that doubles up to a cap.
 */
import { ErrorCode, ProtocolError, SdkError } from "../../jsonrpc/errors.js";
import type { RequestId } from "../../jsonrpc/messages.js";
import type { Params } from "../../jsonrpc/session.js";
import { META } from "../../revisions/index.js";
import type { ListChanges, ListenTracker } from "../notifications.js";

/** The `notifications` filter of `subscriptions/listen`. */
export interface ListenFilter extends ListChanges {
  resourceSubscriptions?: string[];
}

/** What the listener needs from the client. */
export interface ListenHost {
  /** Sends `subscriptions/listen` with `filter`; settles when the listen ends. Aborting cancels it. */
  listen(filter: ListenFilter, signal: AbortSignal): Promise<unknown>;
  /** The list-change types to ask for now: the hooks set, among what the server offers. */
  listChanges(): ListChanges;
  /** A listen that failed after it was acknowledged. */
  report(error: Error): void;
  /** ms before the first re-open of a lost listen; doubles on each failed try. Default 1,000. */
  retryDelayMs?: number;
  /** ms cap on that delay. Default 30,000. */
  maxRetryDelayMs?: number;
}

const RETRY_DELAY_MS = 1_000;
const MAX_RETRY_DELAY_MS = 30_000;

interface OpenListen {
  readonly controller: AbortController;
  /** The listen's JSON-RPC id, learnt from its acknowledgement. */
  id: RequestId | undefined;
  acknowledge(): void;
}

/** Errors that mean the listen was ended on purpose (replaced, or the client closed). */
const ENDED = new Set(["REQUEST_CANCELLED", "CONNECTION_CLOSED", "NOT_CONNECTED"]);

export class ChangeListener implements ListenTracker {
  readonly #uris = new Set<string>();
  #open: OpenListen | undefined;
  /** Re-openings run one after another, so acknowledgements match the listen last sent. */
  #queue: Promise<void> = Promise.resolve();
  /** The pending re-open of a lost listen, and the delay of the next one (ms). */
  #retry: ReturnType<typeof setTimeout> | undefined;
  #retryDelayMs: number;
  #closed = false;

  constructor(private readonly host: ListenHost) {
    this.#retryDelayMs = host.retryDelayMs ?? RETRY_DELAY_MS;
  }

  /** Adds `uri` and re-opens the listen; resolves once the server acknowledged it. */
  subscribe(uri: string): Promise<void> {
    this.#uris.add(uri);
    return this.reopen();
  }

  /** Removes `uri` and re-opens the listen (or just cancels it when nothing is left to hear). */
  unsubscribe(uri: string): Promise<void> {
    this.#uris.delete(uri);
    return this.reopen();
  }

  /**
   * Replaces the open listen with one for the current filter; with an empty filter none is opened.
   * @throws ProtocolError the server's refusal of `subscriptions/listen`; SdkError "INVALID_RESULT"
   *   when the server ended the listen without acknowledging it.
   */
  reopen(): Promise<void> {
    this.#closed = false;
    this.#cancelRetry();
    const next = this.#queue.then(() => this.#replace());
    this.#queue = next.catch(() => {});
    return next;
  }

  /**
   * Gives up on `uri` while its listen may still await acknowledgement (the caller's deadline
   * passed): the URI leaves the filter, an unacknowledged listen is cancelled, and the listen is
   * re-opened without it.
   */
  abandon(uri: string): Promise<void> {
    this.#uris.delete(uri);
    const open = this.#open;
    if (open !== undefined && open.id === undefined) open.controller.abort();
    return this.reopen();
  }

  /** Cancels the open listen and forgets the subscribed URIs (the client is closing). */
  close(): void {
    this.#closed = true;
    this.#cancelRetry();
    this.#uris.clear();
    const open = this.#open;
    this.#open = undefined;
    open?.controller.abort();
  }

  acknowledged(params: Params): void {
    const open = this.#open;
    if (open === undefined || open.id !== undefined) return;
    const id = (params._meta as Params | undefined)?.[META.subscriptionId];
    if (typeof id !== "string" && typeof id !== "number") return;
    open.id = id;
    open.acknowledge();
  }

  accepts(params: Params): boolean {
    const meta = params._meta as Params | undefined;
    if (meta === undefined || !(META.subscriptionId in meta)) return true;
    return this.#open?.id !== undefined && meta[META.subscriptionId] === this.#open.id;
  }

  async #replace(): Promise<void> {
    const previous = this.#open;
    this.#open = undefined;
    previous?.controller.abort();
    const filter: ListenFilter = { ...this.host.listChanges() };
    if (this.#uris.size > 0) filter.resourceSubscriptions = [...this.#uris];
    if (Object.keys(filter).length === 0) return;
    const controller = new AbortController();
    await new Promise<void>((resolve, reject) => {
      const open: OpenListen = {
        controller,
        id: undefined,
        acknowledge: () => {
          this.#retryDelayMs = this.host.retryDelayMs ?? RETRY_DELAY_MS;
          resolve();
        },
      };
      this.#open = open;
      const ended = (error?: unknown) => {
        if (this.#open === open) this.#open = undefined;
        if (open.id === undefined) {
          reject(
            error ?? new SdkError("INVALID_RESULT", "The server ended subscriptions/listen before acknowledging it"),
          );
        } else if (error !== undefined && !controller.signal.aborted && !isEnded(error)) {
          this.host.report(error instanceof Error ? error : new Error(String(error)));
          if (isLost(error)) this.#scheduleRetry();
        }
      };
      this.host.listen(filter, controller.signal).then(() => ended(), ended);
    });
  }

  /** Re-opens a lost listen after the current delay; a failed re-open schedules the next, later one. */
  #scheduleRetry(): void {
    if (this.#closed || this.#retry !== undefined) return;
    const delay = this.#retryDelayMs;
    this.#retryDelayMs = Math.min(delay * 2, this.host.maxRetryDelayMs ?? MAX_RETRY_DELAY_MS);
    this.#retry = setTimeout(() => {
      this.#retry = undefined;
      if (this.#closed) return;
      const next = this.#queue.then(() => this.#replace());
      this.#queue = next.catch(() => {});
      next.catch((error: unknown) => {
        if (this.#closed || isEnded(error)) return;
        this.host.report(error instanceof Error ? error : new Error(String(error)));
        if (isLost(error)) this.#scheduleRetry();
      });
    }, delay);
    // A pending re-open alone does not keep the process alive.
    this.#retry.unref?.();
  }

  #cancelRetry(): void {
    if (this.#retry !== undefined) clearTimeout(this.#retry);
    this.#retry = undefined;
  }
}

function isEnded(error: unknown): boolean {
  return error instanceof SdkError && ENDED.has(error.code);
}

/**
 * Whether the listen was lost on the way (a dropped stream, an unreachable server) rather than
 * refused or failed by the server, which a re-open would only repeat.
 */
function isLost(error: unknown): boolean {
  return !(error instanceof ProtocolError) || error.code === ErrorCode.ConnectionClosed;
}
