/** Optional OpenTelemetry tracing: the option every traced component takes, and the span names. */
export { ATTR, STEP, TRACER_NAME } from "./names.js";
export type { AttributeValue, Span, SpanContext, Tracer } from "./otel-api.js";
export { type StepOptions, type TraceCarrier, Tracing, type TracingOption } from "./tracing.js";
