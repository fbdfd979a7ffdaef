/**
 * `mcp-handoff/client`: the MCP client, its option and handler types, and the errors its calls
 * throw (`ProtocolError` from the server, `SdkError` local, `UrlElicitationRequiredError` for -32042).
 * @module mcp-handoff/client
 */
export {
  ErrorCode,
  ProtocolError,
  SdkError,
  type UrlElicitation,
  UrlElicitationRequiredError,
} from "../jsonrpc/errors.js";
export type { Progress, ProgressCallback } from "../jsonrpc/progress.js";
export type { AttributeValue, Span, SpanContext, Tracer, TracingOption } from "../tracing/index.js";
export { McpClient } from "./client.js";
export type { NotificationHooks } from "./notifications.js";
export type {
  ConnectOptions,
  ElicitationHandlerOptions,
  McpClientOptions,
  SamplingHandlerOptions,
} from "./options.js";
export { collectPages, type Page, paginate } from "./pagination.js";
export type { ListAllParams } from "./requests.js";
export type * from "./types.js";
