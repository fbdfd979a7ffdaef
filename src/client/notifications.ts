/**
 * Server-to-client notifications: typed hooks for the ones MCP defines, a generic handler for
 * any method, and the bookkeeping of URL-mode elicitations the client is waiting on.
 */
import { SdkError } from "../jsonrpc/errors.js";
import type { JsonRpcSession, NotificationHandler, Params } from "../jsonrpc/session.js";
import type { LoggingMessageParams, ServerCapabilities, ServerRequestContext } from "./types.js";

/** Typed callbacks for the notifications a server may send (spec 2025-11-25 § server, client/elicitation). */
export interface NotificationHooks {
  /** `notifications/tools/list_changed`. Output schemas learnt from `tools/list` are dropped first. */
  onToolListChanged?: () => void;
  /** `notifications/resources/list_changed`. */
  onResourceListChanged?: () => void;
  /** `notifications/prompts/list_changed`. */
  onPromptListChanged?: () => void;
  /** `notifications/resources/updated` for a resource the client subscribed to. */
  onResourceUpdated?: (uri: string) => void;
  /** `notifications/message`: a log entry at or above the level set by `setLoggingLevel`. */
  onLoggingMessage?: (params: LoggingMessageParams) => void;
  /**
   * `notifications/elicitation/complete` for a URL-mode elicitation this client accepted or
   * received in a -32042 error. Unknown and already-completed ids never reach this hook.
   */
  onElicitationComplete?: (elicitationId: string) => void;
  /**
   * A form-mode elicitation refused before the elicitation handler saw it, because its message,
   * a field title or a description carries a URL (spec 2025-11-25: client/elicitation § Safe URL
   * Handling). `reason` names the rule, not the URL; `ctx.serverInfo` says which server tried.
   */
  onElicitationRefused?: (reason: string, ctx: ServerRequestContext) => void;
}

/** The list-change types a `subscriptions/listen` can ask for (its filter without the URIs). */
export interface ListChanges {
  toolsListChanged?: true;
  promptsListChanged?: true;
  resourcesListChanged?: true;
}

/**
 * The list changes a `subscriptions/listen` should ask for: those whose hook is set and whose
 * list the server says can change, in the filter's order (tools, prompts, resources).
 */
export function listChangesWanted(hooks: NotificationHooks, caps: ServerCapabilities): ListChanges {
  const wanted: ListChanges = {};
  if (hooks.onToolListChanged && caps.tools?.listChanged) wanted.toolsListChanged = true;
  if (hooks.onPromptListChanged && caps.prompts?.listChanged) wanted.promptsListChanged = true;
  if (hooks.onResourceListChanged && caps.resources?.listChanged) wanted.resourcesListChanged = true;
  return wanted;
}

/**
 * The URL-mode elicitations the client is waiting on: those it accepted and those carried in
 * -32042 errors. A completion is reported once; unknown or repeated ids are ignored, as the
 * spec requires (client/elicitation § Completion Notifications). Only the `limit` most recently
 * tracked ids are kept, so a long-lived client whose elicitations never complete stays bounded;
 * a completion for an id dropped that way is ignored like an unknown one.
 */
export class ElicitationTracker {
  /** In order of tracking, oldest first (a `Set` iterates in insertion order). */
  private readonly open = new Set<string>();

  /** @param limit how many ids are kept at most; default 1,000. */
  constructor(private readonly limit = 1_000) {}

  track(elicitationId: string): void {
    // Tracking again makes the id the most recent.
    this.open.delete(elicitationId);
    this.open.add(elicitationId);
    for (const oldest of this.open) {
      if (this.open.size <= this.limit) break;
      this.open.delete(oldest);
    }
  }

  /** Whether the id was awaited; it no longer is afterwards. */
  complete(elicitationId: string): boolean {
    return this.open.delete(elicitationId);
  }

  /** Whether the client is still waiting for this id to complete. */
  isPending(elicitationId: string): boolean {
    return this.open.has(elicitationId);
  }
}

/** Methods the JSON-RPC session answers itself; a user handler would break cancellation or progress. */
const SESSION_METHODS = new Set(["notifications/cancelled", "notifications/progress"]);

type Route = (params: Params) => void;

/** The notifications a `subscriptions/listen` stream carries, each tagged with the listen's id. */
const LISTEN_METHODS = new Set([
  "notifications/tools/list_changed",
  "notifications/resources/list_changed",
  "notifications/prompts/list_changed",
  "notifications/resources/updated",
]);

/** The client's `subscriptions/listen` bookkeeping, as the router needs it (see `ChangeListener`). */
export interface ListenTracker {
  /** `notifications/subscriptions/acknowledged` arrived. */
  acknowledged(params: Params): void;
  /** Whether a change notification belongs to the open listen (or to no listen at all). */
  accepts(params: Params): boolean;
}

/** Connects the notification hooks and user handlers to a session. */
export class NotificationRouter {
  private readonly custom = new Map<string, NotificationHandler>();
  private readonly routes: ReadonlyMap<string, Route>;
  private session: JsonRpcSession | undefined;

  constructor(
    hooks: NotificationHooks,
    readonly elicitations: ElicitationTracker,
    onToolListChanged: () => void,
    private readonly listens?: ListenTracker,
  ) {
    this.routes = new Map<string, Route>([
      ["notifications/subscriptions/acknowledged", (params) => listens?.acknowledged(params)],
      [
        "notifications/tools/list_changed",
        () => {
          onToolListChanged();
          hooks.onToolListChanged?.();
        },
      ],
      ["notifications/resources/list_changed", () => hooks.onResourceListChanged?.()],
      ["notifications/prompts/list_changed", () => hooks.onPromptListChanged?.()],
      [
        "notifications/resources/updated",
        (params) => {
          if (typeof params.uri === "string") hooks.onResourceUpdated?.(params.uri);
        },
      ],
      [
        "notifications/message",
        (params) => {
          if (typeof params.level === "string") hooks.onLoggingMessage?.(params as unknown as LoggingMessageParams);
        },
      ],
      [
        "notifications/elicitation/complete",
        (params) => {
          const id = params.elicitationId;
          if (typeof id === "string" && elicitations.complete(id)) hooks.onElicitationComplete?.(id);
        },
      ],
    ]);
  }

  /**
   * Adds a handler for `method`, replacing an earlier one. For methods with a typed hook, both run.
   * @throws SdkError "INVALID_ARGUMENT" for `notifications/cancelled` and `notifications/progress`,
   *   which the session itself handles (use `signal` and `onprogress` on requests instead).
   */
  set(method: string, handler: NotificationHandler): void {
    if (SESSION_METHODS.has(method)) {
      throw new SdkError("INVALID_ARGUMENT", `${method} is handled by the session; use request options instead`);
    }
    this.custom.set(method, handler);
    this.session?.setNotificationHandler(method, this.dispatcher(method));
  }

  /** Registers every known and custom method on a newly connected session. */
  install(session: JsonRpcSession): void {
    this.session = session;
    for (const method of new Set([...this.routes.keys(), ...this.custom.keys()])) {
      session.setNotificationHandler(method, this.dispatcher(method));
    }
  }

  private dispatcher(method: string): NotificationHandler {
    return async (params, extra) => {
      // A notification left over from a listen already replaced or cancelled is dropped.
      if (LISTEN_METHODS.has(method) && this.listens?.accepts(params) === false) return;
      this.routes.get(method)?.(params);
      await this.custom.get(method)?.(params, extra);
    };
  }
}
