/**
 * The stateless era on the client (revision 2026-07-28): no handshake, the client's version,
 * capabilities and info in every request's `_meta`, `InputRequiredResult` rounds answered by the
 * client's own handlers (basic/patterns/mrtr), `Mcp-*` headers on Streamable HTTP, and one
 * `subscriptions/listen` for list changes and resource updates (basic/patterns/subscriptions).
 */
import { SdkError } from "../../jsonrpc/errors.js";
import type { JsonRpcSession, Params, Result } from "../../jsonrpc/session.js";
import {
  acceptsInputRequired,
  completeResult,
  type ParamHeader,
  paramHeadersOf,
  resultTypeOf,
  withStatelessMeta,
} from "../../revisions/index.js";
import { withDeadline } from "../checks.js";
import type { HeaderTransport } from "../header-transport.js";
import type { ConnectOptions } from "../options.js";
import { withoutNullCursor } from "../pagination.js";
import type { CallOptions, EmptyResult, InitializeResult, SetLevelParams, SubscribeParams } from "../types.js";
import { discover } from "./discover.js";
import type { EraDriver, EraLink } from "./driver.js";
import { DEFAULT_MAX_INPUT_ROUNDS, DEFAULT_MAX_WAITING_ROUNDS, runInputRounds } from "./input-rounds.js";
import { ChangeListener } from "./listen.js";

export class StatelessDriver implements EraDriver {
  readonly stateless = true;
  readonly revision = undefined;
  readonly pending = undefined;
  handshake: InitializeResult | undefined;
  /** The `subscriptions/listen` request, kept for the client's whole life. */
  readonly listens: ChangeListener;
  /** The negotiated version, which every request carries in `_meta`. */
  #version: string | undefined;
  /** `x-mcp-header` annotations of the tools listed, by tool name. */
  readonly #toolHeaders = new Map<string, ParamHeader[]>();

  /** @param older the driver to fall back to when the server speaks only the stateful era. */
  constructor(
    private readonly link: EraLink,
    private readonly older: EraDriver,
  ) {
    const retryDelayMs = link.options.listenRetryDelayMs;
    this.listens = new ChangeListener({
      listen: (filter, signal) =>
        link.call("subscriptions/listen", { notifications: filter }, { signal, timeoutMs: Number.POSITIVE_INFINITY }),
      listChanges: () => link.listChanges(),
      report: (error) => link.report(error),
      ...(retryDelayMs === undefined ? {} : { retryDelayMs }),
    });
  }

  /**
   * Probes with `server/discover`; falls back to the older driver's `initialize` when the server
   * is older (unless a stateless version is pinned). Once settled, opens `subscriptions/listen`
   * for the list-change hooks already set; a refusal of that goes to `onerror`.
   */
  async open(session: JsonRpcSession, transport: HeaderTransport, options: ConnectOptions): Promise<void> {
    this.handshake = undefined;
    this.#version = undefined;
    const { link } = this;
    const found = await discover(
      session,
      transport,
      {
        pinnedVersion: link.pinnedVersion,
        probeTimeoutMs: link.options.probeTimeoutMs,
        declare: () => link.declare(),
        params: (version) => this.#params(version, undefined),
        headerHints: (name) => this.#toolHeaders.get(name),
      },
      options,
    );
    if (found === undefined) return await this.older.open(session, transport, options);
    this.#version = found.protocolVersion;
    this.handshake = found;
    link.settle("stateless");
    await this.listens.reopen().catch((error: unknown) => this.#report(error));
  }

  /** One call: `_meta` on every attempt, `InputRequiredResult` rounds, `resultType` dropped. */
  async send(session: JsonRpcSession, method: string, params: Params | undefined, options: CallOptions) {
    const version = this.#version ?? "";
    const attempt = async (attemptParams: Params | undefined) =>
      session.request(method, this.#params(version, attemptParams), options);
    let result = await attempt(params);
    if (resultTypeOf(result) === "input_required") {
      if (!acceptsInputRequired(method)) {
        throw new SdkError("INVALID_RESULT", `The server answered ${method} with an InputRequiredResult`, {
          cause: result,
        });
      }
      result = await runInputRounds(this.link.handlers, method, params, result, attempt, {
        maxRounds: this.link.options.maxInputRounds ?? DEFAULT_MAX_INPUT_ROUNDS,
        maxWaitingRounds: DEFAULT_MAX_WAITING_ROUNDS,
        signal: options.signal,
      });
    }
    const complete = withoutNullCursor(method, completeResult(result));
    if (method === "tools/list") return this.#keepValidTools(complete);
    this.link.checkOutput(method, params, complete);
    return complete;
  }

  /** Nothing is sent: the level travels with every later request (`io.modelcontextprotocol/logLevel`). */
  async setLoggingLevel(_params: SetLevelParams): Promise<EmptyResult> {
    return {};
  }

  /**
   * The URI joins the filter of the client's one `subscriptions/listen`, which is re-opened and
   * awaited until acknowledged within `options`; giving up takes the URI out again.
   */
  async subscribe(params: SubscribeParams, options?: CallOptions): Promise<EmptyResult> {
    this.#requireResourceSubscribe();
    try {
      await this.#within(this.listens.subscribe(params.uri), options, "subscribing to a resource");
    } catch (error) {
      if (error instanceof SdkError && (error.code === "REQUEST_TIMEOUT" || error.code === "REQUEST_CANCELLED")) {
        this.listens.abandon(params.uri).catch((cause: unknown) => this.#report(cause));
      }
      throw error;
    }
    return {};
  }

  /** The URI leaves the listen's filter (re-opened, or cancelled when nothing is left to hear). */
  async unsubscribe(params: SubscribeParams, options?: CallOptions): Promise<EmptyResult> {
    this.#requireResourceSubscribe();
    await this.#within(this.listens.unsubscribe(params.uri), options, "unsubscribing from a resource");
    return {};
  }

  listen(): Promise<void> {
    return this.listens.reopen();
  }

  close(): void {
    this.listens.close();
  }

  /** The `_meta` every request carries, merged into `params`. */
  #params(version: string, params: Params | undefined): Params {
    const { link } = this;
    return withStatelessMeta(params, {
      protocolVersion: version,
      clientCapabilities: link.sentCapabilities as Record<string, unknown>,
      clientInfo: { ...link.info },
      ...(link.logLevel === undefined ? {} : { logLevel: link.logLevel }),
    });
  }

  /**
   * Tools whose `x-mcp-header` annotations break the rules are left out of `tools/list`, each
   * reported to `onerror`; the others' annotations are kept for their `Mcp-Param-*` headers
   * (spec 2026-07-28: basic/transports/streamable-http § Custom Headers from Tool Parameters).
   */
  #keepValidTools(result: Result): Result {
    if (!Array.isArray(result.tools)) return result;
    const tools = (result.tools as Array<{ name?: unknown; inputSchema?: unknown }>).filter((tool) => {
      const found = paramHeadersOf(tool.inputSchema);
      const name = String(tool.name);
      if ("problem" in found) {
        this.link.report(new SdkError("INVALID_RESULT", `Tool ${JSON.stringify(name)} left out: ${found.problem}`));
        return false;
      }
      this.#toolHeaders.set(name, found.headers);
      return true;
    });
    return { ...result, tools };
  }

  /** Waits for `work` within a call's `signal` and `timeoutMs` (default `defaultTimeoutMs`). */
  #within<T>(work: Promise<T>, options: CallOptions | undefined, what: string): Promise<T> {
    const timeoutMs = options?.timeoutMs ?? this.link.options.defaultTimeoutMs ?? 60_000;
    return withDeadline(work, timeoutMs, options?.signal, what);
  }

  #requireResourceSubscribe(): void {
    if (!this.link.isConnected) {
      throw new SdkError("NOT_CONNECTED", "Cannot send subscriptions/listen: the client is not connected");
    }
    if (this.handshake?.capabilities?.resources?.subscribe !== true) {
      throw new SdkError("CAPABILITY_NOT_SUPPORTED", "The server does not offer resources.subscribe");
    }
  }

  #report(error: unknown): void {
    this.link.report(error instanceof Error ? error : new Error(String(error)));
  }
}
