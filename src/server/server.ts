/**
 * `McpServer`: a definition (tools, resources, prompts) that any number of connections serve.
 * Each `connect(transport)` is one session: one stdio process, or one Streamable HTTP session.
 */

import { consoleLogger, type Logger, stderrLogger } from "../jsonrpc/logger.js";
import type { Transport } from "../jsonrpc/transport.js";
import type { UserInteraction } from "../model/interaction.js";
import type { Icon, Implementation, ServerCapabilities } from "../revisions/index.js";
import { Tracing, type TracingOption } from "../tracing/index.js";
import { type FleetSessions, ownsStdout, sharedSessionOf } from "../transports/features.js";
import { ServerDefinition } from "./definition.js";
import {
  type CacheHints,
  type RequestStateKey,
  type StatelessSettings,
  statelessSettings,
} from "./eras/request-state.js";
import type { InteractionService, ServerSession } from "./handler-types.js";
import { checkInboxUrl, type HandoffLadderOptions } from "./handoff-ladder.js";
import { type MethodTable, serverMethods } from "./methods.js";
import { type PromptCallback, type PromptConfig, type PromptHandle, PromptRegistry } from "./prompts.js";
import {
  type ReadResourceCallback,
  type ResourceHandle,
  type ResourceMetadata,
  ResourceRegistry,
} from "./resources.js";
import type { SchemaInput, ZodRawShape } from "./schema.js";
import { ServerConnection, type SessionHost } from "./session.js";
import { type ToolConfig, type ToolHandle, type ToolHandler, ToolRegistry } from "./tools.js";
import type { ResourceTemplate } from "./uri-template.js";

/** Who the server is, sent as `serverInfo` in the `initialize` result. */
export interface ServerInfo {
  /** Programmatic name, e.g. `weather-server`. */
  name: string;
  /** The server's own version (not the protocol revision). */
  version: string;
  /** Display name. */
  title?: string;
  /** Icons for user interfaces. */
  icons?: Icon[];
  /** Home page of the server. */
  websiteUrl?: string;
}

/** Options of `new McpServer(info, options)`. */
export interface McpServerOptions {
  /** Sent in the `initialize` result: how a model should use this server. */
  instructions?: string;
  /**
   * Merged over the derived capabilities, e.g. `{ tools: {} }` to offer tools before any is
   * registered, or `experimental` entries.
   */
  capabilities?: ServerCapabilities;
  /** Items per page of every list method; default 100. */
  pageSize?: number;
  /**
   * Receives the server's own problems (a notification that could not be sent, a handler that
   * failed with anything but a `ProtocolError`, answered -32603), as `logger.error({ err,
   * sessionId }, message)` or `logger.warn`. A pino logger can be passed as it is. The error is
   * redacted of every credential the request was handed. Default: `stderrLogger()` once the server
   * serves a stdio transport on the process's stdout (which carries JSON-RPC), `consoleLogger()`
   * otherwise.
   */
  logger?: Logger;
  /**
   * Keeps hand-offs to web pages (out-of-band user interactions), e.g. an `InteractionManager`
   * from `mcp-handoff/interaction`. Without it `ctx.interact` and `InteractionRequired` fail with
   * a local error.
   */
  interactions?: InteractionService;
  /**
   * How a hand-off reaches a client that declared no way to open a page, and the server's choice
   * of form per client (`HandoffLadderOptions`, `docs/wire-forms.md`): `inbox: { url }` turns on
   * the last rung, the fixed inbox page; `formFor(clientInfo, capabilities)` overrides the ladder
   * for a client. Default: no inbox, the ladder as the client declared.
   * @throws TypeError from the constructor for an inbox URL that is not absolute http(s) or has a
   *   query or a fragment.
   */
  handoffs?: HandoffLadderOptions;
  /**
   * Revision 2026-07-28: `ttlMs` (ms) and `cacheScope` put on list and read results that set none.
   * Default `{ ttlMs: 0, cacheScope: "private" }`: clients re-fetch, and shared caches keep nothing.
   */
  cacheHints?: CacheHints;
  /**
   * Revision 2026-07-28: the one key (exactly 32 bytes) that seals `requestState`, as
   * `requestStateKeys: [requestStateSecret]`. Default: a random key for each `McpServer`, which
   * suits a single instance only: a state outlives neither a restart nor another instance, so
   * every instance behind one endpoint must be given the same keys.
   * @throws SdkError "INVALID_ARGUMENT" from the constructor for a key that is not 32 bytes.
   */
  requestStateSecret?: Uint8Array;
  /**
   * Revision 2026-07-28: the keys that seal `requestState` (a compact JWE, `dir` + `A256GCM`,
   * RFC 7516), shared by every instance behind one endpoint (a fleet). Each `{ id, key }`: `id` 1
   * to 64 of `A-Z a-z 0-9 . _ -`, named in the state's header; `key` exactly 32 bytes. A bare
   * 32-byte key is named by a digest of itself. The first seals and every one opens, so to rotate,
   * put the new key first and drop the old one once the states it sealed have expired
   * (`requestStateTtlMs`); a state sealed under no key of the list is refused with -32602.
   * Replaces `requestStateSecret`.
   * @throws SdkError "INVALID_ARGUMENT" from the constructor for an empty list, a key that is not
   *   32 bytes, a bad or repeated id, or both options at once.
   */
  requestStateKeys?: readonly (RequestStateKey | Uint8Array)[];
  /** ms a `requestState` stays valid; default 600,000 (10 minutes). */
  requestStateTtlMs?: number;
  /**
   * Revision 2026-07-28: ms a retry that answers `accept` for a hand-off whose page the user has
   * not finished yet is held, waiting for the completion, before a fresh `InputRequiredResult`
   * asks for the page again (spec 2026-07-28: client/elicitation § URL Mode Flow). Default
   * 25,000, well under common proxy timeouts; over Streamable HTTP the held answer is an SSE
   * stream with keep-alives. 0 answers at once. The hold ends early when the client goes away.
   * @throws TypeError from the constructor for a negative, fractional or too long value.
   */
  handoffHoldMs?: number;
  /** ms since the epoch, for `requestState` expiry; default `Date.now`. */
  now?: () => number;
  /**
   * OpenTelemetry tracing (`docs/tracing.md`): a SERVER span per request, named
   * `{mcp.method.name} {target}` with the MCP semantic conventions' attributes, whose parent is
   * the W3C trace context in the request's `params._meta` (`traceparent`, `tracestate`) when the
   * client sent a well-formed one; and a span for each 2026-07-28 retry after a hand-off. Default:
   * the global tracer provider (`trace.getTracer("mcp-handoff", version)`) when
   * `@opentelemetry/api` is installed, else none. `false`: none, and the API is never loaded;
   * `{ tracer }`: that tracer.
   * @throws SdkError "DEPENDENCY_MISSING" from `connect` when `true` or `{ tracer }` is given and
   *   `@opentelemetry/api` is not installed.
   */
  tracing?: TracingOption;
}

type ListKind = "tools" | "resources" | "prompts";

/**
 * An MCP server (spec: server/*). Register tools, resources and prompts, then `connect` a
 * transport per client; registrations made later reach connected clients as `list_changed`.
 *
 * ```ts
 * const server = new McpServer({ name: "weather", version: "1.0.0" });
 * server.registerTool("forecast", { inputSchema: { city: z.string() } }, ({ city }) => ({
 *   content: [{ type: "text", text: `Sunny in ${city}` }],
 * }));
 * await server.connect(transport);
 * ```
 */
export class McpServer {
  readonly #info: Implementation;
  readonly #options: McpServerOptions;
  readonly #sessions = new Set<ServerConnection>();
  readonly #pendingListChanges = new Set<ListKind>();
  readonly #tools: ToolRegistry;
  readonly #resources: ResourceRegistry;
  readonly #prompts: PromptRegistry;
  readonly #stateless: StatelessSettings;
  readonly #tracing: Tracing;
  readonly #definition: ServerDefinition;
  readonly #methods: MethodTable;
  #host: SessionHost | undefined;
  /** The fleet whose sessions this server serves, learnt from the first shared session it serves. */
  #fleet: FleetSessions | undefined;
  /** Stops telling clients of the interactions done here (`deliverCompletionsWith`); set while connected. */
  #stopDelivering: (() => void) | undefined;
  /** Set once a transport on the process's stdout is served: the default logger writes to stderr only. */
  #onStdout = false;
  #consoleDefault: Logger | undefined;
  #stderrDefault: Logger | undefined;
  /** `logger` forwarding to the one in use at each call, for the connect pages and the owner's own reports. */
  readonly #logger: Logger = {
    error: (fields, message) => this.#currentLogger().error(fields, message),
    warn: (fields, message) => this.#currentLogger().warn(fields, message),
    info: (fields, message) => this.#currentLogger().info(fields, message),
    debug: (fields, message) => this.#currentLogger().debug(fields, message),
  };

  /** @param info `serverInfo` (spec: basic/lifecycle § Initialization). */
  constructor(info: ServerInfo, options: McpServerOptions = {}) {
    this.#info = { ...info };
    this.#options = options;
    if (options.handoffs?.inbox !== undefined) checkInboxUrl(options.handoffs.inbox.url);
    this.#stateless = statelessSettings(options);
    this.#tracing = Tracing.from(options.tracing);
    const fail = (message: string, error: unknown) => this.#report("error", message, error);
    this.#tools = new ToolRegistry(
      () => this.#listChanged("tools"),
      (message) => this.#report("warn", message),
      fail,
    );
    this.#resources = new ResourceRegistry(() => this.#listChanged("resources"));
    this.#prompts = new PromptRegistry(() => this.#listChanged("prompts"), fail);
    this.#definition = new ServerDefinition(
      this.#tools,
      this.#resources,
      this.#prompts,
      options.pageSize ?? 100,
      options.capabilities,
    );
    this.#methods = serverMethods(this.#definition);
  }

  /**
   * Where this server reports its own problems: `options.logger`, or the default (stderr once the
   * server serves stdio on the process's stdout, `console` otherwise). Pass it to
   * `createConnectHandler({ logger })` so the connect pages report to the same place.
   */
  get logger(): Logger {
    return this.#logger;
  }

  #currentLogger(): Logger {
    if (this.#options.logger !== undefined) return this.#options.logger;
    if (this.#onStdout) {
      this.#stderrDefault ??= stderrLogger();
      return this.#stderrDefault;
    }
    this.#consoleDefault ??= consoleLogger();
    return this.#consoleDefault;
  }

  /** Sessions currently connected. */
  get sessions(): readonly ServerSession[] {
    return [...this.#sessions];
  }

  /**
   * Serves this server's definition on `transport` until it closes. Call once per connection.
   * Resolves once the transport is started; the client's `initialize` comes after.
   */
  async connect(transport: Transport): Promise<ServerSession> {
    if (ownsStdout(transport)) this.#onStdout = true;
    // One host for every connection: thousands of idle HTTP sessions need not each hold these closures.
    this.#host ??= {
      serverInfo: this.#info,
      instructions: this.#options.instructions,
      interactions: this.#options.interactions,
      handoffs: this.#options.handoffs,
      stateless: this.#stateless,
      tracing: this.#tracing,
      definition: this.#definition,
      methods: this.#methods,
      report: (message, error, sessionId) => this.#report("error", message, error, sessionId),
      closed: (closed) => this.#sessions.delete(closed),
    };
    this.#fleet ??= sharedSessionOf(transport)?.fleet;
    this.#stopDelivering ??= this.#options.interactions?.deliverCompletionsWith?.((done) => this.#tellDone(done));
    const session = new ServerConnection(this.#host);
    this.#sessions.add(session);
    try {
      // Attached before anything is awaited: a transport may deliver its first message at once
      // (a stateless POST), served untraced while `@opentelemetry/api` still loads.
      await session.connect(transport);
    } catch (error) {
      this.#sessions.delete(session);
      throw error;
    }
    try {
      await this.#tracing.ready();
    } catch (error) {
      // Tracing asked for outright without the API: the connection is refused (DEPENDENCY_MISSING).
      this.#sessions.delete(session);
      await session.close().catch(() => undefined);
      throw error;
    }
    return session;
  }

  /**
   * Serves the sessions of a fleet (Streamable HTTP with `fleet`: give it the HTTP server's
   * `fleetSessions`): a hand-off done on this instance, or a resource changed here, is told to its
   * session through a replica made here when no connection of it is. Without this call the server
   * learns the fleet from the first of its sessions it serves.
   */
  serveFleet(sessions: FleetSessions): void {
    this.#fleet = sessions;
    this.#stopDelivering ??= this.#options.interactions?.deliverCompletionsWith?.((done) => this.#tellDone(done));
  }

  /** Closes every session. */
  async close(): Promise<void> {
    this.#stopDelivering?.();
    this.#stopDelivering = undefined;
    await Promise.allSettled([...this.#sessions].map((session) => session.close()));
  }

  /**
   * An interaction completed (or declined on the page) on this instance: its session's client is
   * told by the session's connection here, or in a fleet by a replica made for it, whose notice
   * waits on the session's shared GET stream for the client, wherever that reconnects.
   * @returns whether the notice was sent (else the instances holding the session send it).
   */
  async #tellDone(interaction: UserInteraction): Promise<boolean> {
    let session = this.#connectionOf(interaction.sessionId);
    if (session === undefined && this.#fleet !== undefined && (await this.#fleet.replicate(interaction.sessionId))) {
      session = this.#connectionOf(interaction.sessionId);
    }
    return session === undefined ? false : session.tellInteractionDone(interaction);
  }

  /** Fleet: replicas of the sessions the directory knows as subscribed to `uri`; their ids. */
  async #replicateSubscribers(uri: string): Promise<ReadonlySet<string>> {
    const fleet = this.#fleet;
    const ids = fleet === undefined ? undefined : await fleet.subscribedTo(uri);
    if (fleet === undefined || ids === undefined) return new Set();
    const held = new Set([...this.#sessions].map((session) => session.id));
    await Promise.all(ids.filter((id) => !held.has(id)).map((id) => fleet.replicate(id)));
    return new Set(ids);
  }

  #connectionOf(sessionId: string): ServerConnection | undefined {
    for (const session of this.#sessions) if (session.id === sessionId) return session;
    return undefined;
  }

  /**
   * What `initialize` announces: `logging` always; `tools`, `resources` (with `subscribe`),
   * `prompts` when any is registered, each with `listChanged`; `completions` when a prompt or
   * template has a completer; then `options.capabilities` on top.
   */
  capabilities(): ServerCapabilities {
    // A new object: the definition's own is shared by every session.
    return this.#definition.derive();
  }

  /**
   * Registers a tool (spec: server/tools); the returned handle enables, disables, updates or
   * removes it, each sending `notifications/tools/list_changed`.
   *
   * Schemas are checked now by their shape only: a JSON Schema needs `"type": "object"`, and no
   * subschema may hold a keyword value its draft's meta-schema refuses (a misspelt `type`, a
   * `pattern` that is no regular expression, ...); a zod schema must describe an object (a raw
   * shape always does). They are compiled on first use: a zod schema's JSON Schema on the first
   * `tools/list` or call, the validators on the tool's first `tools/call`. Neither zod nor ajv is
   * loaded before then. A schema that passes the shape check but does not compile (an unresolvable
   * `$ref`, say) makes each call of that tool answer -32603 Internal error (a server error, spec:
   * server/tools § Error Handling), with the reason sent to `options.logger`; a zod schema that
   * cannot be turned into JSON Schema also leaves the tool out of `tools/list`. Other tools are
   * unaffected.
   * @throws SdkError "INVALID_ARGUMENT" for a taken name or a schema that fails the shape check.
   */
  registerTool<I extends SchemaInput = ZodRawShape, O extends SchemaInput = ZodRawShape>(
    name: string,
    config: ToolConfig<I, O>,
    handler: ToolHandler<I>,
  ): ToolHandle {
    return this.#tools.register(name, config, handler as unknown as ToolHandler);
  }

  /**
   * Registers a resource at a fixed URI, or a family of resources behind a `ResourceTemplate`
   * (spec: server/resources). Reads of unknown URIs answer -32002.
   * @throws SdkError "INVALID_ARGUMENT" when the URI (or the template's name) is taken.
   */
  registerResource(
    name: string,
    uriOrTemplate: string | ResourceTemplate,
    metadata: ResourceMetadata,
    read: ReadResourceCallback,
  ): ResourceHandle {
    return this.#resources.register(name, uriOrTemplate, metadata, read);
  }

  /**
   * Registers a prompt (spec: server/prompts); `prompts/get` answers -32602 when arguments fail
   * `argsSchema`, which is turned into a zod object (and the listed arguments) on first use.
   * @throws SdkError "INVALID_ARGUMENT" for a taken name, or an `argsSchema` that is not a zod raw shape.
   */
  registerPrompt<A extends ZodRawShape = ZodRawShape>(
    name: string,
    config: PromptConfig<A>,
    callback: PromptCallback<A>,
  ): PromptHandle {
    return this.#prompts.register(name, config as PromptConfig, callback as PromptCallback);
  }

  /**
   * Sends `notifications/resources/updated` for `uri` to the sessions subscribed to it. In a fleet
   * (Streamable HTTP with `fleet`) that is every session the directory knows as subscribed: one
   * this instance holds no replica of gets one made for it, and the notice waits on its shared GET
   * stream. Sent from here only, so each session gets it once. Never rejects.
   */
  async notifyResourceUpdated(uri: string): Promise<void> {
    const elsewhere = await this.#replicateSubscribers(uri);
    const subscribed = [...this.#sessions].filter((session) => session.isSubscribed(uri) || elsewhere.has(session.id));
    await Promise.all([
      ...subscribed.map((session) => session.notify("notifications/resources/updated", { uri })),
      ...[...this.#sessions].map((session) => session.listens.resourceUpdated(uri)),
    ]);
  }

  /** Changes in one tick are sent as one notification per list. */
  #listChanged(kind: ListKind): void {
    this.#definition.changed();
    if (this.#pendingListChanges.has(kind) || this.#sessions.size === 0) return;
    this.#pendingListChanges.add(kind);
    queueMicrotask(() => {
      this.#pendingListChanges.delete(kind);
      for (const session of this.#sessions) {
        if (session.announces(kind)) void session.notify(`notifications/${kind}/list_changed`);
        void session.listens.listChanged(kind);
      }
    });
  }

  #report(level: "warn" | "error", message: string, error?: unknown, sessionId?: string): void {
    const fields: { err?: unknown; sessionId?: string } = {};
    if (error !== undefined) fields.err = error;
    if (sessionId !== undefined) fields.sessionId = sessionId;
    try {
      this.#currentLogger()[level](fields, message);
    } catch {
      // A logger that throws must not turn a report into a failure of the request that made it.
    }
  }
}
