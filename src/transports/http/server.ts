/**
 * The server side of Streamable HTTP as a web-standard `(Request) => Response` handler for
 * one MCP endpoint (spec: basic/transports § Streamable HTTP). It checks the request, finds
 * or creates the session, and hands the messages to that session's transport.
 */
import { ErrorCode } from "../../jsonrpc/errors.js";
import { decodeFrame } from "../../jsonrpc/frame.js";
import { consoleLogger } from "../../jsonrpc/logger.js";
import { isRequest, type JsonRpcRequest } from "../../jsonrpc/messages.js";
import type { FleetSessions } from "../features.js";
import { clock, epochOf } from "./clock.js";
import {
  DEFAULT_BODY_TIMEOUT_MS,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_SSE_CONNECTION_MS,
  DEFAULT_PROTOCOL_VERSIONS,
  DEFAULT_SESSION_IDLE_TIMEOUT_MS,
  DEFAULT_SSE_KEEP_ALIVE_MS,
  LAST_EVENT_ID_HEADER,
  PROTOCOL_VERSION_HEADER,
  SESSION_ID_HEADER,
  TRANSPORT_ERROR_CODE,
} from "./constants.js";
import {
  type StatelessRequestTransport,
  serveStatelessPost,
  statelessRefusal,
  statelessRequestOf,
} from "./eras/stateless.js";
import { type HttpReply, PostExtra, type RequestView } from "./exchange.js";
import { Fleet } from "./fleet.js";
import { FleetReplicas } from "./fleet-replicas.js";
import { isValidSessionId } from "./headers.js";
import { KeepAliveSweep } from "./keep-alive.js";
import { checkOrigin } from "./origin.js";
import {
  ACCEPTS_JSON,
  ACCEPTS_SSE,
  bodyRefusal,
  checkGetHeaders,
  checkPostHeaders,
  checkVersion,
  methodNotAllowed,
} from "./request-checks.js";
import { httpError, jsonResponse, sessionNotFound } from "./responses.js";
import { type HandleExtra, keepAliveOption, type StreamableHttpServerOptions, timerOption } from "./server-options.js";
import { mayUseSession, sessionOwner } from "./session-owner.js";
import { acceptPost } from "./session-post.js";
import { type SessionTransportOptions, StreamableHttpSessionTransport } from "./session-transport.js";
import { SseSink } from "./sinks.js";
import { SweepTimer } from "./sweep-timer.js";
import { toWebResponse, WebRequestView } from "./web.js";

export type { HandleExtra, StreamableHttpServerOptions } from "./server-options.js";

/**
 * One MCP endpoint over Streamable HTTP, as a web-standard handler (`handle`); `toNodeHandler`
 * adapts it to `node:http`. It creates a `StreamableHttpSessionTransport` per session and
 * hands it to `onsession` (spec: basic/transports § Streamable HTTP).
 */
export class StreamableHttpServer {
  /** Open sessions by id; each transport keeps when it was last active and who opened it. */
  private readonly sessions = new Map<string, StreamableHttpSessionTransport>();
  /**
   * One timer for all sessions, due when the least recently active one would expire; a request
   * only updates its session's time.
   */
  private readonly idleTimer: SweepTimer;
  /** Open transports without a session id (stateless mode); the others are in `sessions`. */
  private readonly live = new Set<StreamableHttpSessionTransport>();
  /** Open transports of stateless-era requests (revision 2026-07-28), one per POST. */
  private readonly requests = new Set<StatelessRequestTransport>();
  /** What every session transport of this server is made with. */
  private readonly transportOptions: SessionTransportOptions;
  private readonly generateId: (() => string) | undefined;
  private readonly maxBodyBytes: number;
  private readonly bodyTimeoutMs: number;
  private readonly versions: readonly string[];
  private readonly idleTimeoutMs: number;
  /** Writes keep-alives on quiet SSE streams; `undefined` when they are off. */
  private readonly keepAlive: KeepAliveSweep | undefined;
  private closed = false;
  /** Fleet: what this instance shares with the others; `undefined` outside a fleet. */
  private readonly fleet: Fleet | undefined;
  /** Fleet: the replicas this instance makes of sessions opened elsewhere; `undefined` outside a fleet. */
  private readonly replicas: FleetReplicas | undefined;

  /**
   * @throws TypeError with `fleet` but no `eventStore`, or in stateless mode.
   * @throws TypeError for a `retryIntervalMs`, `bodyTimeoutMs`, `sessionIdleTimeoutMs`,
   *   `keepAliveIntervalMs` or `maxSseConnectionMs` out of range (see each).
   */
  constructor(private readonly options: StreamableHttpServerOptions) {
    const stateless = "sessionIdGenerator" in options && options.sessionIdGenerator === undefined;
    this.generateId = stateless ? undefined : (options.sessionIdGenerator ?? (() => globalThis.crypto.randomUUID()));
    this.maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    this.bodyTimeoutMs = timerOption("bodyTimeoutMs", options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS);
    this.versions = options.supportedProtocolVersions ?? DEFAULT_PROTOCOL_VERSIONS;
    const retry = options.retryIntervalMs;
    if (retry !== undefined && !(Number.isSafeInteger(retry) && retry >= 0)) {
      throw new TypeError(`retryIntervalMs must be a non-negative integer, got ${retry}`);
    }
    const idle = timerOption("sessionIdleTimeoutMs", options.sessionIdleTimeoutMs ?? DEFAULT_SESSION_IDLE_TIMEOUT_MS);
    this.idleTimeoutMs = idle;
    this.idleTimer = new SweepTimer(idle, () => this.expireIdle());
    const keepAlive = keepAliveOption(options.keepAliveIntervalMs ?? DEFAULT_SSE_KEEP_ALIVE_MS);
    const maxAge = timerOption("maxSseConnectionMs", options.maxSseConnectionMs ?? DEFAULT_MAX_SSE_CONNECTION_MS);
    const ageOff = maxAge === Number.POSITIVE_INFINITY;
    this.keepAlive =
      keepAlive === undefined && ageOff ? undefined : new KeepAliveSweep(keepAlive, ageOff ? undefined : maxAge);
    if (options.fleet !== undefined) {
      if (options.eventStore === undefined) {
        throw new TypeError("fleet needs an eventStore shared by every instance (Redis for a fleet)");
      }
      if (stateless) throw new TypeError("fleet needs sessions: it cannot be used with sessionIdGenerator: undefined");
      this.fleet = new Fleet(
        options.fleet,
        options.eventStore,
        idle,
        (error) => this.reportError(error),
        (sessionId) => this.replicas?.replicate(sessionId) ?? Promise.resolve(false),
      );
    }
    this.transportOptions = {
      eventStore: options.eventStore,
      retryIntervalMs: options.retryIntervalMs,
      closeWhenIdle: stateless,
      onterminate: (transport) => this.forget(transport),
    };
    if (this.fleet !== undefined) {
      this.replicas = new FleetReplicas({
        fleet: this.fleet,
        sessions: this.sessions,
        transportOptions: this.transportOptions,
        isClosed: () => this.closed,
        onsession: (transport) => this.options.onsession(transport),
        touch: (transport) => this.touch(transport),
        reportError: (error) => this.reportError(error),
      });
    }
  }

  /**
   * With `fleet`: every session of the fleet as this instance can serve them, for
   * `McpServer.serveFleet` (so that an instance that has served no session yet can still tell one
   * of a hand-off done here, or of a resource change); `undefined` without `fleet`.
   */
  get fleetSessions(): FleetSessions | undefined {
    return this.fleet;
  }

  /** Sessions currently open. */
  get sessionCount(): number {
    return this.sessions.size;
  }

  /**
   * Answers one HTTP request to the MCP endpoint. A POST gets SSE or JSON as its `Accept` allows
   * (`*` + `/*` and `type/*` count; `q=0` excludes). Refusals carry a JSON-RPC error body:
   * 400 (-32700 bad JSON, -32600 bad shape or a batch the session's revision refuses, a body cut
   * off, missing session id, bad `MCP-Protocol-Version`), 403 (foreign Origin or Host), 404 (unknown
   * or ended session, or another caller's), 405, 406 (`Accept` allows neither JSON nor SSE),
   * 410 (a `Last-Event-ID` that cannot be resumed), 413 (body too large, `error.data.maxBytes`),
   * 415 (Content-Type). A GET for a session whose GET stream is open takes that stream over: the
   * older connection ends (its client reconnects only after losing it).
   */
  async handle(request: Request, extra: HandleExtra = {}): Promise<Response> {
    return toWebResponse(await this.serve(new WebRequestView(request), extra));
  }

  /** @internal `handle` for any runtime's request; `toNodeHandler` calls it with a `node:http` request. */
  async serve(request: RequestView, extra: HandleExtra = {}): Promise<HttpReply> {
    const local =
      extra.localAddress ?? (request.localAddress === undefined ? undefined : () => request.localAddress?.());
    const refusal = checkOrigin(request.host(), request.headers.get("origin"), this.options, local);
    if (refusal !== undefined) return httpError(403, TRANSPORT_ERROR_CODE, `Forbidden: ${refusal}`);
    if (this.closed) return httpError(503, TRANSPORT_ERROR_CODE, "The server is shutting down");
    try {
      switch (request.method) {
        case "POST":
          return this.watched(await this.post(request, extra));
        case "GET":
          return this.watched(await this.get(request, extra));
        case "DELETE":
          return await this.delete(request, extra);
        default:
          return methodNotAllowed(request.method, this.generateId === undefined);
      }
    } catch (error) {
      this.reportError(error);
      return httpError(500, ErrorCode.InternalError, "Internal error");
    }
  }

  /** An SSE answer joins the keep-alive sweep (see `keepAliveIntervalMs` and `maxSseConnectionMs`). */
  private watched(reply: HttpReply): HttpReply {
    if (reply.stream instanceof SseSink) this.keepAlive?.watch(reply.stream);
    return reply;
  }

  /**
   * @internal Hands an unexpected failure (of the server or of the adapter in front of it) to
   * `onerror`, or else to `logger` (default `console`): never dropped.
   */
  reportError(error: unknown): void {
    const failure = error instanceof Error ? error : new Error(String(error));
    if (this.options.onerror !== undefined) {
      this.options.onerror(failure);
      return;
    }
    try {
      (this.options.logger ?? consoleLogger()).error(
        { err: failure },
        "The Streamable HTTP server failed; the request was answered 500",
      );
    } catch {
      // A logger that throws must not keep the client from its 500.
    }
  }

  /** Closes every session and every stateless request in flight (its handler is cancelled); later requests get 503. */
  async close(): Promise<void> {
    this.closed = true;
    this.idleTimer.stop();
    this.keepAlive?.stop();
    const open = [...this.live, ...this.requests, ...this.sessions.values()];
    await Promise.all(open.map((transport) => transport.close()));
  }

  private async post(request: RequestView, extra: HandleExtra): Promise<HttpReply> {
    // The client takes one JSON body, an SSE stream, or either (then the server's choice).
    const accepts = checkPostHeaders(request);
    if (typeof accepts !== "number") return accepts;
    const json = (accepts & ACCEPTS_JSON) !== 0;
    const sse = (accepts & ACCEPTS_SSE) !== 0;
    const body = await request.readBody(this.maxBodyBytes, this.bodyTimeoutMs);
    if (!body.ok) return bodyRefusal(body.reason, this.maxBodyBytes, this.bodyTimeoutMs);
    // Closed while the body was arriving: nothing made now would ever be closed or expire.
    if (this.closed) return httpError(503, TRANSPORT_ERROR_CODE, "The server is shutting down");
    const frame = decodeFrame(body.text);
    if (!frame.ok) return jsonResponse(400, frame.error);
    const refused = this.options.onrequest && statelessRefusal(request.headers, frame.messages, frame.batch);
    if (refused) return refused;
    const stateless = this.options.onrequest && statelessRequestOf(request.headers, frame.messages);
    if (stateless && this.options.onrequest) {
      const answer = json && sse ? "either" : json ? "json" : "sse";
      const messageExtra = this.messageExtra(request, extra);
      return serveStatelessPost(request, stateless, messageExtra, this.options.onrequest, answer, this.requests);
    }
    const badVersion = checkVersion(request, this.versions, undefined);
    if (badVersion) return badVersion;

    const initialize = frame.messages.find((m): m is JsonRpcRequest => isRequest(m) && m.method === "initialize");
    if (initialize !== undefined && frame.messages.length > 1) {
      return httpError(400, ErrorCode.InvalidRequest, "Invalid Request: initialize must be sent alone");
    }
    let transport: StreamableHttpSessionTransport;
    // Without verified auth the owner is known at once: such a request takes no extra turn of the event loop.
    if (this.generateId === undefined || initialize !== undefined) {
      // Without sessions, any POST but initialize comes from a client that initialized on an earlier one.
      const elsewhere = this.generateId === undefined && initialize === undefined;
      const created = await this.createTransport(
        extra.authInfo === undefined ? undefined : await sessionOwner(extra.authInfo),
        elsewhere ? presumedHandshakeOf(request) : undefined,
      );
      if (!(created instanceof StreamableHttpSessionTransport)) return created;
      transport = created;
    } else {
      let found = this.findSession(
        request,
        extra.authInfo === undefined ? undefined : await sessionOwner(extra.authInfo),
      );
      if (found instanceof Promise) found = await found;
      if (!(found instanceof StreamableHttpSessionTransport)) return found;
      transport = found;
    }
    const messageExtra = this.messageExtra(request, extra);
    if (transport.sessionId !== undefined) messageExtra.sessionId = transport.sessionId;
    const reply = acceptPost(transport, frame.messages, frame.batch, messageExtra, sessionHeaders(transport), {
      json: json && (this.options.enableJsonResponse === true || !sse),
      opening: initialize?.id,
      onAbort: (listener) => request.onAbort(listener),
    });
    // Without a session nothing can resume the answer, so a client that leaves ends its requests.
    if (transport.sessionId === undefined) request.onAbort(() => void transport.close());
    return reply;
  }

  private messageExtra(request: RequestView, extra: HandleExtra): PostExtra {
    const messageExtra = new PostExtra(request);
    if (extra.authInfo !== undefined) messageExtra.authInfo = extra.authInfo;
    return messageExtra;
  }

  private async get(request: RequestView, extra: HandleExtra): Promise<HttpReply> {
    if (this.generateId === undefined) return methodNotAllowed("GET", true);
    const notAcceptable = checkGetHeaders(request);
    if (notAcceptable) return notAcceptable;
    const transport = await this.findSession(
      request,
      extra.authInfo === undefined ? undefined : await sessionOwner(extra.authInfo),
    );
    if (!(transport instanceof StreamableHttpSessionTransport)) return transport;
    const lastEventId = request.headers.get(LAST_EVENT_ID_HEADER);
    // Without an event store an id cannot be resumed either: 410, not a fresh stream lacking what followed it.
    if (lastEventId !== null && lastEventId !== "") return transport.resume(lastEventId, sessionHeaders(transport));
    // No `Mcp-Session-Id` on this answer: the client sent it, and the spec has the server assign it only on
    // the answer to `initialize`; Node keeps each open stream's header text, so it would cost every idle session.
    return transport.openStandalone(NO_HEADERS);
  }

  private async delete(request: RequestView, extra: HandleExtra): Promise<HttpReply> {
    if (this.generateId === undefined) return methodNotAllowed("DELETE", true);
    const transport = await this.findSession(
      request,
      extra.authInfo === undefined ? undefined : await sessionOwner(extra.authInfo),
    );
    if (!(transport instanceof StreamableHttpSessionTransport)) return transport;
    if (this.fleet === undefined) {
      await transport.close();
      return { status: 204, headers: {} };
    }
    try {
      await transport.endEverywhere();
    } catch (error) {
      this.reportError(error);
      return httpError(503, TRANSPORT_ERROR_CODE, "Service Unavailable: the session directory did not answer; retry");
    }
    return { status: 204, headers: {} };
  }

  /** `owner`: the `sessionOwner` of the request that opens the session; `presumedHandshake`: see the transport's. */
  private async createTransport(
    owner: string | undefined,
    presumedHandshake?: StreamableHttpSessionTransport["presumedHandshake"],
  ): Promise<StreamableHttpSessionTransport | HttpReply> {
    const sessionId = this.generateId?.();
    if (sessionId !== undefined && !isValidSessionId(sessionId)) {
      throw new TypeError("sessionIdGenerator must return visible ASCII characters only");
    }
    const transport = new StreamableHttpSessionTransport(sessionId, this.transportOptions);
    if (presumedHandshake !== undefined) transport.presumedHandshake = presumedHandshake;
    if (sessionId === undefined) this.live.add(transport);
    else {
      transport.activeAt = clock();
      transport.owner = owner;
      this.sessions.set(sessionId, transport);
    }
    try {
      if (this.fleet !== undefined && sessionId !== undefined) await transport.joinFleet(this.fleet, owner);
      await this.options.onsession(transport);
    } catch (error) {
      await transport.close();
      throw error;
    }
    this.touch(transport);
    return transport;
  }

  /**
   * The session named by the request, or the 400 / 404 answer. Counts as activity. Another
   * caller's session (`caller` is the request's `sessionOwner`) is answered exactly as an unknown
   * one, so its id tells an intruder nothing and counts as no activity.
   */
  private findSession(
    request: RequestView,
    caller: string | undefined,
  ): StreamableHttpSessionTransport | HttpReply | Promise<StreamableHttpSessionTransport | HttpReply> {
    const sessionId = request.headers.get(SESSION_ID_HEADER);
    if (sessionId === null) {
      return httpError(400, ErrorCode.InvalidRequest, "Bad Request: the Mcp-Session-Id header is required");
    }
    const transport = this.sessions.get(sessionId);
    if (transport === undefined && this.fleet !== undefined) return this.adopt(request, sessionId, caller);
    if (transport === undefined || !mayUseSession(transport.owner, caller)) return sessionNotFound();
    const badVersion = checkVersion(request, this.versions, transport.protocolVersion);
    if (badVersion) return badVersion;
    this.touch(transport);
    return transport;
  }

  /**
   * Fleet: a session this instance does not hold, served by a replica made from the directory's
   * record as if its `initialize` had been answered here; 404 as for an unknown session when the
   * directory does not know it or it is another caller's, 503 when the directory fails.
   */
  private async adopt(
    request: RequestView,
    sessionId: string,
    caller: string | undefined,
  ): Promise<StreamableHttpSessionTransport | HttpReply> {
    // Shared only by one caller's requests: another caller's 404 must not become the owner's.
    const made = await (this.replicas as FleetReplicas).replicaOf(sessionId, `caller ${caller ?? ""}`, (owner) =>
      mayUseSession(owner, caller),
    );
    if (!(made instanceof StreamableHttpSessionTransport)) return made;
    // Another caller's request may have made the replica: the owner is checked for each request.
    return this.findSession(request, caller);
  }

  private touch(transport: StreamableHttpSessionTransport): void {
    if (this.fleet !== undefined) transport.touchShared(Date.now());
    if (this.idleTimeoutMs === Number.POSITIVE_INFINITY || transport.sessionId === undefined) return;
    if (this.sessions.get(transport.sessionId) !== transport) return;
    transport.activeAt = clock();
    this.idleTimer.arm(epochOf(transport.activeAt));
  }

  /**
   * Ends sessions idle for `idleTimeoutMs`, which cancels their requests still in flight; one with
   * a client connected (an answer or GET stream open) counts as active.
   */
  private expireIdle(): void {
    const now = clock();
    let earliest = Number.POSITIVE_INFINITY;
    for (const transport of this.sessions.values()) {
      if (now - transport.activeAt >= this.idleTimeoutMs) {
        if (!transport.busy) {
          void transport.close();
          continue;
        }
        transport.activeAt = now;
        // A client listening counts as activity in the directory too.
        if (this.fleet !== undefined) transport.touchShared(epochOf(now));
      }
      earliest = Math.min(earliest, transport.activeAt);
    }
    if (earliest !== Number.POSITIVE_INFINITY) this.idleTimer.arm(epochOf(earliest));
  }

  private forget(transport: StreamableHttpSessionTransport): void {
    this.live.delete(transport);
    if (transport.sessionId === undefined) return;
    if (this.sessions.get(transport.sessionId) !== transport) return;
    this.sessions.delete(transport.sessionId);
    if (this.sessions.size === 0) this.idleTimer.cancel();
  }
}

/** What a POST without a session says of the handshake it follows: the revision it names, if any. */
function presumedHandshakeOf(request: RequestView): { protocolVersion?: string } {
  const version = request.headers.get(PROTOCOL_VERSION_HEADER);
  return version === null ? {} : { protocolVersion: version };
}

/** Extra headers of a fresh GET stream's answer: none (copied by the sink, never written to). */
const NO_HEADERS: Record<string, string> = Object.freeze({}) as Record<string, string>;

function sessionHeaders(transport: StreamableHttpSessionTransport): Record<string, string> {
  // The name written out (it is SESSION_ID_HEADER): a literal key keeps the object a plain fast one.
  return transport.sessionId === undefined ? {} : { "mcp-session-id": transport.sessionId };
}
