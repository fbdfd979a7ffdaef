/**
 * Resources and resource templates: registration, `resources/list`, `resources/templates/list`
 * and `resources/read` (spec: server/resources). Subscriptions live on the session.
 */
import { ErrorCode, ProtocolError } from "../jsonrpc/errors.js";
import type {
  Annotations,
  Icon,
  ReadResourceResult,
  Resource,
  ResourceTemplate as ResourceTemplateDescription,
} from "../revisions/index.js";
import type { RequestContext } from "./handler-types.js";
import { paginate } from "./pagination.js";
import { type RegisteredHandle, Registry } from "./registry.js";
import type { ResourceTemplate, TemplateVariables } from "./uri-template.js";

/** What describes a resource or template besides its name and URI (spec: server/resources § Resource). */
export interface ResourceMetadata {
  /** Display name. */
  title?: string;
  /** What the resource holds, for a model or a person. */
  description?: string;
  /** MIME type of the contents, e.g. `text/markdown`. */
  mimeType?: string;
  /** Size of the raw content in bytes, when known (static resources only). */
  size?: number;
  /** Icons for user interfaces. */
  icons?: Icon[];
  /** Audience, priority (0 to 1) and last-modified time (spec: server/resources § Annotations). */
  annotations?: Annotations;
  /** Free-form metadata sent with the resource description. */
  _meta?: Record<string, unknown>;
}

/**
 * Reads a resource. `variables` holds what the URI template matched (`{}` for a static
 * resource). Throw `ProtocolError(-32002)` when the concrete resource does not exist.
 */
export type ReadResourceCallback = (
  uri: string,
  variables: TemplateVariables,
  ctx: RequestContext,
) => ReadResourceResult | Promise<ReadResourceResult>;

/** Fields `update()` may replace. */
export type ResourceChanges = ResourceMetadata & { name?: string; read?: ReadResourceCallback };

/** Returned by `registerResource`; every call sends `notifications/resources/list_changed`. */
export type ResourceHandle = RegisteredHandle<ResourceChanges>;

interface ResourceEntry {
  name: string;
  metadata: ResourceMetadata;
  read: ReadResourceCallback;
}
interface StaticEntry extends ResourceEntry {
  uri: string;
}
interface TemplateEntry extends ResourceEntry {
  template: ResourceTemplate;
}

function merge<E extends ResourceEntry>(entry: E, changes: ResourceChanges): E {
  const { name, read, ...metadata } = changes;
  return { ...entry, name: name ?? entry.name, read: read ?? entry.read, metadata: { ...entry.metadata, ...metadata } };
}

export class ResourceRegistry {
  readonly #resources: Registry<StaticEntry>;
  readonly #templates: Registry<TemplateEntry>;

  constructor(changed: () => void) {
    this.#resources = new Registry("resource", changed);
    this.#templates = new Registry("resource template", changed);
  }

  /** Resources and templates registered, enabled or not. */
  get size(): number {
    return this.#resources.size + this.#templates.size;
  }

  /** Whether any template has a completer (the `completions` capability). */
  get completes(): boolean {
    return this.#templates.all().some((t) => Object.keys(t.template.callbacks.complete ?? {}).length > 0);
  }

  /** @throws SdkError "INVALID_ARGUMENT" when the URI (or the template's name) is taken. */
  register(
    name: string,
    uriOrTemplate: string | ResourceTemplate,
    metadata: ResourceMetadata,
    read: ReadResourceCallback,
  ): ResourceHandle {
    if (typeof uriOrTemplate === "string") {
      return this.#resources.add(uriOrTemplate, { uri: uriOrTemplate, name, metadata, read }, merge);
    }
    return this.#templates.add(name, { template: uriOrTemplate, name, metadata, read }, merge);
  }

  /** `resources/list`: static resources, then what each template's `list` returns. */
  async list(
    cursor: unknown,
    pageSize: number,
    ctx: RequestContext,
  ): Promise<{ resources: Resource[]; nextCursor?: string }> {
    const all: Resource[] = this.#resources
      .enabled()
      .map(({ uri, name, metadata }) => ({ ...describe(metadata), uri, name }));
    for (const entry of this.#templates.enabled()) {
      const list = entry.template.callbacks.list;
      if (!list) continue;
      const { size: _size, ...inherited } = describe(entry.metadata);
      for (const listed of await list(ctx)) all.push({ ...inherited, ...listed });
    }
    const page = paginate(all, cursor, pageSize);
    return page.nextCursor === undefined
      ? { resources: page.items }
      : { resources: page.items, nextCursor: page.nextCursor };
  }

  /** `resources/templates/list`. */
  listTemplates(
    cursor: unknown,
    pageSize: number,
  ): { resourceTemplates: ResourceTemplateDescription[]; nextCursor?: string } {
    const page = paginate(this.#templates.enabled(), cursor, pageSize);
    const resourceTemplates = page.items.map(({ template, name, metadata }) => {
      const { size: _size, ...rest } = describe(metadata);
      return { ...rest, uriTemplate: template.uriTemplate, name };
    });
    return page.nextCursor === undefined ? { resourceTemplates } : { resourceTemplates, nextCursor: page.nextCursor };
  }

  /** `resources/read`. @throws ProtocolError -32002 when no resource or template matches, -32602 without a URI. */
  async read(params: Record<string, unknown>, ctx: RequestContext): Promise<ReadResourceResult> {
    const uri = params.uri;
    if (typeof uri !== "string")
      throw new ProtocolError(ErrorCode.InvalidParams, "Invalid params: uri must be a string");
    const exact = this.#resources.get(uri);
    if (exact) return exact.read(uri, {}, ctx);
    for (const entry of this.#templates.enabled()) {
      const variables = entry.template.match(uri);
      if (variables) return entry.read(uri, variables, ctx);
    }
    throw new ProtocolError(ErrorCode.ResourceNotFound, `Resource not found: ${uri}`, { uri });
  }

  /** The enabled template whose text is `uriTemplate` (a `ref/resource` of `completion/complete`). */
  template(uriTemplate: string): ResourceTemplate | undefined {
    return this.#templates.enabled().find((entry) => entry.template.uriTemplate === uriTemplate)?.template;
  }

  /** Whether `uri` names a static resource (completion of it yields nothing rather than an error). */
  hasResource(uri: string): boolean {
    return this.#resources.get(uri) !== undefined;
  }
}

function describe(metadata: ResourceMetadata): Partial<Resource> {
  const out: Partial<Resource> = {};
  for (const [key, value] of Object.entries(metadata)) {
    if (value !== undefined) (out as Record<string, unknown>)[key] = value;
  }
  return out;
}
