/**
 * The connection half of `McpClient`: the `initialize` handshake (spec: basic/lifecycle), the
 * negotiated revision's gate, and the one path every client request takes, which checks the
 * server's capabilities, remembers -32042 elicitations and recovers once from an expired
 * Streamable HTTP session.
 */
import { SdkError, UrlElicitationRequiredError } from "../jsonrpc/errors.js";
import { openGate } from "../jsonrpc/gate.js";
import { JsonRpcSession, type Params, type Result } from "../jsonrpc/session.js";
import type { Transport } from "../jsonrpc/transport.js";
import {
  acceptServerVersion,
  acceptsInputRequired,
  assertServerCapability,
  completeResult,
  createGate,
  createHandshakeGate,
  createStatelessClientGate,
  eraOfVersion,
  LATEST_STATELESS_VERSION,
  LATEST_VERSION,
  type ParamHeader,
  paramHeadersOf,
  pickStatelessVersion,
  probeFailure,
  type Revision,
  readDiscoverResult,
  resultTypeOf,
  SUPPORTED_VERSIONS,
  standardHeaders,
  withStatelessMeta,
} from "../revisions/index.js";
import { takesProtocolVersion } from "../transports/features.js";
import { checkResult, isSessionExpired, readInitializeResult, withDeadline } from "./checks.js";
import type { HandlerHost } from "./handlers.js";
import { HeaderTransport } from "./header-transport.js";
import { DEFAULT_MAX_INPUT_ROUNDS, DEFAULT_MAX_WAITING_ROUNDS, runInputRounds } from "./input-rounds.js";
import { ElicitationTracker } from "./notifications.js";
import { withoutNullCursor } from "./pagination.js";
import type {
  CallOptions,
  ClientCapabilities,
  Implementation,
  InitializeResult,
  LoggingLevel,
  ServerCapabilities,
} from "./types.js";

/** Options of `new McpClient(info, options)`. */
export interface McpClientOptions {
  /** Sent as is in `initialize`; by default derived from the handlers set before `connect`. */
  capabilities?: ClientCapabilities;
  /**
   * Pins the revision. A stateful one (e.g. `2025-11-25`) goes straight to `initialize`; a
   * stateless one (`2026-07-28`) speaks only that, without falling back. Default: probe with
   * `server/discover` for the newest stateless revision and fall back to `initialize` with the
   * newest stateful one when the server is older (spec 2026-07-28: basic/versioning § Backward
   * Compatibility). Must be a supported version.
   */
  protocolVersion?: string;
  /** ms a request waits for its answer unless it passes `timeoutMs`; default 60,000. */
  defaultTimeoutMs?: number;
  /** ms the `server/discover` probe waits before the server counts as an older one; default 10,000. */
  probeTimeoutMs?: number;
  /**
   * Rounds of `InputRequiredResult` one request may take (stateless era); default 8. Rounds that
   * only wait on a URL page the user already accepted do not count; at most 500 of those.
   * Past the cap the call throws `SdkError("INVALID_RESULT")`.
   */
  maxInputRounds?: number;
  /**
   * ms before the stateless era's `subscriptions/listen`, lost to a dropped connection, is sent
   * again; the delay doubles on each failed try, up to 30,000. Default 1,000. A listen the server
   * ends with a result (graceful closure) is not re-opened.
   */
  listenRetryDelayMs?: number;
}

/**
 * Options of `connect`, for the `initialize` request. Giving up on it closes the connection
 * rather than cancelling the request, which the spec forbids for `initialize`.
 */
export interface ConnectOptions {
  /** Aborting rejects `connect` with `SdkError("REQUEST_CANCELLED")`. */
  signal?: AbortSignal;
  /** ms to wait for the `initialize` result; default the client's `defaultTimeoutMs`. */
  timeoutMs?: number;
}

export abstract class ClientConnection {
  /** Called once when the connection closes. */
  onclose?: () => void;
  /** Non-fatal problems: a handler that failed, a bad notification, a transport error. */
  onerror?: (error: Error) => void;

  protected session: JsonRpcSession | undefined;
  /** URL-mode elicitations the client is waiting on (accepted, or listed in -32042 errors). */
  protected readonly elicitations = new ElicitationTracker();
  /** The capabilities sent in the last `initialize`. */
  protected sentCapabilities: ClientCapabilities = {};
  private transport: Transport | undefined;
  private handshake: InitializeResult | undefined;
  private revision: Revision | undefined;
  private reinitializing: Promise<void> | undefined;
  private readonly requestedVersion: string | undefined;
  /** Set when the server speaks the stateless era: every request carries this in `_meta`. */
  private stateless: { version: string } | undefined;
  /** The level asked for with `setLoggingLevel`; the stateless era sends it with each request. */
  private logLevel: LoggingLevel | undefined;
  /** `x-mcp-header` annotations of the tools listed in the stateless era, by tool name. */
  private readonly toolHeaders = new Map<string, ParamHeader[]>();
  /** Stateless-era requests answer user-facing requests with the same handlers; set by `McpClient`. */
  protected inputHost: HandlerHost | undefined;

  constructor(
    /** This client's name, version and optional title, sent as `clientInfo`. */
    readonly info: Implementation,
    protected readonly options: McpClientOptions = {},
  ) {
    this.requestedVersion = options.protocolVersion;
    if (this.requestedVersion !== undefined && eraOfVersion(this.requestedVersion) === undefined) {
      throw new SdkError(
        "INVALID_ARGUMENT",
        `Protocol version ${JSON.stringify(this.requestedVersion)} is not supported; use one of ${[LATEST_STATELESS_VERSION, ...SUPPORTED_VERSIONS].join(", ")}`,
      );
    }
  }

  /** The capabilities to declare in `initialize`. */
  protected abstract declaredCapabilities(): ClientCapabilities;
  /** Registers request and notification handlers on a new session, before it starts. */
  protected abstract install(session: JsonRpcSession): void;

  /** The server's `serverInfo` from `initialize`; `undefined` before connecting. */
  get serverInfo(): Implementation | undefined {
    return this.handshake?.serverInfo;
  }

  /** The capabilities the server declared; `undefined` before connecting. */
  get serverCapabilities(): ServerCapabilities | undefined {
    return this.handshake?.capabilities;
  }

  /** The server's usage instructions (e.g. for a system prompt), if it gave any. */
  get instructions(): string | undefined {
    return this.handshake?.instructions;
  }

  /** The negotiated protocol revision; `undefined` before connecting. */
  get protocolVersion(): string | undefined {
    return this.handshake?.protocolVersion;
  }

  /** Whether the server speaks the stateless era (no handshake, per-request `_meta`). */
  get isStateless(): boolean {
    return this.stateless !== undefined;
  }

  /** Whether the handshake is done and the transport open. */
  get isConnected(): boolean {
    return this.handshake !== undefined && this.session?.isConnected === true;
  }

  /**
   * Starts the transport and runs the handshake: `initialize` with the requested revision, a
   * check that the server's chosen revision is one this client supports, then
   * `notifications/initialized`. The transport is told the revision (`setProtocolVersion`).
   * On any failure the transport is closed.
   * @throws SdkError "ALREADY_CONNECTED" when connected; "INVALID_RESULT" when the server's
   *   answer is malformed or names an unsupported revision; "REQUEST_TIMEOUT", "CONNECTION_CLOSED".
   * @throws ProtocolError the server's error for `initialize` (e.g. -32602 unsupported version).
   */
  async connect(transport: Transport, options: ConnectOptions = {}): Promise<void> {
    if (this.session?.isConnected) {
      throw new SdkError("ALREADY_CONNECTED", "This client is already connected; close it first");
    }
    const session = new JsonRpcSession(
      this.options.defaultTimeoutMs === undefined ? {} : { defaultTimeoutMs: this.options.defaultTimeoutMs },
    );
    session.onerror = (error) => this.onerror?.(error);
    session.onclose = () => this.onclose?.();
    this.install(session);
    const wrapped = new HeaderTransport(transport);
    this.session = session;
    this.transport = wrapped;
    this.handshake = undefined;
    this.stateless = undefined;
    this.revision = undefined;
    try {
      await session.connect(wrapped);
      const era = eraOfVersion(this.requestedVersion);
      if (era !== "stateful" && (await this.discover(session, wrapped, options))) return;
      await this.initialize(session, wrapped, options);
    } catch (error) {
      await session.close().catch(() => {});
      throw error;
    }
  }

  /** Closes the transport. Requests in flight reject with `SdkError("CONNECTION_CLOSED")`. */
  async close(): Promise<void> {
    await this.session?.close();
  }

  /**
   * Sends one request on behalf of a spec method.
   * @throws SdkError "NOT_CONNECTED" before `connect`; "CAPABILITY_NOT_SUPPORTED" when the server
   *   did not declare what `method` needs (nothing is sent).
   */
  protected call<R = Result>(
    method: string,
    params: object | undefined,
    options: CallOptions = NO_OPTIONS,
  ): Promise<R> {
    const reinitializing = this.reinitializing;
    if (reinitializing) {
      return reinitializing.then(() => this.callNow(method, params as Params | undefined, options)) as Promise<R>;
    }
    return this.callNow(method, params as Params | undefined, options) as Promise<R>;
  }

  /** `call` once no re-initialization is under way; a refusal comes back as a rejected promise. */
  private callNow(method: string, params: Params | undefined, options: CallOptions): Promise<Result> {
    const session = this.session;
    const handshake = this.handshake;
    if (!session?.isConnected || !handshake) {
      return Promise.reject(new SdkError("NOT_CONNECTED", `Cannot send ${method}: the client is not connected`));
    }
    const refusal = assertServerCapability(handshake.capabilities, method, params, this.revision?.serverCapabilities);
    if (refusal) return Promise.reject(refusal);
    if (this.stateless) return this.sendStateless(session, this.stateless.version, method, params, options);
    return this.send(session, method, params, options, handshake);
  }

  /**
   * Checks the answer to a server request against the negotiated revision's result schema.
   * @returns SdkError "INVALID_RESULT" naming the first mismatch, or `undefined`.
   */
  protected checkAnswer(method: string, params: Params, result: Result): SdkError | undefined {
    const problem = this.revision?.validateOutbound(
      { jsonrpc: "2.0", id: 0, result },
      { role: "client", request: { method, params } },
    );
    return problem && new SdkError("INVALID_RESULT", problem.message, { cause: result });
  }

  /**
   * Sends a request of the stateful era and checks its result. Given the `handshake` it was sent
   * under, a request refused because the session expired is sent once more, on the session the
   * client re-initialized (or is re-initializing).
   */
  private async send(
    session: JsonRpcSession,
    method: string,
    params: Params | undefined,
    options: CallOptions,
    handshake?: InitializeResult,
  ): Promise<Result> {
    let result: Result;
    try {
      result = await session.request(method, params, options);
    } catch (error) {
      if (error instanceof UrlElicitationRequiredError) {
        for (const elicitation of error.elicitations) this.elicitations.track(elicitation.elicitationId);
      }
      if (handshake === undefined || !isSessionExpired(error)) throw error;
      // A late answer about a session already replaced must not discard its replacement.
      if (this.reinitializing) await this.reinitializing;
      else if (this.handshake === handshake) await this.reinitialize(session);
      return await this.send(session, method, params, options);
    }
    result = withoutNullCursor(method, result);
    checkResult(this.revision, method, params, result);
    this.checkOutput(method, params, result);
    return result;
  }

  /**
   * Further checks of a result the revision's schema passed, before the caller sees it; the
   * request methods check a tool's `structuredContent` here. Throws what the caller should get.
   */
  protected checkOutput(_method: string, _params: Params | undefined, _result: Result): void {}

  /**
   * Remembers the level for the stateless era, where it travels with each request
   * (`io.modelcontextprotocol/logLevel`) instead of in `logging/setLevel`.
   * @returns whether the level was kept that way (then nothing needs sending).
   */
  protected keepLogLevel(level: LoggingLevel): boolean {
    this.logLevel = level;
    return this.stateless !== undefined;
  }

  /** The `_meta` every stateless request carries, merged into `params`. */
  private statelessParams(version: string, params: Params | undefined): Params {
    return withStatelessMeta(params, {
      protocolVersion: version,
      clientCapabilities: this.sentCapabilities as Record<string, unknown>,
      clientInfo: { ...this.info },
      ...(this.logLevel === undefined ? {} : { logLevel: this.logLevel }),
    });
  }

  /** One stateless call: `_meta` on every attempt, `InputRequiredResult` rounds, `resultType` dropped. */
  private async sendStateless(
    session: JsonRpcSession,
    version: string,
    method: string,
    params: Params | undefined,
    options: CallOptions,
  ): Promise<Result> {
    const attempt = async (attemptParams: Params | undefined) =>
      session.request(method, this.statelessParams(version, attemptParams), options);
    let result = await attempt(params);
    const host = this.inputHost;
    if (resultTypeOf(result) === "input_required") {
      if (!acceptsInputRequired(method) || !host) {
        throw new SdkError("INVALID_RESULT", `The server answered ${method} with an InputRequiredResult`, {
          cause: result,
        });
      }
      result = await runInputRounds(host, method, params, result, attempt, {
        maxRounds: this.options.maxInputRounds ?? DEFAULT_MAX_INPUT_ROUNDS,
        maxWaitingRounds: DEFAULT_MAX_WAITING_ROUNDS,
        signal: options.signal,
      });
    }
    const complete = withoutNullCursor(method, completeResult(result));
    if (method === "tools/list") return this.keepValidTools(complete);
    this.checkOutput(method, params, complete);
    return complete;
  }

  /**
   * Tools whose `x-mcp-header` annotations break the rules are left out of `tools/list`, each
   * reported to `onerror`; the others' annotations are kept for their `Mcp-Param-*` headers
   * (spec 2026-07-28: basic/transports/streamable-http § Custom Headers from Tool Parameters).
   */
  private keepValidTools(result: Result): Result {
    if (!Array.isArray(result.tools)) return result;
    const tools = (result.tools as Array<{ name?: unknown; inputSchema?: unknown }>).filter((tool) => {
      const found = paramHeadersOf(tool.inputSchema);
      const name = String(tool.name);
      if ("problem" in found) {
        this.onerror?.(new SdkError("INVALID_RESULT", `Tool ${JSON.stringify(name)} left out: ${found.problem}`));
        return false;
      }
      this.toolHeaders.set(name, found.headers);
      return true;
    });
    return { ...result, tools };
  }

  /**
   * The `server/discover` probe. True when the server speaks a stateless revision this client
   * does (the client then stays stateless); false when it is an older server and `initialize`
   * should follow. With a stateless version pinned, an older server is an error instead.
   * @throws SdkError "INVALID_RESULT" when a pinned stateless client meets an older server.
   */
  private async discover(session: JsonRpcSession, transport: HeaderTransport, options: ConnectOptions) {
    const pinned = eraOfVersion(this.requestedVersion) === "stateless";
    let version: string = this.requestedVersion ?? LATEST_STATELESS_VERSION;
    session.setGate(openGate);
    this.sentCapabilities = this.declaredCapabilities();
    transport.headersFor = (method, params) =>
      standardHeaders(method, params, this.toolHeaders.get(String(params?.name)), version);
    for (let attempt = 0; attempt < 2; attempt++) {
      let answer: Result;
      try {
        answer = await withDeadline(
          session.request("server/discover", this.statelessParams(version, undefined), {
            timeoutMs: Number.POSITIVE_INFINITY,
          }),
          Math.min(options.timeoutMs ?? Number.POSITIVE_INFINITY, this.options.probeTimeoutMs ?? 10_000),
          options.signal,
        );
      } catch (error) {
        if (options.signal?.aborted) throw error;
        const failure = probeFailure(error);
        if (failure.era === "modern") {
          // A modern server that refused the version: retry with one it listed, never fall back.
          const other = pickStatelessVersion(failure.supported);
          if (other !== undefined && (!pinned || other === version)) {
            version = other;
            continue;
          }
          if (pinned || !failure.supported.some((v) => eraOfVersion(v) === "stateful")) throw error;
        }
        if (pinned) throw error;
        transport.headersFor = undefined;
        return false;
      }
      const discovered = readDiscoverResult(answer);
      const chosen = pinned
        ? discovered.supportedVersions.includes(version)
          ? version
          : undefined
        : pickStatelessVersion(discovered.supportedVersions);
      if (chosen === undefined) {
        if (pinned) {
          throw new SdkError(
            "INVALID_RESULT",
            `The server supports ${discovered.supportedVersions.join(", ") || "no version"}, not ${version}`,
          );
        }
        transport.headersFor = undefined;
        return false;
      }
      version = chosen;
      session.setGate(createStatelessClientGate());
      this.stateless = { version: chosen };
      this.handshake = {
        protocolVersion: chosen,
        capabilities: discovered.capabilities as ServerCapabilities,
        serverInfo: discovered.serverInfo ?? { name: "", version: "" },
        ...(discovered.instructions === undefined ? {} : { instructions: discovered.instructions }),
      };
      return true;
    }
    transport.headersFor = undefined;
    return false;
  }

  /** One new handshake shared by every request that saw the session expire at the same time. */
  private reinitialize(session: JsonRpcSession): Promise<void> {
    const transport = this.transport;
    if (!transport) return Promise.reject(new SdkError("NOT_CONNECTED", "The client is not connected"));
    this.reinitializing ??= this.initialize(session, transport, {})
      .catch(async (error: unknown) => {
        // Without a session on the server nothing else can succeed; say so to every caller.
        await session.close().catch(() => {});
        throw error;
      })
      .finally(() => {
        this.reinitializing = undefined;
      });
    return this.reinitializing;
  }

  private async initialize(session: JsonRpcSession, transport: Transport, options: ConnectOptions): Promise<void> {
    session.setGate(createHandshakeGate("client"));
    this.sentCapabilities = this.declaredCapabilities();
    const requested = eraOfVersion(this.requestedVersion) === "stateful" ? this.requestedVersion : LATEST_VERSION;
    const answer = await withDeadline(
      session.request(
        "initialize",
        { protocolVersion: requested, capabilities: this.sentCapabilities, clientInfo: this.info },
        { timeoutMs: Number.POSITIVE_INFINITY },
      ),
      options.timeoutMs ?? this.options.defaultTimeoutMs ?? 60_000,
      options.signal,
    );
    const handshake = readInitializeResult(answer);
    const revision = acceptServerVersion(handshake.protocolVersion);
    checkResult(revision, "initialize", undefined, answer);
    if (takesProtocolVersion(transport)) transport.setProtocolVersion(handshake.protocolVersion);
    let initialized = false;
    session.setGate(
      createGate(revision, {
        role: "client",
        peerCapabilities: handshake.capabilities as Record<string, unknown>,
        localCapabilities: this.sentCapabilities as Record<string, unknown>,
        initialized: () => initialized,
      }),
    );
    await session.notify("notifications/initialized");
    initialized = true;
    // Extensions this client declared (the user-interaction proposal) join the revision's methods.
    this.revision = revision.forClient(this.sentCapabilities);
    this.handshake = handshake;
  }
}

/** The options of a call that passes none, shared. */
const NO_OPTIONS: CallOptions = Object.freeze({});
