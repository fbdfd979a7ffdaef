/**
 * What one `McpServer` serves: its tool, resource and prompt registries, the page size of its
 * list methods, and the capabilities all of that amounts to. Every session of the server reads
 * the same definition, so a registration reaches them all.
 */
import type { ServerCapabilities } from "../revisions/index.js";
import type { PromptRegistry } from "./prompts.js";
import type { ResourceRegistry } from "./resources.js";
import type { ToolRegistry } from "./tools.js";

export class ServerDefinition {
  /** What `capabilities()` computed last; forgotten by `changed()`. */
  #capabilities: ServerCapabilities | undefined;

  /**
   * @param pageSize items per page of every list method.
   * @param extra `McpServerOptions.capabilities`, merged over the derived ones.
   */
  constructor(
    readonly tools: ToolRegistry,
    readonly resources: ResourceRegistry,
    readonly prompts: PromptRegistry,
    readonly pageSize: number,
    private readonly extra: ServerCapabilities = {},
  ) {}

  /**
   * What `initialize` announces and stateless requests are checked against: `logging` always;
   * `tools`, `resources` (with `subscribe`), `prompts` when any is registered, each with
   * `listChanged`; `completions` when a prompt or template has a completer; then `extra` on top.
   * Computed once per change of the registries (see `changed`) and shared by every caller:
   * callers read it and never change it.
   */
  capabilities(): ServerCapabilities {
    this.#capabilities ??= this.derive();
    return this.#capabilities;
  }

  /** Called on every change of the tools, resources or prompts: the next `capabilities()` derives them again. */
  changed(): void {
    this.#capabilities = undefined;
  }

  /** The capabilities as `capabilities()` tells them, in a new object the caller may keep or change. */
  derive(): ServerCapabilities {
    const extra = this.extra;
    const caps: ServerCapabilities = { logging: {} };
    if (this.prompts.completes || this.resources.completes) caps.completions = {};
    if (this.prompts.size > 0 || extra.prompts) caps.prompts = { listChanged: true };
    if (this.resources.size > 0 || extra.resources) caps.resources = { subscribe: true, listChanged: true };
    if (this.tools.size > 0 || extra.tools) caps.tools = { listChanged: true };
    for (const [key, value] of Object.entries(extra)) {
      const base = (caps as Record<string, unknown>)[key];
      (caps as Record<string, unknown>)[key] =
        typeof base === "object" && typeof value === "object" ? { ...base, ...value } : value;
    }
    return caps;
  }
}
