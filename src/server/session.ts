/**
 * One client connection of an `McpServer`: the per-session state (negotiated revision, log level,
 * resource subscriptions, hand-offs) and the serving of the server's method table, each request
 * through the driver of the era it is written in (`eras/`).
 */
import { randomUUID } from "node:crypto";
import { ErrorCode, ProtocolError } from "../jsonrpc/errors.js";
import type { MessageGate } from "../jsonrpc/gate.js";
import type { RequestId } from "../jsonrpc/messages.js";
import {
  type InboundRequest,
  JsonRpcSession,
  type Params,
  type Result,
  type SessionDelegate,
} from "../jsonrpc/session.js";
import type { Transport } from "../jsonrpc/transport.js";
import type { UserInteraction } from "../model/interaction.js";
import type { ClientCapabilities, Implementation, Revision, ServerCapabilities } from "../revisions/index.js";
import { negotiateVersion } from "../revisions/index.js";
import { ATTR } from "../tracing/index.js";
import {
  type AgreedHandshake,
  hasSessionId,
  type PresumedSession,
  presumedHandshakeOf,
  type SessionChange,
  type SharedSession,
  sharedSessionOf,
  takesProtocolVersion,
} from "../transports/features.js";
import { createRequestContext, type HandoffApi, type RequestContext } from "./context.js";
import {
  type ConnectionSettings,
  driverFor,
  type EraConnection,
  entryGate,
  type HandlerMethod,
  listensOf,
  presumedGate,
} from "./eras/index.js";
import type { Subscriptions } from "./eras/subscriptions.js";
import type { ServerSession } from "./handler-types.js";
import { isAtLeast, isLoggingLevel, type LoggingLevel } from "./logging.js";
import type { MethodTable } from "./methods.js";
import { serveHandler } from "./methods.js";
import { presumedFrom } from "./presumed-handshake.js";
import { newRareState, type RareState } from "./rare-state.js";
import { type ConnectionHooks, contextHost, type LogSender, requestContext, withHandoffs } from "./request-contexts.js";
import { SessionInteractions } from "./session-interactions.js";

/** What a session needs from the server that owns it: data shared by all its sessions, and where to report. */
export interface SessionHost extends ConnectionSettings {
  /** Every method the server serves. */
  readonly methods: MethodTable;
  report(message: string, error: unknown, sessionId?: string): void;
  closed(session: ServerConnection): void;
}

/** The capabilities announced before any handshake: none (one frozen object for every connection). */
const NO_CAPABILITIES: ServerCapabilities = Object.freeze({});

export class ServerConnection implements ServerSession, EraConnection {
  readonly #rpc = new JsonRpcSession();
  #transport: Transport | undefined;
  #clientInfo: Implementation | undefined;
  #clientCapabilities: ClientCapabilities | undefined;
  /** What every request context of this connection borrows from it, made on the first request. */
  #hooks: ConnectionHooks | undefined;
  /** What every request context of this initialized session shares, made on the first request. */
  #contextHost: ReturnType<typeof contextHost> | undefined;
  #announced: ServerCapabilities = NO_CAPABILITIES;
  #initialized = false;
  /** The revision `initialize` agreed (with `#clientCapabilities`), which the hand-offs start from. */
  #negotiated: Revision | undefined;
  /** What few connections keep (see `RareState`), made with the first of it: an idle session holds one field for it. */
  #rare: RareState | undefined;

  /** The rare state, made with the first of it. */
  private rare(): RareState {
    this.#rare ??= newRareState();
    return this.#rare;
  }

  /** The revision agreed, received (`initialize`) or presumed. */
  private get agreedVersion(): string | undefined {
    return this.#negotiated?.version;
  }

  /**
   * How every connection's JSON-RPC session reaches its connection: one object for all of them,
   * so that an idle session (one open HTTP session among thousands) holds no handler closures.
   * The fixed table of methods is served by one handler (each request names its own).
   */
  static readonly #delegate: SessionDelegate<ServerConnection> = {
    acceptsRequest: (connection, method) => connection.host.methods.has(method),
    serveRequest: (connection, params, inbound) => connection.dispatch(params, inbound),
    acceptsNotification: (_connection, method) => method === "notifications/initialized",
    serveNotification: (connection) => {
      connection.#initialized = true;
    },
    failed: (connection, error) => connection.host.report("Session error", error, connection.id),
    closed: (connection) => {
      const rare = connection.#rare;
      void rare?.interactions?.close();
      if (rare !== undefined) rare.subscriptions = undefined;
      listensOf(connection).clear();
      connection.host.closed(connection);
    },
  };

  constructor(private readonly host: SessionHost) {
    // Serves both eras until `initialize` (if any) installs the negotiated revision's gate.
    this.#rpc.setGate(entryGate(host));
    this.#rpc.setDelegate(ServerConnection.#delegate, this);
  }

  private dispatch(params: Params, inbound: InboundRequest): Result | Promise<Result> {
    const tracing = this.host.tracing;
    if (!tracing.wouldTrace(inbound.meta)) return this.serveMethod(params, inbound);
    const method = inbound.method;
    const target = method === "tools/call" || method === "prompts/get" ? params.name : undefined;
    const named = typeof target === "string" && target.length <= 128 ? target : undefined;
    const sessionId = hasSessionId(this.#transport) ? this.#transport.sessionId : undefined;
    const attributes = {
      [ATTR.methodName]: method,
      [ATTR.requestId]: String(inbound.id),
      [ATTR.sessionId]: sessionId,
      [method === "prompts/get" ? ATTR.promptName : ATTR.toolName]: named,
    };
    return tracing.serve(
      named === undefined ? method : `${method} ${named}`,
      attributes,
      inbound.meta,
      () => this.serveMethod(params, inbound),
      (result, span) => {
        const version = this.agreedVersion ?? this.#rare?.statelessRevision?.version;
        if (version !== undefined) span.setAttribute(ATTR.protocolVersion, version);
        return result?.isError === true ? "tool_error" : undefined;
      },
    );
  }

  private serveMethod(params: Params, inbound: InboundRequest): Result | Promise<Result> {
    const method = inbound.method;
    const spec = this.host.methods.get(method);
    if (spec === undefined) throw new Error(`No route for ${method}`);
    if (spec.by === "entry") return spec.serve(this, params, inbound);
    return driverFor(method, params).serve(this, method, spec, params, inbound);
  }

  subscribe(uri: string): Promise<void> | undefined {
    const rare = this.rare();
    rare.subscriptions ??= new Set();
    rare.subscriptions.add(uri);
    return this.recordChange({ subscribe: uri });
  }

  unsubscribe(uri: string): Promise<void> | undefined {
    this.#rare?.subscriptions?.delete(uri);
    return this.recordChange({ unsubscribe: uri });
  }

  /** Whether this client subscribed to `uri` with `resources/subscribe` (and did not unsubscribe). */
  isSubscribed(uri: string): boolean {
    return this.#rare?.subscriptions?.has(uri) === true;
  }

  /** Open `subscriptions/listen` requests; a session that never listened shares one empty set of them. */
  get listens(): Subscriptions {
    return listensOf(this);
  }

  get settings(): ConnectionSettings {
    return this.host;
  }

  get initialized(): boolean {
    return this.#initialized;
  }

  /** The connection's hand-offs, made on first use. */
  get interactions(): SessionInteractions {
    const made = this.#rare?.interactions;
    if (made !== undefined) return made;
    const host = this.host;
    const interactions = new SessionInteractions({
      sessionId: () => this.id,
      service: host.interactions,
      started: (interactionId, requestId) => this.rememberAsking(interactionId, requestId),
      notifyAbout: (interactionId, method, params) => this.notifyAbout(interactionId, method, params),
      report: (message, error) => host.report(message, error, this.id),
      tracing: host.tracing,
      clientName: (inbound) => {
        const info = driverFor(inbound.method, { _meta: inbound.meta }).clientInfo(this, inbound);
        const name = info?.title ?? info?.name;
        return typeof name === "string" ? name : undefined;
      },
      clientInfo: (inbound) => driverFor(inbound.method, { _meta: inbound.meta }).clientInfo(this, inbound),
      ladder: host.handoffs,
    });
    this.rare().interactions = interactions;
    const negotiated = this.#negotiated;
    if (negotiated !== undefined) interactions.start(negotiated, this.#clientCapabilities ?? {}, this.#clientInfo);
    return interactions;
  }

  get id(): string {
    const id = hasSessionId(this.#transport) ? this.#transport.sessionId : undefined;
    if (id !== undefined) return id;
    const rare = this.rare();
    rare.localId ??= randomUUID();
    return rare.localId;
  }
  get protocolVersion(): string | undefined {
    return this.agreedVersion;
  }
  get clientInfo(): Implementation | undefined {
    return this.#clientInfo;
  }
  get clientCapabilities(): ClientCapabilities | undefined {
    return this.#clientCapabilities;
  }
  get logLevel(): LoggingLevel | undefined {
    return this.#rare?.logLevel;
  }
  /** Whether `initialize` was answered and announced `capability` to this client. */
  announces(capability: keyof ServerCapabilities): boolean {
    return this.agreedVersion !== undefined && this.#announced[capability] !== undefined;
  }

  /**
   * Starts serving on `transport`. A transport whose client initialized elsewhere (Streamable
   * HTTP without sessions) is served as if that `initialize` had happened here, at the revision it
   * names and with no client capabilities known.
   */
  async connect(transport: Transport): Promise<void> {
    this.#transport = transport;
    const shared = sharedSessionOf(transport);
    if (shared !== undefined) this.shareWith(shared);
    const handshake = presumedHandshakeOf(transport);
    const presumed = handshake && presumedFrom(handshake);
    if (presumed !== undefined) {
      this.#initialized = true;
      // First: settling may start the hand-offs, whose choice of form reads the client's clientInfo.
      if (handshake?.session !== undefined) this.resumeFrom(handshake.session);
      this.settle(presumed.revision, presumed.clientCapabilities);
      this.#rpc.setGate(presumedGate(presumed, this.host));
    }
    await this.#rpc.connect(transport);
  }

  /** Serves a replica of a fleet's session: ids that find this instance, and the client's changes made elsewhere. */
  private shareWith(shared: SharedSession): void {
    this.rare().shared = shared;
    this.#rpc.setRequestIdPrefix(shared.requestIdPrefix);
    shared.onchange = (change) => this.applyChange(change);
    // The instance holding the client's GET stream also hears the session's hand-offs complete,
    // so a completion still reaches the client when the instance that asked is gone.
    shared.onlisten = () => {
      if (this.host.interactions !== undefined) this.interactions.listen();
    };
  }

  /** What the client agreed and changed on the instances that served the session before. */
  private resumeFrom(session: PresumedSession): void {
    this.#clientInfo = session.clientInfo as Implementation;
    if (isLoggingLevel(session.logLevel)) this.rare().logLevel = session.logLevel;
    if (session.subscriptions.length > 0) this.rare().subscriptions = new Set(session.subscriptions);
  }

  /** Records a change of the client's for the other instances of a fleet; `undefined` outside one. */
  private recordChange(change: SessionChange): Promise<void> | undefined {
    return this.#rare?.shared?.changed(change).catch((error: unknown) => {
      this.host.report("Could not record a change of the session for the other instances", error, this.id);
      throw new ProtocolError(ErrorCode.InternalError, "Internal error: the change could not be recorded; try again");
    });
  }

  private applyChange(change: SessionChange): void {
    if ("logLevel" in change) {
      if (isLoggingLevel(change.logLevel)) this.rare().logLevel = change.logLevel;
    } else if ("subscribe" in change) {
      const rare = this.rare();
      rare.subscriptions ??= new Set();
      rare.subscriptions.add(change.subscribe);
    } else this.#rare?.subscriptions?.delete(change.unsubscribe);
  }

  /**
   * Records what `initialize` agreed for the other instances of a fleet; `undefined` when the
   * session is not shared. The `initialize` answer waits for it.
   */
  shareHandshake(): Promise<void> | undefined {
    const shared = this.#rare?.shared;
    const version = this.agreedVersion;
    if (shared === undefined || version === undefined) return undefined;
    const agreed = {
      protocolVersion: version,
      clientCapabilities: (this.#clientCapabilities ?? {}) as Record<string, unknown>,
      clientInfo: (this.#clientInfo ?? { name: "", version: "" }) as AgreedHandshake["clientInfo"],
    };
    return shared.agreed(agreed).catch((error: unknown) => {
      this.host.report("Could not record the session for the other instances", error, this.id);
      // The client can only initialize again: this session was never known anywhere else.
      throw new ProtocolError(ErrorCode.InternalError, "Internal error: the session could not be recorded; try again");
    });
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
    const least = this.#rare?.logLevel;
    if (least !== undefined && !isAtLeast(level, least)) return Promise.resolve();
    return this.sendLog(level, data, logger, relatedRequestId);
  }

  setLogLevel(level: LoggingLevel): Promise<void> | undefined {
    this.rare().logLevel = level;
    return this.recordChange({ logLevel: level });
  }

  sendLog(level: LoggingLevel, data: unknown, logger: string | undefined, related?: RequestId): Promise<void> {
    const params: Params = logger === undefined ? { level, data } : { level, logger, data };
    if (!this.#rpc.isConnected) return Promise.resolve();
    return this.#rpc
      .notify("notifications/message", params, related === undefined ? {} : { relatedRequestId: related })
      .catch((error: unknown) => this.host.report("Could not send a log message", error, this.id));
  }

  /**
   * Tells this connection's client that `interaction`, done on this instance, is over
   * (`InteractionService.deliverCompletionsWith`). @returns whether the notice was sent.
   * @throws what sending throws.
   */
  tellInteractionDone(interaction: UserInteraction): Promise<boolean> {
    if (this.host.interactions === undefined || !this.#rpc.isConnected) return Promise.resolve(false);
    return this.interactions.tell(interaction);
  }

  async notifyElicitationComplete(elicitationId: string): Promise<boolean> {
    // Before any handshake or stateless request, the stateful notice goes to the gate, which refuses it.
    const revision = this.#negotiated ?? this.#rare?.statelessRevision ?? negotiateVersion(undefined);
    const notice = revision.elicitationCompleteNotice(elicitationId);
    if (notice === undefined) {
      this.#rare?.elicitations?.delete(elicitationId);
      return false;
    }
    await this.notifyAbout(elicitationId, notice.method, notice.params);
    return true;
  }

  private notifyAbout(interactionId: string, method: string, params: Params): Promise<void> {
    // While the request that asked is still open, its own stream carries the completion, so the
    // client sees it before that request's result.
    const asked = this.#rare?.elicitations;
    const requestId = asked?.get(interactionId);
    asked?.delete(interactionId);
    const options = requestId === undefined ? {} : { relatedRequestId: requestId };
    return this.#rpc.notify(method, params, options);
  }

  private rememberAsking(interactionId: string, requestId: RequestId): void {
    const rare = this.rare();
    rare.elicitations ??= new Map();
    if (rare.elicitations.size >= 1000) rare.elicitations.delete(rare.elicitations.keys().next().value ?? "");
    rare.elicitations.set(interactionId, requestId);
  }

  setGate(gate: MessageGate): void {
    this.#rpc.setGate(gate);
  }

  agree(revision: Revision, clientCapabilities: ClientCapabilities, clientInfo: Implementation): ServerCapabilities {
    this.#clientInfo = clientInfo;
    this.settle(revision, clientCapabilities);
    return this.#announced;
  }

  servedStateless(revision: Revision): void {
    this.rare().statelessRevision = revision;
  }

  /** What a handshake agrees, received (`initialize`) or presumed; the caller installs the gate. */
  private settle(revision: Revision, clientCapabilities: ClientCapabilities): void {
    this.#clientCapabilities = clientCapabilities;
    this.#announced = this.host.definition.capabilities();
    if (takesProtocolVersion(this.#transport)) this.#transport.setProtocolVersion(revision.version);
    this.#negotiated = revision;
    this.#rare?.interactions?.start(revision, clientCapabilities, this.#clientInfo);
    const tracking = revision.interactionTracking(clientCapabilities);
    if (tracking !== undefined) {
      const interactions = this.interactions;
      this.#rpc.setRequestHandler(tracking.method, (p, request) => interactions.track(p, request));
    }
  }

  route(method: string, spec: HandlerMethod, params: Params, ctx: RequestContext): Result | Promise<Result> {
    return serveHandler(method, spec, params, ctx, this, (message, error) => this.host.report(message, error, this.id));
  }

  /** What every context of this connection borrows from it, made on the first request. */
  private newHooks(): ConnectionHooks {
    const connection = this;
    return {
      session: this,
      log: (level, data, logger, related) => this.log(level, data, logger, related),
      report: (message, error) => this.host.report(message, error, this.id),
      elicitationStarted: (elicitationId, requestId) => this.rememberAsking(elicitationId, requestId),
      clientInfo: (inbound) => driverFor(inbound.method, { _meta: inbound.meta }).clientInfo(this, inbound),
      get interactions() {
        return connection.interactions;
      },
    };
  }

  context(
    inbound: InboundRequest,
    clientCapabilities: Record<string, unknown>,
    log?: LogSender,
    handoffs?: HandoffApi,
  ): RequestContext {
    this.#hooks ??= this.newHooks();
    const hooks = handoffs === undefined ? this.#hooks : withHandoffs(this.#hooks, handoffs);
    const source = this.host.interactions?.credentials;
    if (
      source === undefined &&
      log === undefined &&
      hooks === this.#hooks &&
      clientCapabilities === this.#clientCapabilities
    ) {
      // The usual request of an initialized session: one host, made once, serves all its requests.
      this.#contextHost ??= contextHost(hooks, clientCapabilities);
      return createRequestContext(this.#contextHost, inbound);
    }
    return requestContext(hooks, inbound, clientCapabilities, log ?? hooks.log, source);
  }
}
