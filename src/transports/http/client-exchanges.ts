/**
 * The HTTP exchanges a Streamable HTTP client has open, kept until their bodies are read, so
 * that closing the transport can stop them all, and the request each POST carries, so that
 * cancelling that request ends its exchange. Every request goes through the transport's
 * authorization, when it has one.
 */
import type { RequestId } from "../../jsonrpc/messages.js";
import type { HttpAnswer, HttpCarrier, HttpExchange, HttpRequest, RequestAuthorization } from "./client-http.js";
import { fetchFailure, StreamableHttpError } from "./errors.js";

export class ClientExchanges {
  private readonly live = new Set<HttpExchange>();
  private readonly liveOf = new WeakMap<HttpAnswer, HttpExchange>();
  /** The exchanges of requests still being answered, by JSON-RPC id, with the responses they owe. */
  private readonly byRequest = new Map<RequestId, { exchange: HttpExchange; pending: Set<RequestId> }>();
  private readonly requestOf = new WeakMap<HttpExchange, RequestId>();
  private stopped = false;
  /** Called once no exchange is live any more (see `settled`). */
  private onIdle: (() => void) | undefined;

  constructor(
    private readonly carrier: HttpCarrier,
    private readonly url: URL,
    private readonly authorization: RequestAuthorization | undefined,
  ) {}

  /**
   * Sends one request, live until `release(answer)` or `stopAll()`. With `owed`, it is the POST
   * of request `owed.id`, owing the responses in `owed.pending`.
   * @throws StreamableHttpError when no answer came (a network failure, an abort), naming why.
   */
  send(request: HttpRequest, owed?: { id: RequestId; pending: Set<RequestId> }): Promise<HttpAnswer> {
    return this.authorized(request, (authorized) => this.sendLive(authorized, owed));
  }

  /**
   * Sends one request that is none of the live exchanges: `stopAll` and `refuseNew` leave it be
   * (the DELETE that ends the session, sent as the transport closes).
   * @throws the underlying error when no answer came.
   */
  sendAside(request: HttpRequest): Promise<HttpAnswer> {
    return this.authorized(request, (authorized) => this.carrier.send(authorized).answer);
  }

  private async sendLive(request: HttpRequest, owed?: { id: RequestId; pending: Set<RequestId> }): Promise<HttpAnswer> {
    const exchange = this.carrier.send(request);
    if (this.stopped) exchange.abort();
    this.live.add(exchange);
    if (owed !== undefined) {
      this.byRequest.set(owed.id, { exchange, pending: owed.pending });
      this.requestOf.set(exchange, owed.id);
    }
    try {
      const answer = await exchange.answer;
      this.liveOf.set(answer, exchange);
      return answer;
    } catch (error) {
      this.forget(exchange);
      throw new StreamableHttpError(undefined, `${request.method} ${request.url} failed: ${fetchFailure(error)}`, {
        cause: error,
      });
    }
  }

  /** The answer's body is read or given up: `stopAll` no longer needs to abort its exchange. */
  release(answer: HttpAnswer): void {
    const exchange = this.liveOf.get(answer);
    if (exchange !== undefined) this.forget(exchange);
  }

  /**
   * Ends the exchange of request `id`: aborts its POST or its response stream and empties the
   * responses it owes. @returns false when the request is already answered or unknown.
   */
  cancel(id: RequestId): boolean {
    const owed = this.byRequest.get(id);
    if (owed === undefined) return false;
    this.byRequest.delete(id);
    owed.pending.clear();
    owed.exchange.abort();
    return true;
  }

  /**
   * Resolves once no exchange is live, or after `ms` at the latest (the live ones go on): the
   * streams a server ends with its session end within a turn or two, and one that ended by itself
   * keeps its connection for the next request, where aborting it would close that connection.
   */
  settled(ms: number): Promise<void> {
    if (this.live.size === 0) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.onIdle = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.onIdle = done;
    });
  }

  /** From now on a new exchange is aborted at once; the live ones go on. */
  refuseNew(): void {
    this.stopped = true;
  }

  /** Aborts every live exchange, and every later one at once. */
  stopAll(): void {
    this.stopped = true;
    for (const exchange of this.live) exchange.abort();
    this.live.clear();
    this.byRequest.clear();
  }

  /**
   * `send(request)`, through the authorization when there is one: it may send the request again
   * with a new token after giving up a refusal, whose exchange is then released.
   */
  private authorized(request: HttpRequest, send: (request: HttpRequest) => Promise<HttpAnswer>): Promise<HttpAnswer> {
    const authorization = this.authorization;
    if (authorization === undefined) return send(request);
    let previous: HttpAnswer | undefined;
    return authorization
      .authorizeRequest(this.url, async (value) => {
        if (previous !== undefined) this.release(previous);
        const headers = value === undefined ? request.headers : { ...request.headers, authorization: value };
        previous = await send({ ...request, headers });
        return previous;
      })
      .catch((error: unknown) => {
        // An authorization that failed (a LoginError) fails the request as a failed fetch would.
        if (error instanceof StreamableHttpError) throw error;
        const why = error instanceof Error ? error.message : String(error);
        throw new StreamableHttpError(undefined, `${request.method} ${request.url} failed: ${why}`, { cause: error });
      });
  }

  private forget(exchange: HttpExchange): void {
    this.live.delete(exchange);
    if (this.live.size === 0) this.onIdle?.();
    const id = this.requestOf.get(exchange);
    if (id !== undefined && this.byRequest.get(id)?.exchange === exchange) this.byRequest.delete(id);
  }
}
