/**
 * An OpenTelemetry SDK in memory: a provider whose spans end up in an `InMemorySpanExporter`, the
 * async context manager and the W3C propagator installed globally, as a Node SDK installs them.
 */
import { context, propagation } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";

let installed = false;

/** Installs the context manager and the propagator once per test file. */
function installGlobals(): void {
  if (installed) return;
  installed = true;
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
}

export interface Recorder {
  tracer: ReturnType<BasicTracerProvider["getTracer"]>;
  /** A tracer of the same provider under another scope name, e.g. one per server instance. */
  tracerNamed(name: string): ReturnType<BasicTracerProvider["getTracer"]>;
  spans(): ReadableSpan[];
  /** The ended spans named `name`. */
  named(name: string): ReadableSpan[];
  reset(): void;
}

export function recorder(): Recorder {
  installGlobals();
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const tracer = provider.getTracer("test");
  return {
    tracer,
    tracerNamed: (name) => provider.getTracer(name),
    spans: () => exporter.getFinishedSpans(),
    named: (name) => exporter.getFinishedSpans().filter((span) => span.name === name),
    reset: () => exporter.reset(),
  };
}

/** A span's parent span id, under either name the SDK has used for it. */
export function parentOf(span: ReadableSpan): string | undefined {
  const withContext = span as ReadableSpan & { parentSpanContext?: { spanId: string }; parentSpanId?: string };
  return withContext.parentSpanContext?.spanId ?? withContext.parentSpanId;
}

/** Everything a span says, as text: name, attributes, events, status, links. */
export function textOf(span: ReadableSpan): string {
  return JSON.stringify({
    name: span.name,
    attributes: span.attributes,
    events: span.events,
    status: span.status,
    links: span.links,
  });
}
