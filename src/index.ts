/**
 * `mcp-handoff`: what every runtime can use, with no Node.js built-in behind it. The JSON-RPC
 * message shapes and framing, the two error families, the JSON-RPC session (correlation,
 * timeouts, cancellation, progress), the transport contract with its in-memory pair, and the
 * neutral model types that server and client code are written against. Servers, clients and
 * the stdio and HTTP transports live in the subpath exports (`mcp-handoff/server`, ...).
 * @module mcp-handoff
 */
export {
  ErrorCode,
  ProtocolError,
  SdkError,
  type SdkErrorCode,
  type UrlElicitation,
  UrlElicitationRequiredError,
} from "./jsonrpc/errors.js";
export { type DecodedFrame, decodeFrame } from "./jsonrpc/frame.js";
export type { MessageGate } from "./jsonrpc/gate.js";
export {
  isErrorResponse,
  isNotification,
  isRequest,
  isRequestId,
  isResponse,
  type JsonRpcErrorObject,
  type JsonRpcErrorResponse,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
  type JsonRpcResultResponse,
  type RequestId,
} from "./jsonrpc/messages.js";
export type { Progress, ProgressCallback, ProgressToken } from "./jsonrpc/progress.js";
export {
  type FallbackNotificationHandler,
  type InboundRequest,
  JsonRpcSession,
  type JsonRpcSessionOptions,
  type NotificationHandler,
  type Params,
  type RequestHandler,
  type RequestOptions,
  type Result,
  type SessionDelegate,
} from "./jsonrpc/session.js";
export type { MessageExtra, SendOptions, Transport, TransportReceiver } from "./jsonrpc/transport.js";
export type { AuthInfo } from "./model/identity.js";
// The neutral model (types only, so no codec is loaded). Its own `Result` and `ProgressToken` are
// shadowed by the session's and the progress module's names above, which session code handles.
export type * from "./revisions/index.js";
export { ATTR, STEP, TRACER_NAME } from "./tracing/names.js";
export type { AttributeValue, Span, SpanContext, Tracer } from "./tracing/otel-api.js";
export type { TraceCarrier, TracingOption } from "./tracing/tracing.js";
export type {
  AgreedHandshake,
  CancellingTransport,
  FleetSessions,
  HttpSendOptions,
  PresumedHandshakeOffer,
  PresumedHandshakeTransport,
  PresumedSession,
  ProtocolVersionTransport,
  SessionIdTransport,
  SharedSession,
  SharedSessionTransport,
  StdoutTransport,
} from "./transports/features.js";
export { createMemoryTransportPair } from "./transports/memory.js";
