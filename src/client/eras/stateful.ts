/**
 * The stateful era on the client (revisions 2024-11-05 through 2025-11-25): the `initialize`
 * handshake (spec: basic/lifecycle), the negotiated revision's gate and result checks, -32042
 * elicitations remembered, and one recovery from an expired Streamable HTTP session by a new
 * handshake (spec: basic/transports § Session Management).
 */
import { SdkError, UrlElicitationRequiredError } from "../../jsonrpc/errors.js";
import type { JsonRpcSession, Params, Result } from "../../jsonrpc/session.js";
import type { Transport } from "../../jsonrpc/transport.js";
import {
  acceptServerVersion,
  createGate,
  createHandshakeGate,
  eraOfVersion,
  LATEST_VERSION,
  type Revision,
} from "../../revisions/index.js";
import { takesProtocolVersion } from "../../transports/features.js";
import { checkResult, isSessionExpired, readInitializeResult, withDeadline } from "../checks.js";
import type { HeaderTransport } from "../header-transport.js";
import type { ConnectOptions } from "../options.js";
import { withoutNullCursor } from "../pagination.js";
import type { CallOptions, EmptyResult, InitializeResult, SetLevelParams, SubscribeParams } from "../types.js";
import type { EraDriver, EraLink } from "./driver.js";

export class StatefulDriver implements EraDriver {
  readonly stateless = false;
  handshake: InitializeResult | undefined;
  revision: Revision | undefined;
  pending: Promise<void> | undefined;
  #transport: Transport | undefined;

  constructor(private readonly link: EraLink) {}

  async open(session: JsonRpcSession, transport: HeaderTransport, options: ConnectOptions): Promise<void> {
    this.#transport = transport;
    this.handshake = undefined;
    this.revision = undefined;
    await this.#initialize(session, transport, options);
  }

  send(session: JsonRpcSession, method: string, params: Params | undefined, options: CallOptions): Promise<Result> {
    return this.#send(session, method, params, options, this.handshake);
  }

  setLoggingLevel(params: SetLevelParams, options?: CallOptions): Promise<EmptyResult> {
    return this.link.call("logging/setLevel", params, options);
  }

  subscribe(params: SubscribeParams, options?: CallOptions): Promise<EmptyResult> {
    return this.link.call("resources/subscribe", params, options);
  }

  unsubscribe(params: SubscribeParams, options?: CallOptions): Promise<EmptyResult> {
    return this.link.call("resources/unsubscribe", params, options);
  }

  /** Servers of this era send list changes unasked: nothing to re-open. */
  async listen(): Promise<void> {}

  close(): void {}

  /**
   * Sends a request and checks its result. Given the `handshake` it was sent under, a request
   * refused because the session expired is sent once more, on the session the client
   * re-initialized (or is re-initializing).
   */
  async #send(
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
        for (const elicitation of error.elicitations) this.link.elicitations.track(elicitation.elicitationId);
      }
      if (handshake === undefined || !isSessionExpired(error)) throw error;
      // A late answer about a session already replaced must not discard its replacement.
      if (this.pending) await this.pending;
      else if (this.handshake === handshake) await this.#reinitialize(session);
      return await this.#send(session, method, params, options);
    }
    result = withoutNullCursor(method, result);
    checkResult(this.revision, method, params, result);
    this.link.checkOutput(method, params, result);
    return result;
  }

  /** One new handshake shared by every request that saw the session expire at the same time. */
  #reinitialize(session: JsonRpcSession): Promise<void> {
    const transport = this.#transport;
    if (!transport) return Promise.reject(new SdkError("NOT_CONNECTED", "The client is not connected"));
    this.pending ??= this.#initialize(session, transport, {})
      .catch(async (error: unknown) => {
        // Without a session on the server nothing else can succeed; say so to every caller.
        await session.close().catch(() => {});
        throw error;
      })
      .finally(() => {
        this.pending = undefined;
      });
    return this.pending;
  }

  async #initialize(session: JsonRpcSession, transport: Transport, options: ConnectOptions): Promise<void> {
    const { link } = this;
    session.setGate(createHandshakeGate("client"));
    const declared = link.declare();
    const requested = eraOfVersion(link.pinnedVersion) === "stateful" ? link.pinnedVersion : LATEST_VERSION;
    const answer = await withDeadline(
      session.request(
        "initialize",
        { protocolVersion: requested, capabilities: declared, clientInfo: link.info },
        { timeoutMs: Number.POSITIVE_INFINITY },
      ),
      options.timeoutMs ?? link.options.defaultTimeoutMs ?? 60_000,
      options.signal,
    );
    const handshake = readInitializeResult(answer);
    const revision = acceptServerVersion(handshake.protocolVersion);
    checkResult(revision, "initialize", undefined, answer);
    if (takesProtocolVersion(transport)) transport.setProtocolVersion(handshake.protocolVersion);
    const sent = { initialized: false };
    session.setGate(
      createGate(revision, {
        role: "client",
        peerCapabilities: handshake.capabilities as Record<string, unknown>,
        localCapabilities: declared as Record<string, unknown>,
        initialized: sent,
      }),
    );
    await session.notify("notifications/initialized");
    sent.initialized = true;
    // Extensions this client declared (the user-interaction proposal) join the revision's methods.
    this.revision = revision.forClient(declared);
    this.handshake = handshake;
    link.settle("stateful");
  }
}
