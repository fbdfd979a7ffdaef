/**
 * The connection `McpClient` holds: it starts the transport, lets the era drivers negotiate
 * (`initialize`, or the `server/discover` probe), and sends every client request one way: the
 * server's capabilities are checked, then the driver that negotiation settled on sends it.
 */
import { SdkError } from "../jsonrpc/errors.js";
import { JsonRpcSession, type Params, type Result } from "../jsonrpc/session.js";
import type { Transport } from "../jsonrpc/transport.js";
import { assertServerCapability } from "../revisions/index.js";
import { ATTR, Tracing } from "../tracing/index.js";
import {
  checkRequestedVersion,
  createDrivers,
  type EraDriver,
  type EraDrivers,
  type EraLink,
  firstDriver,
} from "./eras/index.js";
import type { HandlerHost } from "./handlers.js";
import { HeaderTransport } from "./header-transport.js";
import type { ListChanges, ListenTracker } from "./notifications.js";
import type { ConnectOptions, McpClientOptions } from "./options.js";
import type {
  CallOptions,
  ClientCapabilities,
  EmptyResult,
  Implementation,
  InitializeResult,
  LoggingLevel,
  ServerCapabilities,
  SetLevelParams,
  SubscribeParams,
} from "./types.js";

/** What the connection asks of the client that holds it. */
export interface ConnectionHost {
  /** The client's handlers, for server requests and for `InputRequiredResult` rounds. */
  readonly handlers: HandlerHost;
  /** The capabilities to declare now. */
  declaredCapabilities(): ClientCapabilities;
  /** Registers request and notification handlers on a new session, before it starts. */
  install(session: JsonRpcSession): void;
  /** Further checks of a result the revision's schema passed; throws what the caller should get. */
  checkOutput(method: string, params: Params | undefined, result: Result): void;
  /** The list changes the client's hooks ask for, among what the server offers. */
  listChanges(): ListChanges;
  /** Non-fatal problems, for `onerror`. */
  report(error: Error): void;
  /** The connection closed, for `onclose`. */
  closed(): void;
}

export class ClientConnection {
  /** The capabilities sent in the last `initialize` (or `server/discover`). */
  sentCapabilities: ClientCapabilities = {};
  /** The level asked for with `setLoggingLevel`; the stateless era sends it with each request. */
  logLevel: LoggingLevel | undefined;
  #session: JsonRpcSession | undefined;
  /** The driver the last negotiation settled on. */
  #driver: EraDriver | undefined;
  readonly #drivers: EraDrivers;
  readonly #host: ConnectionHost;
  readonly #tracing: Tracing;

  /** @throws SdkError "INVALID_ARGUMENT" for a protocol version this package does not speak. */
  constructor(
    readonly info: Implementation,
    readonly options: McpClientOptions,
    host: ConnectionHost,
  ) {
    checkRequestedVersion(options.protocolVersion);
    this.#tracing = Tracing.from(options.tracing);
    this.#host = host;
    this.#drivers = createDrivers(this.#link());
  }

  /** The `subscriptions/listen` bookkeeping the notification router consults. */
  get listens(): ListenTracker {
    const drivers = Object.values(this.#drivers) as EraDriver[];
    return {
      acknowledged: (params) => {
        for (const driver of drivers) driver.listens?.acknowledged(params);
      },
      accepts: (params) => drivers.every((driver) => driver.listens?.accepts(params) !== false),
    };
  }

  get handshake(): InitializeResult | undefined {
    return this.#driver?.handshake;
  }

  get serverCapabilities(): ServerCapabilities | undefined {
    return this.handshake?.capabilities;
  }

  get isStateless(): boolean {
    return this.#driver?.stateless === true;
  }

  get isConnected(): boolean {
    return this.handshake !== undefined && this.#session?.isConnected === true;
  }

  /** See `McpClient.connect`. */
  async connect(transport: Transport, options: ConnectOptions = {}): Promise<void> {
    if (this.#session?.isConnected) {
      throw new SdkError("ALREADY_CONNECTED", "This client is already connected; close it first");
    }
    if (!this.#tracing.settled) await this.#tracing.ready();
    const { defaultTimeoutMs } = this.options;
    const session = new JsonRpcSession(defaultTimeoutMs === undefined ? {} : { defaultTimeoutMs });
    session.onerror = (error) => this.#host.report(error);
    session.onclose = () => this.#host.closed();
    this.#host.install(session);
    const wrapped = new HeaderTransport(transport);
    this.#session = session;
    this.#driver = undefined;
    try {
      await session.connect(wrapped);
      await firstDriver(this.#drivers, this.options.protocolVersion).open(session, wrapped, options);
    } catch (error) {
      await session.close().catch(() => {});
      throw error;
    }
  }

  /** Ends what the eras keep open (the stateless listen), then closes the transport. */
  async close(): Promise<void> {
    for (const driver of Object.values(this.#drivers) as EraDriver[]) driver.close();
    await this.#session?.close();
  }

  /**
   * Sends one request on behalf of a spec method.
   * @throws SdkError "NOT_CONNECTED" before `connect`; "CAPABILITY_NOT_SUPPORTED" when the server
   *   did not declare what `method` needs (nothing is sent).
   */
  call<R = Result>(method: string, params: object | undefined, options: CallOptions = NO_OPTIONS): Promise<R> {
    const pending = this.#driver?.pending;
    if (pending) return pending.then(() => this.#callNow(method, params as Params | undefined, options)) as Promise<R>;
    return this.#callNow(method, params as Params | undefined, options) as Promise<R>;
  }

  /** Sends a notification on the open session. @throws SdkError "NOT_CONNECTED" before `connect`. */
  async notify(method: string): Promise<void> {
    if (!this.isConnected || !this.#session) throw new SdkError("NOT_CONNECTED", "The client is not connected");
    await this.#session.notify(method);
  }

  /**
   * Checks the answer to a server request against the negotiated revision's result schema.
   * @returns SdkError "INVALID_RESULT" naming the first mismatch, or `undefined`.
   */
  checkAnswer(method: string, params: Params, result: Result): SdkError | undefined {
    const problem = this.#driver?.revision?.validateOutbound(
      { jsonrpc: "2.0", id: 0, result },
      { role: "client", request: { method, params } },
    );
    return problem && new SdkError("INVALID_RESULT", problem.message, { cause: result });
  }

  /** Remembers the level; the era decides whether `logging/setLevel` is sent. */
  setLoggingLevel(params: SetLevelParams, options?: CallOptions): Promise<EmptyResult> {
    this.logLevel = params.level;
    return this.#driver?.setLoggingLevel(params, options) ?? this.call("logging/setLevel", params, options);
  }

  subscribeResource(params: SubscribeParams, options?: CallOptions): Promise<EmptyResult> {
    return this.#driver?.subscribe(params, options) ?? this.call("resources/subscribe", params, options);
  }

  unsubscribeResource(params: SubscribeParams, options?: CallOptions): Promise<EmptyResult> {
    return this.#driver?.unsubscribe(params, options) ?? this.call("resources/unsubscribe", params, options);
  }

  /** @throws SdkError "NOT_CONNECTED" before `connect`; ProtocolError the server's refusal. */
  async listenForChanges(): Promise<void> {
    if (!this.isConnected) {
      throw new SdkError("NOT_CONNECTED", "Cannot send subscriptions/listen: the client is not connected");
    }
    await this.#driver?.listen();
  }

  /** `call` once no re-negotiation is under way; a refusal comes back as a rejected promise. */
  #callNow(method: string, params: Params | undefined, options: CallOptions): Promise<Result> {
    const session = this.#session;
    const driver = this.#driver;
    const handshake = driver?.handshake;
    if (!session?.isConnected || !driver || !handshake) {
      return Promise.reject(new SdkError("NOT_CONNECTED", `Cannot send ${method}: the client is not connected`));
    }
    const refusal = assertServerCapability(handshake.capabilities, method, params, driver.revision?.serverCapabilities);
    if (refusal) return Promise.reject(refusal);
    const tracing = this.#tracing;
    if (!tracing.wouldTrace()) return driver.send(session, method, params, options);
    const target = method === "tools/call" || method === "prompts/get" ? params?.name : undefined;
    const named = typeof target === "string" && target.length <= 128 ? target : undefined;
    const attributes = {
      [ATTR.methodName]: method,
      [method === "prompts/get" ? ATTR.promptName : ATTR.toolName]: named,
      [ATTR.protocolVersion]: driver.revision?.version,
    };
    const name = named === undefined ? method : `${method} ${named}`;
    return tracing.send(name, attributes, params, (traced) => driver.send(session, method, traced, options));
  }

  /** What the drivers read from, and tell, this connection. */
  #link(): EraLink {
    const connection = this;
    const host = this.#host;
    return {
      info: this.info,
      options: this.options,
      pinnedVersion: this.options.protocolVersion,
      get sentCapabilities() {
        return connection.sentCapabilities;
      },
      get logLevel() {
        return connection.logLevel;
      },
      get isConnected() {
        return connection.isConnected;
      },
      elicitations: host.handlers.elicitations,
      handlers: host.handlers,
      declare: () => {
        this.sentCapabilities = host.declaredCapabilities();
        return this.sentCapabilities;
      },
      checkOutput: (method, params, result) => host.checkOutput(method, params, result),
      listChanges: () => host.listChanges(),
      report: (error) => host.report(error),
      call: (method, params, options) => this.call(method, params, options),
      settle: (era) => {
        this.#driver = this.#drivers[era];
      },
    };
  }
}

/** The options of a call that passes none, shared. */
const NO_OPTIONS: CallOptions = Object.freeze({});
