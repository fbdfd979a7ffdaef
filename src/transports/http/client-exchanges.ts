/**
 * The HTTP exchanges a Streamable HTTP client has open: one `AbortController` per fetch, kept
 * until its body is read, so that closing the transport can stop them all, and the request each
 * POST carries, so that cancelling that request ends its exchange.
 */
import type { RequestId } from "../../jsonrpc/messages.js";
import { fetchFailure, StreamableHttpError } from "./errors.js";

export class ClientExchanges {
  /**
   * One controller per fetch, kept while its body is read. A single long-lived signal would
   * collect an abort listener per request: fetch removes its listeners only when the request is
   * garbage-collected.
   */
  private readonly live = new Set<AbortController>();
  private readonly liveOf = new WeakMap<Response, AbortController>();
  /** The exchanges of requests still being answered, by JSON-RPC id, with the responses they owe. */
  private readonly byRequest = new Map<RequestId, { controller: AbortController; pending: Set<RequestId> }>();
  private readonly requestOf = new WeakMap<AbortController, RequestId>();
  private stopped = false;

  constructor(private readonly fetchFn: typeof fetch) {}

  /** Whether any fetch is still live. */
  get size(): number {
    return this.live.size;
  }

  /**
   * One fetch with a signal of its own, live until `release(response)` or `stopAll()`. With
   * `exchange`, it is the POST of request `exchange.id`, owing the responses in `exchange.pending`.
   * @throws StreamableHttpError when the fetch rejects (no answer came), naming why.
   */
  async fetch(
    url: URL,
    init: RequestInit & { method: string },
    exchange?: { id: RequestId; pending: Set<RequestId> },
  ): Promise<Response> {
    const controller = new AbortController();
    if (this.stopped) controller.abort();
    this.live.add(controller);
    if (exchange !== undefined) {
      this.byRequest.set(exchange.id, { controller, pending: exchange.pending });
      this.requestOf.set(controller, exchange.id);
    }
    try {
      const response = await this.fetchFn(url, { ...init, signal: controller.signal });
      this.liveOf.set(response, controller);
      return response;
    } catch (error) {
      this.forget(controller);
      throw new StreamableHttpError(undefined, `${init.method} ${url} failed: ${fetchFailure(error)}`, {
        cause: error,
      });
    }
  }

  /** The response's body is read or given up: `stopAll` no longer needs to abort its fetch. */
  release(response: Response): void {
    const controller = this.liveOf.get(response);
    if (controller !== undefined) this.forget(controller);
  }

  /**
   * Ends the exchange of request `id`: aborts its POST or its response stream and empties the
   * responses it owes. @returns false when the request is already answered or unknown.
   */
  cancel(id: RequestId): boolean {
    const exchange = this.byRequest.get(id);
    if (exchange === undefined) return false;
    this.byRequest.delete(id);
    exchange.pending.clear();
    exchange.controller.abort();
    return true;
  }

  /** From now on a new fetch is aborted at once; the live ones go on. */
  refuseNew(): void {
    this.stopped = true;
  }

  /** Aborts every live fetch, and every later one at once. */
  stopAll(): void {
    this.stopped = true;
    for (const controller of this.live) controller.abort();
    this.live.clear();
    this.byRequest.clear();
  }

  private forget(controller: AbortController): void {
    this.live.delete(controller);
    const id = this.requestOf.get(controller);
    if (id !== undefined && this.byRequest.get(id)?.controller === controller) this.byRequest.delete(id);
  }
}
