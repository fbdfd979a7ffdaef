/**
 * The connection half of `McpClient`: the `initialize` handshake (spec: basic/lifecycle), the
 * negotiated revision's gate, and the one path every client request takes, which checks the
 * server's capabilities, remembers -32042 elicitations and recovers once from an expired
 * Streamable HTTP session.
 */
import { SdkError, UrlElicitationRequiredError } from "../jsonrpc/errors.js";
import { JsonRpcSession, type Params, type Result } from "../jsonrpc/session.js";
import {
  acceptServerVersion,
  assertServerCapability,
  createGate,
  createHandshakeGate,
  isSupportedVersion,
  LATEST_VERSION,
  type Revision,
  SUPPORTED_VERSIONS,
} from "../revisions/index.js";
import type { Transport } from "../transports/transport.js";
import { checkResult, isSessionExpired, readInitializeResult, withDeadline } from "./checks.js";
import { ElicitationTracker } from "./notifications.js";
import type { CallOptions, ClientCapabilities, Implementation, InitializeResult, ServerCapabilities } from "./types.js";

/** Options of `new McpClient(info, options)`. */
export interface McpClientOptions {
  /** Sent as is in `initialize`; by default derived from the handlers set before `connect`. */
  capabilities?: ClientCapabilities;
  /** The revision asked for in `initialize`; default the newest supported. Must be a supported one. */
  protocolVersion?: string;
  /** ms a request waits for its answer unless it passes `timeoutMs`; default 60,000. */
  defaultTimeoutMs?: number;
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
  private readonly requestedVersion: string;

  constructor(
    /** This client's name, version and optional title, sent as `clientInfo`. */
    readonly info: Implementation,
    protected readonly options: McpClientOptions = {},
  ) {
    this.requestedVersion = options.protocolVersion ?? LATEST_VERSION;
    if (!isSupportedVersion(this.requestedVersion)) {
      throw new SdkError(
        "INVALID_ARGUMENT",
        `Protocol version ${JSON.stringify(this.requestedVersion)} is not supported; use one of ${SUPPORTED_VERSIONS.join(", ")}`,
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
    this.session = session;
    this.transport = transport;
    this.handshake = undefined;
    try {
      await session.connect(transport);
      await this.initialize(session, transport, options);
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
  protected async call<R = Result>(method: string, params: object | undefined, options: CallOptions = {}): Promise<R> {
    return (await this.callRaw(method, params as Params | undefined, options)) as R;
  }

  private async callRaw(method: string, params: Params | undefined, options: CallOptions): Promise<Result> {
    if (this.reinitializing) await this.reinitializing;
    const session = this.session;
    const handshake = this.handshake;
    if (!session?.isConnected || !handshake) {
      throw new SdkError("NOT_CONNECTED", `Cannot send ${method}: the client is not connected`);
    }
    const refusal = assertServerCapability(handshake.capabilities, method, params, this.revision?.serverCapabilities);
    if (refusal) throw refusal;
    try {
      return await this.send(session, method, params, options);
    } catch (error) {
      if (!isSessionExpired(error)) throw error;
      // A late answer about a session already replaced must not discard its replacement.
      if (this.reinitializing) await this.reinitializing;
      else if (this.handshake === handshake) await this.reinitialize(session);
      return await this.send(session, method, params, options);
    }
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

  private async send(
    session: JsonRpcSession,
    method: string,
    params: Params | undefined,
    options: CallOptions,
  ): Promise<Result> {
    let result: Result;
    try {
      result = await session.request(method, params, options);
    } catch (error) {
      if (error instanceof UrlElicitationRequiredError) {
        for (const elicitation of error.elicitations) this.elicitations.track(elicitation.elicitationId);
      }
      throw error;
    }
    checkResult(this.revision, method, params, result);
    return result;
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
    const answer = await withDeadline(
      session.request(
        "initialize",
        { protocolVersion: this.requestedVersion, capabilities: this.sentCapabilities, clientInfo: this.info },
        { timeoutMs: Number.POSITIVE_INFINITY },
      ),
      options.timeoutMs ?? this.options.defaultTimeoutMs ?? 60_000,
      options.signal,
    );
    const handshake = readInitializeResult(answer);
    const revision = acceptServerVersion(handshake.protocolVersion);
    checkResult(revision, "initialize", undefined, answer);
    transport.setProtocolVersion?.(handshake.protocolVersion);
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
