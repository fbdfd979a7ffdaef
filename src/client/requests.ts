/**
 * The requests a client sends, one method each, all shaped `(params, options?) => result`
 * (spec 2025-11-25: server/*, basic/utilities/ping). Pagination helpers sit on top and never
 * replace the single-page calls.
 */
import type { Params, Result } from "../jsonrpc/session.js";
import type { ClientConnection } from "./connection.js";
import { ToolOutputValidator } from "./output-validation.js";
import { collectPages } from "./pagination.js";
import type {
  CallOptions,
  CallToolParams,
  CallToolResult,
  CompleteParams,
  CompleteResult,
  EmptyResult,
  GetPromptParams,
  GetPromptResult,
  ListPromptsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ListToolsResult,
  PaginatedParams,
  Prompt,
  ReadResourceParams,
  ReadResourceResult,
  RequestParams,
  Resource,
  ResourceTemplate,
  SetLevelParams,
  SubscribeParams,
  Tool,
} from "./types.js";

/** Params of the `listAll*` helpers: anything but the cursor, which they manage. */
export type ListAllParams = Omit<PaginatedParams, "cursor">;

/**
 * The spec requests of `McpClient`, each one method over `call`, which the client sends through
 * the connection it holds.
 */
export abstract class ClientRequests {
  /** Output schemas from `tools/list`, used to check `tools/call` results. */
  protected readonly outputValidator = new ToolOutputValidator();

  /** The connection every request goes through. */
  protected abstract readonly connection: ClientConnection;

  /**
   * Sends one request on behalf of a spec method.
   * @throws SdkError "NOT_CONNECTED" before `connect`; "CAPABILITY_NOT_SUPPORTED" when the server
   *   did not declare what `method` needs (nothing is sent).
   */
  protected call<R = Result>(method: string, params: object | undefined, options?: CallOptions): Promise<R> {
    return this.connection.call<R>(method, params, options);
  }

  /**
   * `ping`: checks the server is alive. Resolves with an empty result.
   * @throws SdkError "REQUEST_TIMEOUT" when the server does not answer in time.
   */
  ping(params?: RequestParams, options?: CallOptions): Promise<EmptyResult> {
    return this.call("ping", params, options);
  }

  /**
   * `tools/list`: one page of tools. Output schemas are remembered so that `callTool` can check
   * `structuredContent`. Needs the server's `tools` capability (else SdkError "CAPABILITY_NOT_SUPPORTED").
   */
  async listTools(params?: PaginatedParams, options?: CallOptions): Promise<ListToolsResult> {
    const result = (await this.call("tools/list", params, options)) as ListToolsResult;
    this.outputValidator.remember(result.tools);
    return result;
  }

  /**
   * `tools/call`. A tool's own failure comes back as a result with `isError: true`; protocol
   * failures throw. When the tool was listed with an `outputSchema`, `structuredContent` is checked.
   * @throws UrlElicitationRequiredError (-32042) when the server needs URL-mode elicitations first;
   *   their ids are then awaited for `onElicitationComplete`.
   * @throws SdkError "INVALID_RESULT" when `structuredContent` does not match the output schema.
   */
  callTool(params: CallToolParams, options?: CallOptions): Promise<CallToolResult> {
    return this.call("tools/call", params, options) as Promise<CallToolResult>;
  }

  /** A `tools/call` result is checked against the tool's output schema as soon as it arrives. */
  protected checkOutput(method: string, params: Params | undefined, result: Result): void {
    if (method === "tools/call") this.outputValidator.check(String(params?.name), result as unknown as CallToolResult);
  }

  /** `resources/list`: one page of resources. Needs the server's `resources` capability. */
  listResources(params?: PaginatedParams, options?: CallOptions): Promise<ListResourcesResult> {
    return this.call("resources/list", params, options) as Promise<ListResourcesResult>;
  }

  /** `resources/templates/list`: one page of URI templates. Needs the `resources` capability. */
  listResourceTemplates(params?: PaginatedParams, options?: CallOptions): Promise<ListResourceTemplatesResult> {
    return this.call("resources/templates/list", params, options) as Promise<ListResourceTemplatesResult>;
  }

  /**
   * `resources/read`. Needs the `resources` capability.
   * @throws ProtocolError -32002 when the resource does not exist.
   */
  readResource(params: ReadResourceParams, options?: CallOptions): Promise<ReadResourceResult> {
    return this.call("resources/read", params, options) as Promise<ReadResourceResult>;
  }

  /**
   * Subscribes to changes of `params.uri`; `onResourceUpdated` then hears about them. Stateful
   * era: `resources/subscribe`. Stateless era (2026-07-28: basic/patterns/subscriptions): the URI
   * joins the filter of the client's one `subscriptions/listen`, which is re-opened and awaited
   * until acknowledged; `options.signal` and `options.timeoutMs` (ms, default the client's
   * `defaultTimeoutMs`) bound that wait, and giving up takes the URI out of the filter again.
   * @throws SdkError "CAPABILITY_NOT_SUPPORTED" without the server's `resources.subscribe`;
   *   "NOT_CONNECTED" before `connect`; "REQUEST_TIMEOUT" / "REQUEST_CANCELLED" when the wait
   *   ends first; ProtocolError the server's refusal.
   */
  async subscribeResource(params: SubscribeParams, options?: CallOptions): Promise<EmptyResult> {
    return await this.connection.subscribeResource(params, options);
  }

  /**
   * Stops the updates of `params.uri`: `resources/unsubscribe`, or in the stateless era the URI
   * leaves the listen's filter (re-opened, or cancelled when nothing is left to hear).
   * @throws as `subscribeResource`.
   */
  async unsubscribeResource(params: SubscribeParams, options?: CallOptions): Promise<EmptyResult> {
    return await this.connection.unsubscribeResource(params, options);
  }

  /** `prompts/list`: one page of prompts. Needs the server's `prompts` capability. */
  listPrompts(params?: PaginatedParams, options?: CallOptions): Promise<ListPromptsResult> {
    return this.call("prompts/list", params, options) as Promise<ListPromptsResult>;
  }

  /** `prompts/get` with string arguments. Needs the `prompts` capability. */
  getPrompt(params: GetPromptParams, options?: CallOptions): Promise<GetPromptResult> {
    return this.call("prompts/get", params, options) as Promise<GetPromptResult>;
  }

  /** `completion/complete`: suggestions for a prompt or resource-template argument. Needs `completions`. */
  complete(params: CompleteParams, options?: CallOptions): Promise<CompleteResult> {
    return this.call("completion/complete", params, options) as Promise<CompleteResult>;
  }

  /**
   * `interaction/track` (the user-interaction proposal): follows an interaction the server sent this
   * client. Pass `onprogress`; `progress === total` says it completed. The server answers once the
   * interaction is over, so pass a `signal` and a `timeoutMs` that fit. Needs
   * `setUserInteractionHandler` before `connect`.
   * @throws ProtocolError -32602 for an id the server did not send this client.
   */
  trackInteraction(params: { id: string }, options?: CallOptions): Promise<EmptyResult> {
    return this.call("interaction/track", params, options);
  }

  /**
   * `logging/setLevel`: the lowest level of `notifications/message` to receive. Needs `logging`.
   * With a stateless server nothing is sent: the level travels with every later request.
   */
  async setLoggingLevel(params: SetLevelParams, options?: CallOptions): Promise<EmptyResult> {
    return await this.connection.setLoggingLevel(params, options);
  }

  /**
   * Every tool, following `nextCursor` page by page; `options` apply to each page.
   * @throws SdkError "INVALID_RESULT" when the server repeats a cursor.
   */
  listAllTools(params?: ListAllParams, options?: CallOptions): Promise<Tool[]> {
    return collectPages(
      (cursor) => this.listTools(withCursor(params, cursor), options),
      (page) => page.tools,
    );
  }

  /** Every resource, page by page. @throws SdkError "INVALID_RESULT" when the server repeats a cursor. */
  listAllResources(params?: ListAllParams, options?: CallOptions): Promise<Resource[]> {
    return collectPages(
      (cursor) => this.listResources(withCursor(params, cursor), options),
      (page) => page.resources,
    );
  }

  /** Every resource template, page by page. @throws SdkError "INVALID_RESULT" when the server repeats a cursor. */
  listAllResourceTemplates(params?: ListAllParams, options?: CallOptions): Promise<ResourceTemplate[]> {
    return collectPages(
      (cursor) => this.listResourceTemplates(withCursor(params, cursor), options),
      (page) => page.resourceTemplates,
    );
  }

  /** Every prompt, page by page. @throws SdkError "INVALID_RESULT" when the server repeats a cursor. */
  listAllPrompts(params?: ListAllParams, options?: CallOptions): Promise<Prompt[]> {
    return collectPages(
      (cursor) => this.listPrompts(withCursor(params, cursor), options),
      (page) => page.prompts,
    );
  }
}

function withCursor(params: ListAllParams | undefined, cursor: string | undefined): PaginatedParams | undefined {
  return cursor === undefined ? params : { ...params, cursor };
}
