/**
 * One client connection of an `McpServer`: the `initialize` handshake (spec: basic/lifecycle),
 * the per-session state (log level, resource subscriptions) and the routing of requests to the
 * server's registries.
 */
import { randomUUID } from "node:crypto";
import { ErrorCode, ProtocolError } from "../jsonrpc/errors.js";
import type { RequestId } from "../jsonrpc/messages.js";
import { type InboundRequest, JsonRpcSession, type Params, type Result } from "../jsonrpc/session.js";
import type {
  ClientCapabilities,
  Implementation,
  InitializeResult,
  Revision,
  ServerCapabilities,
} from "../revisions/index.js";
import {
  createEntryGate,
  createGate,
  createPresumedGate,
  createStatelessGate,
  negotiateVersion,
  presumeHandshake,
  STATELESS_REVISIONS,
  type StatelessGate,
} from "../revisions/index.js";
import type { Transport } from "../transports/transport.js";
import { type ContextHost, createRequestContext, type RequestContext } from "./context.js";
import type { ServerSession } from "./handler-types.js";
import { refusedHandoffAnswer, settleHandoffs } from "./handoff-hold.js";
import { InputNeeded, InputRound } from "./input-round.js";
import { InteractionRequired, type InteractionService } from "./interactions.js";
import { isAtLeast, isLoggingLevel, type LoggingLevel } from "./logging.js";
import { type ConnectionHooks, contextHost, type LogSender, requestContext } from "./request-contexts.js";
import { SessionInteractions } from "./session-interactions.js";
import {
  allowsInputRounds,
  discoverResult,
  requestStateFor,
  type StatelessSettings,
  statelessMeta,
} from "./stateless.js";
import { Subscriptions } from "./subscriptions.js";

/** What a session needs from the server that owns it. */
export interface SessionHost {
  readonly serverInfo: Implementation;
  readonly instructions: string | undefined;
  /** Keeps hand-offs (out-of-band user interactions); without it handlers cannot start one. */
  readonly interactions: InteractionService | undefined;
  /** How revision 2026-07-28 requests are served. */
  readonly stateless: StatelessSettings;
  /** Capabilities as they stand now (derived from what is registered). */
  capabilities(): ServerCapabilities;
  /** Routes a request that needs server capability `capability` (e.g. `tools`). */
  route(method: string, params: Params, ctx: RequestContext, session: ServerConnection): Promise<Result>;
  report(message: string, error: unknown, sessionId?: string): void;
  closed(session: ServerConnection): void;
  /**
   * Checks what a stateless request's HTTP headers repeat from its body beyond the standard ones
   * (`x-mcp-header` tool parameters). @throws ProtocolError -32020 on a mismatch.
   */
  checkHeaders(method: string, params: Params, headers: Record<string, string> | undefined): Promise<void>;
}

/** Which server capability each client request needs; requests without one are always served. */
const CAPABILITY_OF: Record<string, keyof ServerCapabilities> = {
  "tools/list": "tools",
  "tools/call": "tools",
  "resources/list": "resources",
  "resources/templates/list": "resources",
  "resources/read": "resources",
  "resources/subscribe": "resources",
  "resources/unsubscribe": "resources",
  "prompts/list": "prompts",
  "prompts/get": "prompts",
  "completion/complete": "completions",
  "logging/setLevel": "logging",
};

const OWN_METHODS = new Set(["initialize", "server/discover", "subscriptions/listen", ...Object.keys(CAPABILITY_OF)]);
const isServedMethod = (method: string) => OWN_METHODS.has(method);
const isInitialized = (method: string) => method === "notifications/initialized";

/** The listens of every session that never opened one: nothing to notify. */
const NO_LISTENS = new Subscriptions();

export class ServerConnection implements ServerSession {
  readonly #rpc = new JsonRpcSession();
  /** Made when first asked for: an HTTP session goes by its transport's id. */
  #localId: string | undefined;
  #transport: Transport | undefined;
  #protocolVersion: string | undefined;
  #clientInfo: Implementation | undefined;
  #clientCapabilities: ClientCapabilities | undefined;
  /** What every request context of this connection borrows from it, made on the first request. */
  #hooks: ConnectionHooks | undefined;
  /** What every request context of this initialized session shares, made on the first request. */
  #contextHost: ContextHost | undefined;
  #announced: ServerCapabilities = {};
  #initialized = false;
  #logLevel: LoggingLevel | undefined;
  /** URL-mode elicitations not yet completed, with the request each was made in (oldest first, bounded). */
  #elicitations: Map<string, RequestId> | undefined;
  /** URIs this client subscribed to with `resources/subscribe`. */
  readonly subscriptions = new Set<string>();
  /** The hand-offs of this connection, made when first needed: most sessions never hand off. */
  #interactions: SessionInteractions | undefined;
  /** What `initialize` agreed, which the hand-offs start from. */
  #negotiated: { revision: Revision; clientCapabilities: ClientCapabilities } | undefined;
  /** The revision of the stateless requests this connection served, if any. */
  #statelessRevision: Revision | undefined;
  /** Open `subscriptions/listen` requests (revision 2026-07-28), made on the first listen. */
  #listens: Subscriptions | undefined;

  constructor(private readonly host: SessionHost) {
    // Serves both eras until `initialize` (if any) installs the negotiated revision's gate.
    this.#rpc.setGate(createEntryGate(this.#statelessGate()));
    this.#rpc.onerror = (error) => host.report("Session error", error, this.id);
    this.#rpc.onclose = () => {
      void this.#interactions?.close();
      this.subscriptions.clear();
      this.#listens?.clear();
      host.closed(this);
    };
    // One handler for the fixed table of methods (each request names its own), so that an idle
    // session holds no handler map and no closure per method.
    this.#rpc.setFallbackRequestHandler(isServedMethod, (params, inbound) => this.#dispatch(params, inbound));
    this.#rpc.setFallbackNotificationHandler(isInitialized, () => {
      this.#initialized = true;
    });
  }

  #statelessGate(): StatelessGate {
    const host = this.host;
    return createStatelessGate({
      serverInfo: host.serverInfo as unknown as Record<string, unknown>,
      supported: host.stateless.supportedVersions,
      ...(host.stateless.cache === undefined ? {} : { cache: host.stateless.cache }),
    });
  }

  #dispatch(params: Params, inbound: InboundRequest): Result | Promise<Result> {
    const host = this.host;
    switch (inbound.method) {
      case "initialize":
        return this.#initialize(params, inbound) as unknown as Result;
      case "server/discover":
        return discoverResult(host.stateless, host.capabilities(), host.instructions);
      case "subscriptions/listen":
        this.#listens ??= new Subscriptions();
        return this.#listens.listen(params, inbound, host.capabilities());
      default:
        return this.#serve(inbound.method, params, inbound);
    }
  }

  /** Open `subscriptions/listen` requests; a session that never listened shares one empty set of them. */
  get listens(): Subscriptions {
    return this.#listens ?? NO_LISTENS;
  }

  #interactionsOf(): SessionInteractions {
    if (this.#interactions === undefined) {
      const host = this.host;
      this.#interactions = new SessionInteractions({
        sessionId: () => this.id,
        service: host.interactions,
        started: (interactionId, requestId) => this.#rememberAsking(interactionId, requestId),
        notifyAbout: (interactionId, method, params) => this.#notifyAbout(interactionId, method, params),
        report: (message, error) => host.report(message, error, this.id),
        clientName: (inbound) => {
          const info = statelessMeta(inbound.method, { _meta: inbound.meta })?.clientInfo ?? this.#clientInfo;
          const name = info?.title ?? info?.name;
          return typeof name === "string" ? name : undefined;
        },
      });
      const negotiated = this.#negotiated;
      if (negotiated !== undefined) this.#interactions.start(negotiated.revision, negotiated.clientCapabilities);
    }
    return this.#interactions;
  }

  get id(): string {
    const id = this.#transport?.sessionId;
    if (id !== undefined) return id;
    this.#localId ??= randomUUID();
    return this.#localId;
  }
  get protocolVersion(): string | undefined {
    return this.#protocolVersion;
  }
  get clientInfo(): Implementation | undefined {
    return this.#clientInfo;
  }
  get clientCapabilities(): ClientCapabilities | undefined {
    return this.#clientCapabilities;
  }
  get logLevel(): LoggingLevel | undefined {
    return this.#logLevel;
  }
  /** Whether `initialize` was answered and announced `capability` to this client. */
  announces(capability: keyof ServerCapabilities): boolean {
    return this.#protocolVersion !== undefined && this.#announced[capability] !== undefined;
  }

  /**
   * Starts serving on `transport`. A transport whose client initialized elsewhere (Streamable
   * HTTP without sessions) is served as if that `initialize` had happened here, at the revision it
   * names and with no client capabilities known.
   */
  async connect(transport: Transport): Promise<void> {
    this.#transport = transport;
    const presumed = transport.presumedHandshake && presumeHandshake(transport.presumedHandshake.protocolVersion);
    if (presumed !== undefined) {
      this.#initialized = true;
      this.#agree(presumed.revision, presumed.clientCapabilities);
      this.#rpc.setGate(createPresumedGate(presumed, this.#statelessGate()));
    }
    await this.#rpc.connect(transport);
  }

  close(): Promise<void> {
    return this.#rpc.close();
  }

  /** Sends a notification; failures go to the server's logger, never to the caller. */
  async notify(method: string, params?: Params): Promise<void> {
    if (!this.#rpc.isConnected) return;
    await this.#rpc
      .notify(method, params)
      .catch((error: unknown) => this.host.report(`Could not send ${method}`, error, this.id));
  }

  log(level: LoggingLevel, data: unknown, logger?: string, relatedRequestId?: RequestId): Promise<void> {
    if (this.#logLevel !== undefined && !isAtLeast(level, this.#logLevel)) return Promise.resolve();
    const params: Params = logger === undefined ? { level, data } : { level, logger, data };
    if (!this.#rpc.isConnected) return Promise.resolve();
    const options = relatedRequestId === undefined ? {} : { relatedRequestId };
    return this.#rpc
      .notify("notifications/message", params, options)
      .catch((error: unknown) => this.host.report("Could not send a log message", error, this.id));
  }

  async notifyElicitationComplete(elicitationId: string): Promise<boolean> {
    // Before any handshake or stateless request, the stateful notice goes to the gate, which refuses it.
    const revision = this.#negotiated?.revision ?? this.#statelessRevision ?? negotiateVersion(undefined);
    const notice = revision.elicitationCompleteNotice(elicitationId);
    if (notice === undefined) {
      this.#elicitations?.delete(elicitationId);
      return false;
    }
    await this.#notifyAbout(elicitationId, notice.method, notice.params);
    return true;
  }

  #notifyAbout(interactionId: string, method: string, params: Params): Promise<void> {
    // While the request that asked is still open, its own stream carries the completion, so the
    // client sees it before that request's result.
    const requestId = this.#elicitations?.get(interactionId);
    this.#elicitations?.delete(interactionId);
    const options = requestId === undefined ? {} : { relatedRequestId: requestId };
    return this.#rpc.notify(method, params, options);
  }

  #rememberAsking(interactionId: string, requestId: RequestId): void {
    this.#elicitations ??= new Map();
    if (this.#elicitations.size >= 1000) this.#elicitations.delete(this.#elicitations.keys().next().value ?? "");
    this.#elicitations.set(interactionId, requestId);
  }

  #initialize(params: Params, inbound: InboundRequest): InitializeResult {
    const { protocolVersion, capabilities, clientInfo } = params;
    const info = clientInfo as Implementation | undefined;
    if (typeof protocolVersion !== "string") {
      throw new ProtocolError(ErrorCode.InvalidParams, "Invalid params: protocolVersion must be a string");
    }
    if (typeof info?.name !== "string" || typeof info.version !== "string") {
      throw new ProtocolError(ErrorCode.InvalidParams, "Invalid params: clientInfo needs a name and a version");
    }
    if (capabilities !== undefined && (typeof capabilities !== "object" || capabilities === null)) {
      throw new ProtocolError(ErrorCode.InvalidParams, "Invalid params: capabilities must be an object");
    }
    const revision = negotiateVersion(protocolVersion);
    const clientCapabilities = (capabilities ?? {}) as ClientCapabilities;
    this.#clientInfo = info;
    this.#agree(revision, clientCapabilities);
    // Installed before returning, so the result itself is encoded for the agreed revision.
    this.#rpc.setGate(
      createGate(revision, {
        role: "server",
        peerCapabilities: clientCapabilities as Record<string, unknown>,
        initialized: () => this.#initialized,
        inFlight: [{ id: inbound.id, method: "initialize", params }],
      }),
    );
    const result: InitializeResult = {
      protocolVersion: revision.version,
      capabilities: this.#announced,
      serverInfo: this.host.serverInfo,
    };
    if (this.host.instructions !== undefined) result.instructions = this.host.instructions;
    return result;
  }

  /** What a handshake agrees, received (`initialize`) or presumed; the caller installs the gate. */
  #agree(revision: Revision, clientCapabilities: ClientCapabilities): void {
    this.#clientCapabilities = clientCapabilities;
    this.#announced = this.host.capabilities();
    this.#protocolVersion = revision.version;
    this.#transport?.setProtocolVersion?.(revision.version);
    this.#negotiated = { revision, clientCapabilities };
    this.#interactions?.start(revision, clientCapabilities);
    const tracking = revision.interactionTracking(clientCapabilities);
    if (tracking !== undefined) {
      const interactions = this.#interactionsOf();
      this.#rpc.setRequestHandler(tracking.method, (p, request) => interactions.track(p, request));
    }
  }

  async #serve(method: string, params: Params, inbound: InboundRequest): Promise<Result> {
    const modern = statelessMeta(method, params);
    const capability = CAPABILITY_OF[method];
    const offered = modern === undefined ? this.announces(capability ?? "logging") : this.#offers(capability);
    if (capability !== undefined && !offered) {
      throw new ProtocolError(
        ErrorCode.MethodNotFound,
        `Method not found: ${method} (the server does not offer ${capability})`,
      );
    }
    if (method === "logging/setLevel") {
      if (!isLoggingLevel(params.level)) {
        throw new ProtocolError(
          ErrorCode.InvalidParams,
          `Invalid params: unknown logging level ${JSON.stringify(params.level)}`,
        );
      }
      this.#logLevel = params.level;
      return {};
    }
    if (modern === undefined) {
      return this.#run(method, params, inbound, (this.#clientCapabilities ?? {}) as Record<string, unknown>);
    }
    this.#statelessRevision = STATELESS_REVISIONS[modern.protocolVersion];
    await this.host.checkHeaders(method, params, inbound.extra?.headers);
    const level = isLoggingLevel(modern.logLevel) ? modern.logLevel : undefined;
    const log = (lvl: LoggingLevel, data: unknown, logger: string | undefined, related: RequestId) =>
      level === undefined || !isAtLeast(lvl, level) ? Promise.resolve() : this.#send(lvl, data, logger, related);
    if (!allowsInputRounds(method)) return this.#run(method, params, inbound, modern.clientCapabilities, log);
    return this.#runInRounds(method, params, inbound, modern.clientCapabilities, log);
  }

  /** Whether the server offers `capability` now (stateless requests see the current definition). */
  #offers(capability: keyof ServerCapabilities | undefined): boolean {
    return capability === undefined || this.host.capabilities()[capability] !== undefined;
  }

  #send(level: LoggingLevel, data: unknown, logger: string | undefined, related: RequestId): Promise<void> {
    const params: Params = logger === undefined ? { level, data } : { level, logger, data };
    if (!this.#rpc.isConnected) return Promise.resolve();
    return this.#rpc
      .notify("notifications/message", params, { relatedRequestId: related })
      .catch((error: unknown) => this.host.report("Could not send a log message", error, this.id));
  }

  async #run(
    method: string,
    params: Params,
    inbound: InboundRequest,
    clientCapabilities: Record<string, unknown>,
    log?: LogSender,
  ): Promise<Result> {
    const ctx = this.#context(inbound, clientCapabilities, log);
    try {
      return await this.host.route(method, params, ctx, this);
    } catch (error) {
      if (!(error instanceof InteractionRequired)) throw error;
      return this.#interactionsOf().required(error, method, inbound);
    }
  }

  /**
   * A request that may answer `InputRequiredResult` (revision 2026-07-28): the handler runs with
   * asks answered from the retry; what it still needs ends the call with an `InputRequiredResult`.
   * The retry's answers to the previous round's pages are recorded first, and an `accept` for a
   * page still open is held until it completes (`handoffHoldMs`); a hand-off the previous round
   * started (`InteractionRequired`) that the user declined ends the call, and one still open after
   * the hold is asked for again, neither running the handler.
   */
  async #runInRounds(
    method: string,
    params: Params,
    inbound: InboundRequest,
    clientCapabilities: Record<string, unknown>,
    log: LogSender,
  ): Promise<Result> {
    const authInfo = inbound.extra?.authInfo;
    const state = requestStateFor(this.host.stateless, method, params, authInfo);
    const payload = state.open();
    const inputResponses =
      typeof params.inputResponses === "object" && params.inputResponses !== null
        ? (params.inputResponses as Record<string, unknown>)
        : undefined;
    const round = new InputRound(inbound, clientCapabilities, payload, inputResponses);
    const service = this.host.interactions;
    const answered =
      service === undefined ? [] : await settleHandoffs(round, service, this.host.stateless.handoffHoldMs);
    const refused = answered.find((answer) => answer.interaction === payload?.handoff && answer.action !== "accept");
    if (refused !== undefined && service !== undefined) {
      return refusedHandoffAnswer(method, refused, (await service.get(refused.interaction))?.message);
    }
    if (payload?.handoff !== undefined && service !== undefined) {
      // Declined on the page itself (the client had said `accept`): the call ends declined too,
      // rather than running the handler, which would only ask for the page again.
      const handoff = await service.get(payload.handoff);
      if (handoff?.status === "declined") {
        const key = payload.pending.find((ask) => ask.interaction === handoff.id)?.key ?? "";
        return refusedHandoffAnswer(method, { key, interaction: handoff.id, action: "decline" }, handoff.message);
      }
      const open = await this.#interactionsOf().openInteraction(payload.handoff);
      if (open !== undefined) {
        const key = payload.pending.find((ask) => ask.interaction === open.id)?.key ?? round.handoffKey();
        const page = { url: open.url, message: open.message, id: open.id };
        round.reask(key, "elicitation/create", { mode: "url", url: page.url, message: page.message }, open.id);
        return round.result(state.sign, open.id) as unknown as Result;
      }
    }
    let result: Result | undefined;
    let handoff: string | undefined;
    try {
      result = await this.host.route(method, params, this.#context(round.inbound, clientCapabilities, log), this);
    } catch (error) {
      if (error instanceof InteractionRequired) {
        const outcome = await this.#interactionsOf().requiredInRound(error, method, round);
        if ("answer" in outcome) return outcome.answer;
        handoff = outcome.handoff;
      } else if (!(error instanceof InputNeeded) || !round.needsInput) {
        throw error;
      }
    }
    if (round.needsInput || result === undefined) return round.result(state.sign, handoff) as unknown as Result;
    return result;
  }

  /** What every context of this connection borrows from it, made on the first request. */
  #newHooks(): ConnectionHooks {
    const connection = this;
    return {
      session: this,
      log: (level, data, logger, related) => this.log(level, data, logger, related),
      report: (message, error) => this.host.report(message, error, this.id),
      elicitationStarted: (elicitationId, requestId) => this.#rememberAsking(elicitationId, requestId),
      get interactions() {
        return connection.#interactionsOf();
      },
    };
  }

  #context(inbound: InboundRequest, clientCapabilities: Record<string, unknown>, log?: LogSender): RequestContext {
    this.#hooks ??= this.#newHooks();
    const hooks = this.#hooks;
    const source = this.host.interactions?.credentials;
    if (source === undefined && log === undefined && clientCapabilities === this.#clientCapabilities) {
      // The usual request of an initialized session: one host, made once, serves all its requests.
      this.#contextHost ??= contextHost(hooks, clientCapabilities);
      return createRequestContext(this.#contextHost, inbound);
    }
    return requestContext(hooks, inbound, clientCapabilities, log ?? hooks.log, source);
  }
}
