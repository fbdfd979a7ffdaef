/**
 * `mcp-handoff/server`: build an MCP server once, serve it on any number of connections.
 * @module mcp-handoff/server
 */
export {
  ErrorCode,
  ProtocolError,
  SdkError,
  type UrlElicitation as UrlElicitationInfo,
  UrlElicitationRequiredError,
} from "../jsonrpc/errors.js";
export { type ConsoleLike, consoleLogger, type Logger, stderrLogger } from "../jsonrpc/logger.js";
export type { InteractionForm } from "../revisions/index.js";
export type { AttributeValue, Span, SpanContext, Tracer, TracingOption } from "../tracing/index.js";
export type {
  ElicitContentOf,
  ElicitOptions,
  FormElicitation,
  FormElicitResult,
  InputRequestOptions,
  RequestContext,
  RequestedSchemaInput,
  UrlElicitation,
  UrlElicitResult,
} from "./context.js";
export type { ServerSession } from "./handler-types.js";
export type { HandoffLadderOptions, LadderClientInfo } from "./handoff-ladder.js";
export type {
  CredentialFetchInit,
  CredentialInfo,
  CredentialRequest,
  CredentialSource,
} from "./interactions.js";
export {
  type InteractionAction,
  type InteractionInput,
  type InteractionOutcome,
  InteractionRequired,
  type InteractionService,
  type InteractOptions,
  type InteractParams,
} from "./interactions.js";
export { LOGGING_LEVELS, type LoggingLevel } from "./logging.js";
export type { PromptCallback, PromptChanges, PromptConfig, PromptHandle } from "./prompts.js";
export type { RegisteredHandle } from "./registry.js";
export type {
  ReadResourceCallback,
  ResourceChanges,
  ResourceHandle,
  ResourceMetadata,
} from "./resources.js";
export type { InferSchema, JsonSchema, SchemaInput, ZodRawShape } from "./schema.js";
export { McpServer, type McpServerOptions, type ServerInfo } from "./server.js";
export type { ToolChanges, ToolConfig, ToolHandle, ToolHandler } from "./tools.js";
export {
  type Completer,
  type CompletionContext,
  type ListedResource,
  ResourceTemplate,
  type ResourceTemplateCallbacks,
  type TemplateVariables,
} from "./uri-template.js";
