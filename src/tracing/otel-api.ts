/**
 * `@opentelemetry/api` 1.x, an optional peer dependency: loaded once per process, on the first
 * `Tracing.from` that wants it, never by importing any entry point. The types below are the part
 * of the API this package uses, declared here so that its declarations do not depend on the
 * package; a `Tracer` of `@opentelemetry/api` 1.x has the shape of `Tracer` here.
 */
import { SdkError } from "../jsonrpc/errors.js";

/** The package name, as the user installs it. */
export const OTEL_API = "@opentelemetry/api";

/** An attribute value as OpenTelemetry takes it. */
export type AttributeValue = string | number | boolean;
export type Attributes = Record<string, AttributeValue | undefined>;

/** Which trace a span belongs to (W3C trace context): 32 and 16 lowercase hex digits. */
export interface SpanContext {
  traceId: string;
  spanId: string;
  traceFlags: number;
}

/** An OpenTelemetry span, as far as this package uses one. */
export interface Span {
  spanContext(): SpanContext;
  setAttribute(key: string, value: AttributeValue): unknown;
  setStatus(status: { code: number; message?: string }): unknown;
  isRecording(): boolean;
  end(): void;
}

/** An OpenTelemetry `Tracer` (`trace.getTracer(...)` of `@opentelemetry/api`, or one from an SDK's provider). */
export interface Tracer {
  startSpan(name: string, options?: object, context?: unknown): Span;
}

/** An OpenTelemetry context: opaque here. */
export type Context = object;

/** What `propagation.extract` reads a carrier with, and `inject` writes one with. */
interface Getter {
  keys(carrier: Record<string, unknown>): string[];
  get(carrier: Record<string, unknown>, key: string): string | undefined;
}
interface Setter {
  set(carrier: Record<string, string>, key: string, value: string): void;
}

/** The members of `@opentelemetry/api` used here. */
/** The global tracer provider of `@opentelemetry/api` 1.x: a proxy that defers to the registered SDK's provider. */
export interface ProxyProvider {
  /** The registered provider, or the API's no-op provider while none is. */
  getDelegate(): unknown;
}

export interface OtelApi {
  ROOT_CONTEXT: Context;
  /** The classes of the global provider and of its tracers (absent from a copy that does not export them). */
  ProxyTracerProvider?: new () => ProxyProvider;
  ProxyTracer?: abstract new (...args: never[]) => Tracer;
  trace: {
    getTracer(name: string, version?: string): Tracer;
    getTracerProvider?(): unknown;
    setSpan(context: Context, span: Span): Context;
    getSpan(context: Context): Span | undefined;
    getSpanContext(context: Context): SpanContext | undefined;
    isSpanContextValid(spanContext: SpanContext): boolean;
  };
  context: {
    active(): Context;
    with<A extends unknown[], R>(context: Context, fn: (...args: A) => R, thisArg?: unknown, ...args: A): R;
  };
  propagation: {
    extract(context: Context, carrier: Record<string, unknown>, getter: Getter): Context;
    inject(context: Context, carrier: Record<string, string>, setter: Setter): void;
  };
}

/**
 * Where `@opentelemetry/api` 1.x keeps what was registered with it (a tracer provider, a context
 * manager, a propagator, a logger): absent until something registers, whichever copy of the API
 * did it.
 */
const REGISTERED = Symbol.for("opentelemetry.js.api.1");

/** Whether anything was registered with `@opentelemetry/api` 1.x in this process (an SDK, say). */
export function otelRegistered(): boolean {
  return (globalThis as Record<symbol, unknown>)[REGISTERED] !== undefined;
}

/** Loads a module by name, as `import()` does; tests pass one that fails. */
export type ApiLoader = () => Promise<unknown>;

const importApi: ApiLoader = () => import(OTEL_API);

let loading: Promise<OtelApi | undefined> | undefined;

function isMissing(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND";
}

/**
 * `@opentelemetry/api`, loaded once per process; `undefined` when it is not installed. Any other
 * failure to load it rejects as it is.
 */
export function loadOtelApi(load: ApiLoader = importApi): Promise<OtelApi | undefined> {
  if (load !== importApi) return settle(load);
  loading ??= settle(load);
  return loading;
}

async function settle(load: ApiLoader): Promise<OtelApi | undefined> {
  try {
    const module = (await load()) as OtelApi & { default?: OtelApi };
    // The ES module build names its exports; a CommonJS build seen through `import()` has them on `default`.
    return module.trace === undefined ? module.default : module;
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

/** SdkError "DEPENDENCY_MISSING" for tracing asked for without the API installed. */
export function missingApi(): SdkError {
  return new SdkError(
    "DEPENDENCY_MISSING",
    `Tracing needs the OpenTelemetry API, which is not installed: npm install ${OTEL_API}`,
  );
}
