/**
 * The neutral model: the shapes server and client code are written against, whatever revision is on
 * the wire. They are the 2025-11-25 wire types (the newest stateful revision); each codec maps older
 * revisions to and from them. Names follow the house casing (`Url`, not `URL`).
 */
import type {
  ElicitRequestFormParams,
  ElicitRequestURLParams,
  InitializeRequestParams,
  PaginatedRequestParams,
} from "./generated/2025-11-25.js";

export type {
  Annotations,
  AudioContent,
  BlobResourceContents,
  BooleanSchema,
  CallToolRequestParams as CallToolParams,
  CallToolResult,
  CancelledNotificationParams as CancelledParams,
  ClientCapabilities,
  CompleteRequestParams as CompleteParams,
  CompleteResult,
  ContentBlock,
  CreateMessageRequestParams as CreateMessageParams,
  CreateMessageResult,
  CreateTaskResult,
  Cursor,
  ElicitRequestFormParams,
  ElicitRequestParams as ElicitParams,
  ElicitRequestURLParams,
  ElicitResult,
  EmbeddedResource,
  EmptyResult,
  EnumSchema,
  GetPromptRequestParams as GetPromptParams,
  GetPromptResult,
  Icon,
  ImageContent,
  Implementation,
  InitializeRequestParams,
  InitializeResult,
  LegacyTitledEnumSchema,
  ListPromptsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ListRootsResult,
  ListToolsResult,
  LoggingLevel,
  LoggingMessageNotificationParams as LoggingMessageParams,
  ModelHint,
  ModelPreferences,
  NumberSchema,
  PaginatedRequestParams,
  PrimitiveSchemaDefinition,
  ProgressNotificationParams as ProgressParams,
  ProgressToken,
  Prompt,
  PromptArgument,
  PromptMessage,
  PromptReference,
  ReadResourceRequestParams as ReadResourceParams,
  ReadResourceResult,
  Resource,
  ResourceContents,
  ResourceLink,
  ResourceTemplate,
  ResourceTemplateReference,
  ResourceUpdatedNotificationParams as ResourceUpdatedParams,
  Result,
  Role as MessageRole,
  Root,
  SamplingMessage,
  SamplingMessageContentBlock,
  ServerCapabilities,
  SetLevelRequestParams as SetLevelParams,
  StringSchema,
  SubscribeRequestParams as SubscribeParams,
  Task,
  TaskMetadata,
  TaskStatus,
  TextContent,
  TextResourceContents,
  TitledMultiSelectEnumSchema,
  TitledSingleSelectEnumSchema,
  Tool,
  ToolAnnotations,
  ToolChoice,
  ToolExecution,
  ToolResultContent,
  ToolUseContent,
  UntitledMultiSelectEnumSchema,
  UntitledSingleSelectEnumSchema,
} from "./generated/2025-11-25.js";

/** `initialize` params: the client's proposed version, capabilities and identity. */
export type InitializeParams = InitializeRequestParams;
/** Params of the list requests (`tools/list`, `prompts/list`, ...): an optional `cursor` for the next page. */
export type PaginatedParams = PaginatedRequestParams;
/** Form mode collects data in-band; URL mode sends the user to a web page out of band. */
export type ElicitationMode = "form" | "url";
/** A form-mode `elicitation/create`: a message and a restricted flat JSON Schema for the answer. */
export type ElicitFormParams = ElicitRequestFormParams;
/** A URL-mode `elicitation/create`: the user is sent to `url`; `elicitationId` ties the completion to it. */
export type ElicitUrlParams = ElicitRequestURLParams;
/** The `requestedSchema` of a form-mode elicitation. */
export type RequestedSchema = ElicitRequestFormParams["requestedSchema"];
