/**
 * Span names and attribute keys. Request spans follow OpenTelemetry's semantic conventions for
 * MCP (span name `{mcp.method.name} {target}`, `mcp.*`, `jsonrpc.request.id`, `gen_ai.tool.name`,
 * `error.type`); hand-off steps and store calls are this package's own, under `mcp_handoff.`.
 * No attribute ever holds a URL, a token, a `requestState`, a `code` or a `state`.
 */

/** The instrumentation scope: `trace.getTracer(TRACER_NAME, version)`. */
export const TRACER_NAME = "mcp-handoff";

/** Spans of the steps of a hand-off, on whichever instance each step runs. */
export const STEP = {
  /** The server stored a new interaction (inside the request that asked for it). */
  created: "mcp_handoff.interaction.create",
  /** A connect page for an interaction was served (GET or POST of `/connect/<id>`). */
  pageOpened: "mcp_handoff.connect.page",
  /** A third party's answer reached `/connect/callback/<provider>`. */
  callback: "mcp_handoff.connect.callback",
  /** What the user gave was written to the credential vault, as the completion's commit. */
  vaultWrite: "mcp_handoff.vault.write",
  /** The interaction was claimed as completed and the completion announced. */
  completed: "mcp_handoff.interaction.complete",
  /** A request came back after a hand-off: 2026-07-28 `requestState` naming an interaction. */
  retry: "mcp_handoff.interaction.retry",
  /** The instance holding the session heard of a completion and told its client (2025-11-25 and older). */
  delivered: "mcp_handoff.interaction.deliver",
} as const;

export const ATTR = {
  methodName: "mcp.method.name",
  sessionId: "mcp.session.id",
  protocolVersion: "mcp.protocol.version",
  requestId: "jsonrpc.request.id",
  toolName: "gen_ai.tool.name",
  promptName: "gen_ai.prompt.name",
  errorType: "error.type",
  statusCode: "rpc.response.status_code",
  /** The store or bus a call went to: `interaction_store`, `credential_vault`, `grant_states`, `keyed_lock`, `message_bus`. */
  store: "mcp_handoff.store",
  /** The operation on it: `get`, `put`, `transition`, `publish`, ... */
  operation: "mcp_handoff.store.operation",
  /** An interaction's status after the step. */
  status: "mcp_handoff.interaction.status",
  /** The provider a credential is for, e.g. `github` (a name the operator chose). */
  provider: "mcp_handoff.provider",
  /** Whether the step succeeded in what it was for (a page can answer 200 and refuse). */
  outcome: "mcp_handoff.outcome",
} as const;
