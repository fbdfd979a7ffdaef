/**
 * The options of `new McpClient(info, options)` and of `connect` (which revision to speak, how
 * long to wait in ms, how many `InputRequiredResult` rounds to answer), and of the handler setters.
 */
import type { TracingOption } from "../tracing/index.js";
import type { ClientCapabilities, ElicitationMode } from "./types.js";

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
  /**
   * OpenTelemetry tracing (`docs/tracing.md`): a CLIENT span per request, named
   * `{mcp.method.name} {target}`, whose W3C trace context goes to the server in
   * `params._meta.traceparent` (and `tracestate`), so the server's spans, the hand-off's pages and
   * the retries join the caller's trace. Default: the global tracer provider when
   * `@opentelemetry/api` is installed, else none; `false`: none, and `_meta` carries no trace
   * context; `{ tracer }`: that tracer.
   * @throws SdkError "DEPENDENCY_MISSING" from `connect` when `true` or `{ tracer }` is given and
   *   `@opentelemetry/api` is not installed.
   */
  tracing?: TracingOption;
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
