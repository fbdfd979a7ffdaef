/**
 * `McpClient`: connects to one MCP server, calls its tools, resources and prompts, and answers
 * what the server asks of the user (elicitation), of a model (sampling) and of the workspace
 * (roots). Written against the neutral model; the negotiated revision's gate handles the wire.
 */
import { SdkError } from "../jsonrpc/errors.js";
import type { JsonRpcSession, NotificationHandler } from "../jsonrpc/session.js";
import type { Transport } from "../jsonrpc/transport.js";
import { withDeadline } from "./checks.js";
import type { ConnectOptions, McpClientOptions } from "./connection.js";
import { type ElicitationRegistration, type HandlerHost, installRequestHandlers } from "./handlers.js";
import { type NotificationHooks, NotificationRouter } from "./notifications.js";
import { ClientRequests } from "./requests.js";
import { ChangeListener, type ListenFilter } from "./subscriptions.js";
import type {
  CallOptions,
  ClientCapabilities,
  ElicitationHandler,
  ElicitationMode,
  EmptyResult,
  Implementation,
  LoggingMessageParams,
  Root,
  RootsHandler,
  SamplingHandler,
  ServerRequestContext,
  SubscribeParams,
  UserInteractionHandler,
} from "./types.js";

/** Options of `setElicitationHandler`. */
export interface ElicitationHandlerOptions {
  /**
   * The modes the handler can present, declared as `elicitation: { form: {}, url: {} }`.
   * Default `["form"]`. URL mode needs a consent step that shows the full URL before opening it.
   */
  modes?: readonly ElicitationMode[];
}

/** Options of `setSamplingHandler`: optional sampling features to declare. */
export interface SamplingHandlerOptions {
  /** Declare `sampling.tools`: the handler accepts `tools` and `toolChoice`. */
  tools?: boolean;
  /** Declare `sampling.context` (soft-deprecated `includeContext` values). */
  context?: boolean;
}

/**
 * An MCP client for both eras: the stateful revisions (2024-11-05 through 2025-11-25, with the
 * `initialize` handshake) and the stateless one (2026-07-28: `server/discover`, per-request
 * `_meta`, `InputRequiredResult` answered by the same handlers set here). `connect` probes and
 * falls back; `options.protocolVersion` pins one.
 *
 * Set handlers before `connect`: the capabilities declared in `initialize` are derived from them
 * (unless `options.capabilities` is given). Every spec request is a method shaped
 * `(params, options?) => Promise<result>`; see `ClientRequests`.
 */
export class McpClient extends ClientRequests implements NotificationHooks {
  /** `notifications/tools/list_changed`; output schemas learnt from `tools/list` are dropped first. */
  onToolListChanged?: () => void;
  /** `notifications/resources/list_changed`. */
  onResourceListChanged?: () => void;
  /** `notifications/prompts/list_changed`. */
  onPromptListChanged?: () => void;
  /** `notifications/resources/updated` for a subscribed resource. */
  onResourceUpdated?: (uri: string) => void;
  /** `notifications/message`: a log entry at or above the level set with `setLoggingLevel`. */
  onLoggingMessage?: (params: LoggingMessageParams) => void;
  /**
   * `notifications/elicitation/complete` for a URL-mode elicitation this client accepted or got in
   * a -32042 error; each id at most once, unknown ids never (spec: client/elicitation).
   */
  onElicitationComplete?: (elicitationId: string) => void;
  /**
   * A form-mode elicitation refused before the elicitation handler saw it, because its message,
   * a field title or a description carries a URL (spec 2025-11-25: client/elicitation § Safe URL
   * Handling): the server got -32602, or, inside an `InputRequiredResult`, the call fails with
   * SdkError "INVALID_RESULT". `reason` names the rule, not the URL; `ctx.serverInfo` says which
   * server tried, for telling the user.
   */
  onElicitationRefused?: (reason: string, ctx: ServerRequestContext) => void;

  private elicitation: ElicitationRegistration | undefined;
  private sampling: { handler: SamplingHandler; options: SamplingHandlerOptions } | undefined;
  private rootsHandler: RootsHandler | undefined;
  private userInteraction: UserInteractionHandler | undefined;
  private readonly router: NotificationRouter;
  private readonly host: HandlerHost;
  /** The `subscriptions/listen` request of the stateless era. */
  private readonly changes: ChangeListener;

  /**
   * @param info `clientInfo`: `{ name, version, title? }`.
   * @param options `capabilities` to declare as is, `protocolVersion` to propose (default the
   *   newest), `defaultTimeoutMs` (ms, default 60,000).
   * @throws SdkError "INVALID_ARGUMENT" for a protocol version this package does not speak.
   */
  constructor(info: Implementation, options: McpClientOptions = {}) {
    super(info, options);
    this.changes = new ChangeListener({
      listen: (filter, signal) =>
        this.call("subscriptions/listen", { notifications: filter }, { signal, timeoutMs: Number.POSITIVE_INFINITY }),
      listChanges: () => this.listChangesWanted(),
      report: (error) => this.onerror?.(error),
      ...(options.listenRetryDelayMs === undefined ? {} : { retryDelayMs: options.listenRetryDelayMs }),
    });
    this.router = new NotificationRouter(this, this.elicitations, () => this.outputValidator.forget(), this.changes);
    const client = this;
    this.host = {
      get elicitation() {
        return client.elicitation;
      },
      get sampling() {
        return client.sampling?.handler;
      },
      get roots() {
        return client.rootsHandler;
      },
      get userInteraction() {
        return client.userInteraction;
      },
      get declared() {
        return client.sentCapabilities;
      },
      get serverInfo() {
        return client.serverInfo;
      },
      elicitations: this.elicitations,
      checkAnswer: (method, params, result) => this.checkAnswer(method, params, result),
      report: (error) => this.onerror?.(error),
      refused: (reason, ctx) => this.onElicitationRefused?.(reason, ctx),
    };
    this.inputHost = this.host;
  }

  /**
   * Connects (see `ClientConnection.connect`). With a stateless-era server, then opens
   * `subscriptions/listen` for the list-change hooks already set (`onToolListChanged`,
   * `onPromptListChanged`, `onResourceListChanged`) among the changes the server offers; a refusal
   * of that listen goes to `onerror` and does not fail the connection.
   */
  override async connect(transport: Transport, options?: ConnectOptions): Promise<void> {
    await super.connect(transport, options);
    if (this.isStateless) await this.changes.reopen().catch((error: unknown) => this.reportError(error));
  }

  /** Cancels the open `subscriptions/listen`, if any, then closes the transport. */
  override async close(): Promise<void> {
    this.changes.close();
    await super.close();
  }

  /**
   * Re-opens the stateless era's `subscriptions/listen` with the list-change hooks set now, for
   * hooks set after `connect`; resolves once the server acknowledged it. The stateful era needs
   * nothing (its servers send list changes unasked), so there it resolves at once.
   * @throws SdkError "NOT_CONNECTED" before `connect`; ProtocolError the server's refusal.
   */
  async listenForChanges(): Promise<void> {
    this.requireConnected("subscriptions/listen");
    if (this.isStateless) await this.changes.reopen();
  }

  /**
   * Subscribes to changes of `params.uri`; `onResourceUpdated` then hears about them. Stateful
   * era: `resources/subscribe`. Stateless era (2026-07-28: basic/patterns/subscriptions): the URI
   * joins the filter of the client's one `subscriptions/listen`, which is re-opened and awaited
   * until acknowledged; `options.signal` and `options.timeoutMs` (ms, default the client's
   * `defaultTimeoutMs`) bound that wait, and giving up takes the URI out of the filter again.
   * @throws SdkError "CAPABILITY_NOT_SUPPORTED" without the server's `resources.subscribe`;
   *   "NOT_CONNECTED" before `connect`; "REQUEST_TIMEOUT" / "REQUEST_CANCELLED" when the wait
   *   ends first; ProtocolError the server's refusal.
   */
  override async subscribeResource(params: SubscribeParams, options?: CallOptions): Promise<EmptyResult> {
    if (!this.isStateless) return await super.subscribeResource(params, options);
    this.requireResourceSubscribe();
    try {
      await this.withinOptions(this.changes.subscribe(params.uri), options, "subscribing to a resource");
    } catch (error) {
      if (error instanceof SdkError && (error.code === "REQUEST_TIMEOUT" || error.code === "REQUEST_CANCELLED")) {
        this.changes.abandon(params.uri).catch((cause: unknown) => this.reportError(cause));
      }
      throw error;
    }
    return {};
  }

  /**
   * Stops the updates of `params.uri`: `resources/unsubscribe`, or in the stateless era the URI
   * leaves the listen's filter (re-opened, or cancelled when nothing is left to hear).
   * @throws as `subscribeResource`.
   */
  override async unsubscribeResource(params: SubscribeParams, options?: CallOptions): Promise<EmptyResult> {
    if (!this.isStateless) return await super.unsubscribeResource(params, options);
    this.requireResourceSubscribe();
    await this.withinOptions(this.changes.unsubscribe(params.uri), options, "unsubscribing from a resource");
    return {};
  }

  /** Waits for `work` within a call's `signal` and `timeoutMs` (default `defaultTimeoutMs`). */
  private withinOptions<T>(work: Promise<T>, options: CallOptions | undefined, what: string): Promise<T> {
    const timeoutMs = options?.timeoutMs ?? this.options.defaultTimeoutMs ?? 60_000;
    return withDeadline(work, timeoutMs, options?.signal, what);
  }

  /**
   * Answers `elicitation/create`. The handler gets `(params, ctx)`: form params
   * `{ mode: "form", message, requestedSchema }` (also for older servers that omit `mode`) or URL
   * params `{ mode: "url", message, url, elicitationId }`, and `ctx` with `signal` and `serverInfo`.
   *
   * A form `accept` gets the schema's defaults filled in and is validated before it is sent; an
   * answer that still does not match is reported to `onerror` and the server gets -32603. `decline`
   * and `cancel` are sent without content. A URL `accept` is sent without content and its
   * `elicitationId` is awaited for `onElicitationComplete`. A request in a mode the client did not
   * declare is answered -32602 without calling the handler, and so is a form whose message,
   * field titles or descriptions carry a URL (see `onElicitationRefused`).
   * @throws SdkError "INVALID_ARGUMENT" when `modes` is empty or names an unknown mode.
   */
  setElicitationHandler(handler: ElicitationHandler, options: ElicitationHandlerOptions = {}): void {
    const modes = options.modes ?? ["form"];
    if (modes.length === 0 || modes.some((mode) => mode !== "form" && mode !== "url")) {
      throw new SdkError(
        "INVALID_ARGUMENT",
        `Elicitation modes must be "form" and/or "url", got ${JSON.stringify(modes)}`,
      );
    }
    this.elicitation = { handler, modes: [...modes] };
  }

  /** Answers `sampling/createMessage`; declares `sampling` (and `tools` / `context` when asked). */
  setSamplingHandler(handler: SamplingHandler, options: SamplingHandlerOptions = {}): void {
    this.sampling = { handler, options };
  }

  /**
   * Answers the user-interaction proposal's `interaction/create` and declares
   * `userInteraction: { types: ["ua"] }`, which lets the server also answer -32003 and lets this
   * client send `interaction/track`. The handler gets `{ id, url, message? }` and `ctx`; `accept`
   * means the page was opened with the user's consent. A type other than `ua` is answered -32602.
   */
  setUserInteractionHandler(handler: UserInteractionHandler): void {
    this.userInteraction = handler;
  }

  /** Answers `roots/list` with a handler; declares `roots: { listChanged: true }`. */
  setRootsHandler(handler: RootsHandler): void {
    this.rootsHandler = handler;
  }

  /**
   * Sets the roots `roots/list` answers with (`file://` URIs). When connected and the roots
   * capability was declared, tells the server with `notifications/roots/list_changed`.
   */
  async setRoots(roots: readonly Root[]): Promise<void> {
    const copy = roots.map((root) => ({ ...root }));
    this.rootsHandler = () => ({ roots: copy.map((root) => ({ ...root })) });
    if (this.isConnected && this.sentCapabilities.roots?.listChanged === true) await this.sendRootsListChanged();
  }

  /**
   * Sends `notifications/roots/list_changed`, for handlers whose answer changed.
   * @throws SdkError "NOT_CONNECTED" before `connect`; "CAPABILITY_NOT_SUPPORTED" when
   *   `roots.listChanged` was not declared.
   */
  async sendRootsListChanged(): Promise<void> {
    if (!this.isConnected || !this.session) throw new SdkError("NOT_CONNECTED", "The client is not connected");
    if (this.sentCapabilities.roots?.listChanged !== true) {
      throw new SdkError("CAPABILITY_NOT_SUPPORTED", "This client did not declare roots.listChanged");
    }
    await this.session.notify("notifications/roots/list_changed");
  }

  /**
   * Handles any server notification `method` with the params as received. For methods with a
   * typed hook (`onToolListChanged`, ...) both run; the hook first.
   * @throws SdkError "INVALID_ARGUMENT" for `notifications/cancelled` and `notifications/progress`.
   */
  setNotificationHandler(method: string, handler: NotificationHandler): void {
    this.router.set(method, handler);
  }

  private requireConnected(method: string): void {
    if (!this.isConnected) throw new SdkError("NOT_CONNECTED", `Cannot send ${method}: the client is not connected`);
  }

  private requireResourceSubscribe(): void {
    this.requireConnected("subscriptions/listen");
    if (this.serverCapabilities?.resources?.subscribe !== true) {
      throw new SdkError("CAPABILITY_NOT_SUPPORTED", "The server does not offer resources.subscribe");
    }
  }

  /** The list changes to listen for: a hook is set and the server says the list can change. */
  private listChangesWanted(): Omit<ListenFilter, "resourceSubscriptions"> {
    const caps = this.serverCapabilities ?? {};
    const wanted: Omit<ListenFilter, "resourceSubscriptions"> = {};
    if (this.onToolListChanged && caps.tools?.listChanged) wanted.toolsListChanged = true;
    if (this.onPromptListChanged && caps.prompts?.listChanged) wanted.promptsListChanged = true;
    if (this.onResourceListChanged && caps.resources?.listChanged) wanted.resourcesListChanged = true;
    return wanted;
  }

  private reportError(error: unknown): void {
    this.onerror?.(error instanceof Error ? error : new Error(String(error)));
  }

  protected declaredCapabilities(): ClientCapabilities {
    if (this.options.capabilities) return this.options.capabilities;
    const capabilities: ClientCapabilities = {};
    if (this.elicitation) {
      capabilities.elicitation = Object.fromEntries(this.elicitation.modes.map((mode) => [mode, {}]));
    }
    if (this.sampling) {
      const { tools, context } = this.sampling.options;
      capabilities.sampling = { ...(tools ? { tools: {} } : {}), ...(context ? { context: {} } : {}) };
    }
    if (this.rootsHandler) capabilities.roots = { listChanged: true };
    // An extension capability, which the generated shape of ClientCapabilities does not name.
    if (this.userInteraction) (capabilities as Record<string, unknown>).userInteraction = { types: ["ua"] };
    return capabilities;
  }

  protected install(session: JsonRpcSession): void {
    installRequestHandlers(session, this.host);
    this.router.install(session);
  }
}
