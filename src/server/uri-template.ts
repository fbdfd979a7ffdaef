/**
 * RFC 6570 URI templates for parameterized resources (spec: server/resources § Resource
 * Templates). Expansion and matching come from `uri-template-matcher`; this module adds what MCP
 * needs around it: the variable names (for completion) and the optional callbacks.
 */
import { UriTemplateExpander, UriTemplateMatcher } from "uri-template-matcher";
import { SdkError } from "../jsonrpc/errors.js";
import type { Resource } from "../revisions/index.js";
import type { RequestContext } from "./handler-types.js";

/** Values matched from a URI: a string per variable, a list for exploded (`{var*}`) variables. */
export type TemplateVariables = Record<string, string | string[]>;

/** What a completer is told besides the partial value (spec: server/utilities/completion). */
export interface CompletionContext {
  /** Values the client already resolved for the other arguments or variables. */
  arguments: Record<string, string>;
}

/** Suggests values for one argument; at most the first 100 are sent. */
export type Completer = (value: string, context: CompletionContext) => string[] | Promise<string[]>;

/** A concrete resource as a template's `list` callback returns it; the template's metadata fills the gaps. */
export type ListedResource = Pick<Resource, "uri" | "name"> & Partial<Resource>;

/** Callbacks of a template. */
export interface ResourceTemplateCallbacks {
  /** Lists the concrete resources this template currently stands for (merged into `resources/list`). */
  list?: (ctx: RequestContext) => ListedResource[] | Promise<ListedResource[]>;
  /** One completer per variable name, used by `completion/complete` with a `ref/resource`. */
  complete?: Record<string, Completer>;
}

const EXPRESSION = /\{([+#./;?&]?)([^{}]+)\}/g;

/**
 * A URI template such as `users://{id}/profile` or `file:///{+path}`, with optional `list` and
 * per-variable `complete` callbacks. Matching covers RFC 6570 levels 1 to 4 as far as a match can
 * be undone; a multi-variable path expression such as `{/a,b}` is ambiguous and best avoided.
 */
export class ResourceTemplate {
  /** The template text exactly as given; it is also the `uriTemplate` advertised to clients. */
  readonly uriTemplate: string;
  /** Variable names in order of appearance, without operators or modifiers. */
  readonly variableNames: readonly string[];
  /** `list` and per-variable `complete`, as given to the constructor. */
  readonly callbacks: ResourceTemplateCallbacks;
  readonly #matcher = new UriTemplateMatcher();
  readonly #expander: UriTemplateExpander;

  /** @throws SdkError "INVALID_ARGUMENT" when the template is not valid RFC 6570. */
  constructor(uriTemplate: string, callbacks: ResourceTemplateCallbacks = {}) {
    try {
      this.#matcher.add(uriTemplate);
      this.#expander = new UriTemplateExpander(uriTemplate);
    } catch (cause) {
      throw new SdkError("INVALID_ARGUMENT", `Invalid URI template: ${uriTemplate}`, { cause });
    }
    this.uriTemplate = uriTemplate;
    this.callbacks = callbacks;
    const names: string[] = [];
    for (const [, , list] of uriTemplate.matchAll(EXPRESSION)) {
      for (const spec of (list ?? "").split(",")) {
        const name = spec.replace(/(\*|:\d+)$/, "").trim();
        if (name && !names.includes(name)) names.push(name);
      }
    }
    this.variableNames = names;
  }

  /** Fills the template in; undefined variables are left out, as RFC 6570 says. */
  expand(variables: Record<string, unknown>): string {
    return this.#expander.expand(variables);
  }

  /** The variables of `uri` when it is an expansion of this template, else `undefined`. */
  match(uri: string): TemplateVariables | undefined {
    try {
      return this.#matcher.match(uri)?.params ?? undefined;
    } catch {
      return undefined;
    }
  }
}
