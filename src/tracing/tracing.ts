/**
 * Optional OpenTelemetry tracing. `Tracing.from(option)` loads `@opentelemetry/api` once per
 * process; without it (or with `false`) every method here calls straight through, allocating
 * nothing. With it, spans go to the given tracer or to the global provider's
 * (`trace.getTracer("mcp-handoff", version)`), which records nothing until an SDK is registered.
 * Parents are read and written with the global propagator (W3C trace context when an SDK is
 * registered), so a `traceparent` from a client's `_meta` or from a stored interaction continues
 * its trace; an async context manager (as every Node SDK registers) carries the active span
 * across `await`.
 */
import { ProtocolError, SdkError } from "../jsonrpc/errors.js";
import { isPromiseLike } from "../jsonrpc/thenable.js";
import { ATTR, TRACER_NAME } from "./names.js";
import {
  type ApiLoader,
  type Attributes,
  type Context,
  loadOtelApi,
  missingApi,
  type OtelApi,
  otelRegistered,
  type ProxyProvider,
  type Span,
  type SpanContext,
  type Tracer,
} from "./otel-api.js";
import { packageVersion } from "./version.js";

/**
 * How a component traces. Absent: through the global tracer provider when `@opentelemetry/api` is
 * installed, else not at all. `true`: the same, but `@opentelemetry/api` must be installed (SdkError
 * "DEPENDENCY_MISSING" otherwise). `false`: never, and the API is not loaded. `{ tracer }`: spans
 * go to that tracer (the API must be installed too, for the context it carries).
 */
export type TracingOption = boolean | { tracer?: Tracer };

/** A W3C trace context as `_meta` and a stored interaction carry it: `traceparent` and, when there is one, `tracestate`. */
export interface TraceCarrier {
  traceparent?: string;
  tracestate?: string;
}

/** Where a step span hangs: under a stored trace context, or under the active span with that context linked. */
export interface StepOptions {
  /** The trace context the step continues, e.g. the interaction's; ignored when malformed. */
  from?: TraceCarrier;
  /**
   * `true`: the active span stays the parent when there is one, and `from` is linked when it is
   * another trace (a retry whose client sent its own context). Default `false`: `from` is the
   * parent, and an active span of another trace is linked (the HTTP request of a connect page).
   */
  joinActive?: boolean;
}

const SPAN_KIND = { internal: 0, server: 1, client: 2, producer: 3 } as const;
const STATUS_ERROR = 2;

const metaGetter = {
  keys: (carrier: Record<string, unknown>) => Object.keys(carrier),
  get: (carrier: Record<string, unknown>, key: string) => {
    const value = carrier[key];
    return typeof value === "string" ? value : undefined;
  },
};
const carrierSetter = {
  set: (carrier: Record<string, string>, key: string, value: string) => {
    carrier[key] = value;
  },
};

/** What `error.type` says of a failure: the JSON-RPC code, the SdkError code, or the error's class; never its message. */
function errorTypeOf(error: unknown): string {
  if (error instanceof ProtocolError) return String(error.code);
  if (error instanceof SdkError) return error.code;
  if (error instanceof Error) return error.name;
  return "_OTHER";
}

/** Marks `span` failed with `error`'s type only: messages may quote what a third party said. */
function recordFailure(span: Span, error: unknown): void {
  const type = errorTypeOf(error);
  span.setAttribute(ATTR.errorType, type);
  if (error instanceof ProtocolError) span.setAttribute(ATTR.statusCode, String(error.code));
  span.setStatus({ code: STATUS_ERROR, message: type });
}

function startedOptions(kind: number, attributes: Attributes, links?: { context: SpanContext }[]): object {
  const defined: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(attributes)) if (value !== undefined) defined[key] = value;
  return links === undefined || links.length === 0
    ? { kind, attributes: defined }
    : { kind, attributes: defined, links };
}

let defaultTracing: Tracing | undefined;

/** One component's tracing: off, loading, or on with a tracer. */
export class Tracing {
  /** Never traces; loads nothing. */
  static readonly off: Tracing = new Tracing(false);

  #api: OtelApi | undefined;
  #tracer: Tracer | undefined;
  /**
   * The global provider `#tracer` defers to, when it is the API's proxy tracer: while no SDK is
   * registered there, its spans are no-ops. `undefined`: a given tracer or an SDK's, always asked.
   */
  #proxy: ProxyProvider | undefined;
  /** What `#proxy` defers to while no SDK is registered: the API's no-op provider. */
  #noopProvider: unknown;
  #failure: unknown;
  #settled = false;
  /** Default tracing made before anything was registered with the API: it loads once something is. */
  #deferred = false;
  readonly #loaded: Promise<void>;

  /**
   * The tracing `option` asks for, loading `@opentelemetry/api` when it needs it (once per process).
   * Until it has loaded, nothing is traced; `ready()` waits for it.
   */
  static from(option?: TracingOption, load?: ApiLoader): Tracing {
    if (option === false) return Tracing.off;
    if (option === undefined && load === undefined) {
      defaultTracing ??= new Tracing(undefined);
      return defaultTracing;
    }
    return new Tracing(option, load);
  }

  private constructor(option: TracingOption | undefined, load?: ApiLoader) {
    if (option === false) {
      this.#settled = true;
      this.#loaded = Promise.resolve();
      return;
    }
    // By default the API is loaded only once something was registered with it: until then no span
    // could record or carry a trace, and a start-up need not pay for loading it.
    if (option === undefined && load === undefined && !otelRegistered()) {
      this.#settled = true;
      this.#deferred = true;
      this.#loaded = Promise.resolve();
      return;
    }
    this.#loaded = this.#load(option, load);
  }

  #load(option: TracingOption | undefined, load: ApiLoader | undefined): Promise<void> {
    return loadOtelApi(load).then(
      (api) => {
        this.#settled = true;
        if (api === undefined) {
          if (option !== undefined) this.#failure = missingApi();
          return;
        }
        this.#api = api;
        const given = typeof option === "object" ? option.tracer : undefined;
        this.#tracer = given ?? api.trace.getTracer(TRACER_NAME, packageVersion());
        if (given === undefined) this.#watchProxy(api, this.#tracer);
      },
      (error: unknown) => {
        this.#settled = true;
        // Asked for by default only: a copy that fails to load (a bundler's stub, say) means no tracing, never a failed server.
        if (option !== undefined) this.#failure = error;
      },
    );
  }

  /** Whether loading is over (on, off or failed), so `ready()` need not be awaited. */
  get settled(): boolean {
    return this.#settled;
  }

  /** Whether spans are made (they may still record nothing, when no SDK is registered). */
  get on(): boolean {
    return this.#tracer !== undefined;
  }

  /**
   * Whether a span made now could reach anyone: tracing is on, and a tracer was given or an SDK
   * is registered, or `meta` (a request's `_meta`) carries a `traceparent`, or the active context
   * a valid span. When this is false, a span would be a no-op that carries no trace context, and
   * `serve` and `send` run their work directly (building no attributes is then the caller's part).
   */
  wouldTrace(meta?: Record<string, unknown>): boolean {
    const api = this.#api;
    if (api === undefined || this.#tracer === undefined) {
      // Registered since: load now; what starts before it has loaded is not traced.
      if (this.#deferred && otelRegistered()) {
        this.#deferred = false;
        void this.#load(undefined, undefined);
      }
      return false;
    }
    const proxy = this.#proxy;
    if (proxy === undefined || proxy.getDelegate() !== this.#noopProvider) return true;
    if (meta !== undefined && typeof meta.traceparent === "string") return true;
    return this.#valid(api.trace.getSpanContext(api.context.active())) !== undefined;
  }

  /** Notes the global proxy provider `tracer` defers to, if it is the API's proxy tracer. */
  #watchProxy(api: OtelApi, tracer: Tracer): void {
    const { ProxyTracerProvider, ProxyTracer } = api;
    if (ProxyTracerProvider === undefined || ProxyTracer === undefined || !(tracer instanceof ProxyTracer)) return;
    const provider = api.trace.getTracerProvider?.();
    if (!(provider instanceof ProxyTracerProvider) || typeof provider.getDelegate !== "function") return;
    this.#proxy = provider;
    this.#noopProvider = new ProxyTracerProvider().getDelegate();
  }

  /**
   * Waits until the API is loaded or known to be absent.
   * @throws SdkError "DEPENDENCY_MISSING" when the option asked for tracing and `@opentelemetry/api`
   *   is not installed; whatever else loading it threw.
   */
  async ready(): Promise<void> {
    await this.#loaded;
    if (this.#failure !== undefined) throw this.#failure;
  }

  /**
   * Runs `serve` inside a SERVER span for one inbound request. Its parent is the trace context of
   * `meta` (`params._meta.traceparent` and `tracestate`) when that is well-formed, else the active
   * span, else none (a new trace). What `serve` throws marks the span failed (its type only) and
   * is rethrown. `finish` runs as the request ends (with its result, `undefined` when it threw), to
   * add what is known only then; it may return an `error.type` for a result that is a failure (a
   * tool's `isError`).
   */
  serve<T>(
    name: string,
    attributes: Attributes,
    meta: Record<string, unknown> | undefined,
    serve: () => T | Promise<T>,
    finish?: (result: T | undefined, span: Span) => string | undefined,
  ): T | Promise<T> {
    const api = this.#api;
    const tracer = this.#tracer;
    if (!this.wouldTrace(meta) || api === undefined || tracer === undefined) return serve();
    const active = api.context.active();
    const parent =
      meta !== undefined && typeof meta.traceparent === "string" ? (this.#extract(meta, active) ?? active) : active;
    const span = tracer.startSpan(name, startedOptions(SPAN_KIND.server, attributes), parent);
    const settle = (result: T): T => {
      const type = finish?.(result, span);
      if (type !== undefined) {
        span.setAttribute(ATTR.errorType, type);
        span.setStatus({ code: STATUS_ERROR, message: type });
      }
      span.end();
      return result;
    };
    const fail = (error: unknown): never => {
      finish?.(undefined, span);
      recordFailure(span, error);
      span.end();
      throw error;
    };
    let outcome: T | Promise<T>;
    try {
      outcome = api.context.with(api.trace.setSpan(parent, span), serve);
    } catch (error) {
      return fail(error);
    }
    return isPromiseLike<T>(outcome) ? (outcome as Promise<T>).then(settle, fail) : settle(outcome as T);
  }

  /**
   * Runs `run` inside an INTERNAL span for one step of a hand-off, placed as `options` says. What
   * `run` throws marks the span failed (its type only) and is rethrown.
   */
  step<T>(
    name: string,
    attributes: Attributes,
    run: (span: Span | undefined) => Promise<T>,
    options: StepOptions = {},
  ): Promise<T> {
    const api = this.#api;
    const tracer = this.#tracer;
    if (api === undefined || tracer === undefined) return run(undefined);
    const active = api.context.active();
    const activeContext = this.#valid(api.trace.getSpanContext(active));
    const from = options.from;
    // Only the two W3C fields reach the propagator, whatever else the object holds (a stored interaction).
    const stored =
      from?.traceparent === undefined
        ? undefined
        : this.#extract(
            from.tracestate === undefined
              ? { traceparent: from.traceparent }
              : { traceparent: from.traceparent, tracestate: from.tracestate },
            undefined,
          );
    const storedContext = stored === undefined ? undefined : this.#valid(api.trace.getSpanContext(stored));
    let parent: Context = active;
    let other: SpanContext | undefined;
    if (stored !== undefined && storedContext !== undefined) {
      if (options.joinActive === true && activeContext !== undefined) other = storedContext;
      else {
        parent = stored;
        other = activeContext;
      }
    }
    const mine = parent === active ? activeContext : storedContext;
    const links = other !== undefined && other.traceId !== mine?.traceId ? [{ context: other }] : undefined;
    return this.#run(api, tracer, name, SPAN_KIND.internal, attributes, parent, run, links);
  }

  /**
   * Runs `run` inside a CLIENT span (`producer`: PRODUCER) for one call to a store or the bus, but
   * only under an active span: a call outside any traced work (a sweep) makes no trace of its own.
   */
  call<T>(name: string, attributes: Attributes, run: () => Promise<T>, producer = false): Promise<T> {
    const api = this.#api;
    const tracer = this.#tracer;
    if (api === undefined || tracer === undefined) return run();
    const active = api.context.active();
    if (api.trace.getSpan(active)?.isRecording() !== true) return run();
    const kind = producer ? SPAN_KIND.producer : SPAN_KIND.client;
    return this.#run(api, tracer, name, kind, attributes, active, run);
  }

  /**
   * Runs `send` inside a CLIENT span for one outbound request, with the span's trace context put
   * into a copy of `params._meta` (`traceparent`, `tracestate`), so the server's span joins it.
   * `params` itself is never changed. What `send` throws marks the span failed and is rethrown.
   */
  send<T>(
    name: string,
    attributes: Attributes,
    params: Record<string, unknown> | undefined,
    send: (params: Record<string, unknown> | undefined) => Promise<T>,
  ): Promise<T> {
    const api = this.#api;
    const tracer = this.#tracer;
    if (!this.wouldTrace() || api === undefined || tracer === undefined) return send(params);
    const active = api.context.active();
    return this.#run(api, tracer, name, SPAN_KIND.client, attributes, active, () => {
      const carrier: Record<string, string> = {};
      api.propagation.inject(api.context.active(), carrier, carrierSetter);
      if (carrier.traceparent === undefined) return send(params);
      const own = params?._meta as Record<string, unknown> | undefined;
      const trace: Record<string, string> = { traceparent: carrier.traceparent };
      if (carrier.tracestate !== undefined && carrier.tracestate !== "") trace.tracestate = carrier.tracestate;
      return send({ ...params, _meta: { ...own, ...trace } });
    });
  }

  /** The active span's trace context, as a stored interaction or a request's `_meta` carries it; `undefined` when none. */
  carrier(): TraceCarrier | undefined {
    const api = this.#api;
    if (api === undefined) return undefined;
    const active = api.context.active();
    if (this.#valid(api.trace.getSpanContext(active)) === undefined) return undefined;
    const carrier: Record<string, string> = {};
    api.propagation.inject(active, carrier, carrierSetter);
    const { traceparent, tracestate } = carrier;
    if (traceparent === undefined) return undefined;
    return tracestate === undefined || tracestate === "" ? { traceparent } : { traceparent, tracestate };
  }

  async #run<T>(
    api: OtelApi,
    tracer: Tracer,
    name: string,
    kind: number,
    attributes: Attributes,
    parent: Context,
    run: (span: Span) => Promise<T>,
    links?: { context: SpanContext }[],
  ): Promise<T> {
    const span = tracer.startSpan(name, startedOptions(kind, attributes, links), parent);
    try {
      return await api.context.with(api.trace.setSpan(parent, span), () => run(span));
    } catch (error) {
      recordFailure(span, error);
      throw error;
    } finally {
      span.end();
    }
  }

  /** `carrier`'s context on top of `base` (the root when `undefined`); `base` itself when the carrier is malformed. */
  #extract(carrier: Record<string, unknown>, base: Context | undefined): Context | undefined {
    const api = this.#api as OtelApi;
    const from = base ?? api.ROOT_CONTEXT;
    const extracted = api.propagation.extract(from, carrier, metaGetter);
    // A propagator hands back the context it was given when the carrier holds nothing it can read.
    if (extracted === from || this.#valid(api.trace.getSpanContext(extracted)) === undefined) return base;
    return extracted;
  }

  #valid(context: SpanContext | undefined): SpanContext | undefined {
    return context !== undefined && this.#api?.trace.isSpanContextValid(context) === true ? context : undefined;
  }
}
