/**
 * `McpClient`: connects to one MCP server, calls its tools, resources and prompts, and answers
 * what the server asks of the user (elicitation), of a model (sampling) and of the workspace
 * (roots). Written against the neutral model; the negotiated revision's gate handles the wire.
 */
import { SdkError } from "../jsonrpc/errors.js";
import type { NotificationHandler } from "../jsonrpc/session.js";
import type { Transport } from "../jsonrpc/transport.js";
import { ClientConnection } from "./connection.js";
import { installRequestHandlers } from "./handlers.js";
import { listChangesWanted, type NotificationHooks, NotificationRouter } from "./notifications.js";
import type { ConnectOptions, ElicitationHandlerOptions, McpClientOptions, SamplingHandlerOptions } from "./options.js";
import { HandlerRegistry } from "./registry.js";
import { ClientRequests } from "./requests.js";
import type {
  ElicitationHandler,
  Implementation,
  InitializeResult,
  LoggingMessageParams,
  Root,
  RootsHandler,
  SamplingHandler,
  ServerCapabilities,
  ServerRequestContext,
  UserInteractionHandler,
} from "./types.js";

/**
 * An MCP client for both eras: the stateful revisions (2024-11-05 through 2025-11-25, with the
 * `initialize` handshake) and the stateless one (2026-07-28: `server/discover`, per-request
 * `_meta`, `InputRequiredResult` answered by the same handlers set here). `connect` probes and
 * falls back; `options.protocolVersion` pins one.
 *
 * Set handlers before `connect`: the capabilities declared in `initialize` are derived from them
 * (unless `options.capabilities` is given). Every spec request is a method shaped
 * `(params, options?) => Promise<result>`; see `ClientRequests`. The typed notification hooks
 * (`onToolListChanged`, ...) are fields of one `NotificationHooks` object, set on the client.
 */
export class McpClient extends ClientRequests {
  /** Called once when the connection closes. */
  onclose?: () => void;
  /** Non-fatal problems: a handler that failed, a bad notification, a transport error. */
  onerror?: (error: Error) => void;

  /** The typed notification hooks, read when each notification arrives. */
  readonly #hooks: NotificationHooks = {};
  readonly #handlers: HandlerRegistry;
  protected readonly connection: ClientConnection;
  readonly #router: NotificationRouter;

  /**
   * @param info `clientInfo`: `{ name, version, title? }`.
   * @param options `capabilities` to declare as is, `protocolVersion` to propose (default the
   *   newest), `defaultTimeoutMs` (ms, default 60,000).
   * @throws SdkError "INVALID_ARGUMENT" for a protocol version this package does not speak.
   */
  constructor(
    /** This client's name, version and optional title, sent as `clientInfo`. */
    readonly info: Implementation,
    options: McpClientOptions = {},
  ) {
    super();
    this.#handlers = new HandlerRegistry({
      get declared() {
        return connection.sentCapabilities;
      },
      get serverInfo() {
        return connection.handshake?.serverInfo;
      },
      checkAnswer: (method, params, result) => connection.checkAnswer(method, params, result),
      report: (error) => this.onerror?.(error),
      refused: (reason, ctx) => this.#hooks.onElicitationRefused?.(reason, ctx),
    });
    const connection = new ClientConnection(info, options, {
      handlers: this.#handlers,
      declaredCapabilities: () => this.#handlers.capabilities(options.capabilities),
      install: (session) => {
        installRequestHandlers(session, this.#handlers);
        this.#router.install(session);
      },
      checkOutput: (method, params, result) => this.checkOutput(method, params, result),
      listChanges: () => listChangesWanted(this.#hooks, this.serverCapabilities ?? {}),
      report: (error) => this.onerror?.(error),
      closed: () => this.onclose?.(),
    });
    this.connection = connection;
    const forget = () => this.outputValidator.forget();
    this.#router = new NotificationRouter(this.#hooks, this.#handlers.elicitations, forget, connection.listens);
  }

  /** `notifications/tools/list_changed`; output schemas learnt from `tools/list` are dropped first. */
  get onToolListChanged(): (() => void) | undefined {
    return this.#hooks.onToolListChanged;
  }
  set onToolListChanged(hook: (() => void) | undefined) {
    this.#hooks.onToolListChanged = hook;
  }
  /** `notifications/resources/list_changed`. */
  get onResourceListChanged(): (() => void) | undefined {
    return this.#hooks.onResourceListChanged;
  }
  set onResourceListChanged(hook: (() => void) | undefined) {
    this.#hooks.onResourceListChanged = hook;
  }
  /** `notifications/prompts/list_changed`. */
  get onPromptListChanged(): (() => void) | undefined {
    return this.#hooks.onPromptListChanged;
  }
  set onPromptListChanged(hook: (() => void) | undefined) {
    this.#hooks.onPromptListChanged = hook;
  }
  /** `notifications/resources/updated` for a subscribed resource. */
  get onResourceUpdated(): ((uri: string) => void) | undefined {
    return this.#hooks.onResourceUpdated;
  }
  set onResourceUpdated(hook: ((uri: string) => void) | undefined) {
    this.#hooks.onResourceUpdated = hook;
  }
  /** `notifications/message`: a log entry at or above the level set with `setLoggingLevel`. */
  get onLoggingMessage(): ((params: LoggingMessageParams) => void) | undefined {
    return this.#hooks.onLoggingMessage;
  }
  set onLoggingMessage(hook: ((params: LoggingMessageParams) => void) | undefined) {
    this.#hooks.onLoggingMessage = hook;
  }
  /**
   * `notifications/elicitation/complete` for a URL-mode elicitation this client accepted or got in
   * a -32042 error; each id at most once, unknown ids never (spec: client/elicitation).
   */
  get onElicitationComplete(): ((elicitationId: string) => void) | undefined {
    return this.#hooks.onElicitationComplete;
  }
  set onElicitationComplete(hook: ((elicitationId: string) => void) | undefined) {
    this.#hooks.onElicitationComplete = hook;
  }
  /**
   * A form-mode elicitation refused before the elicitation handler saw it, because its message,
   * a field title or a description carries a URL (spec 2025-11-25: client/elicitation § Safe URL
   * Handling): the server got -32602, or, inside an `InputRequiredResult`, the call fails with
   * SdkError "INVALID_RESULT". `reason` names the rule, not the URL; `ctx.serverInfo` says which
   * server tried, for telling the user.
   */
  get onElicitationRefused(): ((reason: string, ctx: ServerRequestContext) => void) | undefined {
    return this.#hooks.onElicitationRefused;
  }
  set onElicitationRefused(hook: ((reason: string, ctx: ServerRequestContext) => void) | undefined) {
    this.#hooks.onElicitationRefused = hook;
  }

  /** The server's `serverInfo` from `initialize`; `undefined` before connecting. */
  get serverInfo(): Implementation | undefined {
    return this.#handshake?.serverInfo;
  }

  /** The capabilities the server declared; `undefined` before connecting. */
  get serverCapabilities(): ServerCapabilities | undefined {
    return this.#handshake?.capabilities;
  }

  /** The server's usage instructions (e.g. for a system prompt), if it gave any. */
  get instructions(): string | undefined {
    return this.#handshake?.instructions;
  }

  /** The negotiated protocol revision; `undefined` before connecting. */
  get protocolVersion(): string | undefined {
    return this.#handshake?.protocolVersion;
  }

  /** Whether the server speaks the stateless era (no handshake, per-request `_meta`). */
  get isStateless(): boolean {
    return this.connection.isStateless;
  }

  /** Whether the handshake is done and the transport open. */
  get isConnected(): boolean {
    return this.connection.isConnected;
  }

  /**
   * Starts the transport and runs the handshake: `initialize` with the requested revision, a
   * check that the server's chosen revision is one this client supports, then
   * `notifications/initialized`. The transport is told the revision (`setProtocolVersion`).
   * On any failure the transport is closed. With a stateless-era server, then opens
   * `subscriptions/listen` for the list-change hooks already set (`onToolListChanged`,
   * `onPromptListChanged`, `onResourceListChanged`) among the changes the server offers; a refusal
   * of that listen goes to `onerror` and does not fail the connection.
   * @throws SdkError "ALREADY_CONNECTED" when connected; "INVALID_RESULT" when the server's
   *   answer is malformed or names an unsupported revision; "REQUEST_TIMEOUT", "CONNECTION_CLOSED".
   * @throws ProtocolError the server's error for `initialize` (e.g. -32602 unsupported version).
   */
  connect(transport: Transport, options?: ConnectOptions): Promise<void> {
    return this.connection.connect(transport, options);
  }

  /**
   * Cancels the open `subscriptions/listen`, if any, then closes the transport. Requests in
   * flight reject with `SdkError("CONNECTION_CLOSED")`.
   */
  close(): Promise<void> {
    return this.connection.close();
  }

  /**
   * Re-opens the stateless era's `subscriptions/listen` with the list-change hooks set now, for
   * hooks set after `connect`; resolves once the server acknowledged it. The stateful era needs
   * nothing (its servers send list changes unasked), so there it resolves at once.
   * @throws SdkError "NOT_CONNECTED" before `connect`; ProtocolError the server's refusal.
   */
  listenForChanges(): Promise<void> {
    return this.connection.listenForChanges();
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
    this.#handlers.setElicitation(handler, options.modes ?? ["form"]);
  }

  /** Answers `sampling/createMessage`; declares `sampling` (and `tools` / `context` when asked). */
  setSamplingHandler(handler: SamplingHandler, options: SamplingHandlerOptions = {}): void {
    this.#handlers.samplingRegistration = { handler, options };
  }

  /**
   * Answers the user-interaction proposal's `interaction/create` and declares
   * `userInteraction: { types: ["ua"] }`, which lets the server also answer -32003 and lets this
   * client send `interaction/track`. The handler gets `{ id, url, message? }` and `ctx`; `accept`
   * means the page was opened with the user's consent. A type other than `ua` is answered -32602.
   */
  setUserInteractionHandler(handler: UserInteractionHandler): void {
    this.#handlers.userInteraction = handler;
  }

  /** Answers `roots/list` with a handler; declares `roots: { listChanged: true }`. */
  setRootsHandler(handler: RootsHandler): void {
    this.#handlers.roots = handler;
  }

  /**
   * Sets the roots `roots/list` answers with (`file://` URIs). When connected and the roots
   * capability was declared, tells the server with `notifications/roots/list_changed`.
   */
  async setRoots(roots: readonly Root[]): Promise<void> {
    const copy = roots.map((root) => ({ ...root }));
    this.#handlers.roots = () => ({ roots: copy.map((root) => ({ ...root })) });
    if (this.isConnected && this.connection.sentCapabilities.roots?.listChanged === true) {
      await this.sendRootsListChanged();
    }
  }

  /**
   * Sends `notifications/roots/list_changed`, for handlers whose answer changed.
   * @throws SdkError "NOT_CONNECTED" before `connect`; "CAPABILITY_NOT_SUPPORTED" when
   *   `roots.listChanged` was not declared.
   */
  async sendRootsListChanged(): Promise<void> {
    if (!this.isConnected) throw new SdkError("NOT_CONNECTED", "The client is not connected");
    if (this.connection.sentCapabilities.roots?.listChanged !== true) {
      throw new SdkError("CAPABILITY_NOT_SUPPORTED", "This client did not declare roots.listChanged");
    }
    await this.connection.notify("notifications/roots/list_changed");
  }

  /**
   * Handles any server notification `method` with the params as received. For methods with a
   * typed hook (`onToolListChanged`, ...) both run; the hook first.
   * @throws SdkError "INVALID_ARGUMENT" for `notifications/cancelled` and `notifications/progress`.
   */
  setNotificationHandler(method: string, handler: NotificationHandler): void {
    this.#router.set(method, handler);
  }

  get #handshake(): InitializeResult | undefined {
    return this.connection.handshake;
  }
}
