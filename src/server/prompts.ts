/**
 * Prompts: registration, `prompts/list` and `prompts/get` (spec: server/prompts). Arguments
 * arrive as strings; a zod raw shape validates (and may transform) them before the callback runs.
 */
import * as z from "zod";
import { ErrorCode, ProtocolError } from "../jsonrpc/errors.js";
import type { GetPromptResult, Icon, Prompt, PromptArgument } from "../revisions/index.js";
import type { RequestContext } from "./context.js";
import { paginate } from "./pagination.js";
import { type RegisteredHandle, Registry } from "./registry.js";
import type { ZodRawShape } from "./schema.js";
import type { Completer } from "./uri-template.js";

/** What describes a prompt besides its name (spec: server/prompts § Prompt). */
export interface PromptConfig<A extends ZodRawShape = ZodRawShape> {
  /** Display name. */
  title?: string;
  /** What the prompt is for. */
  description?: string;
  /** One zod schema per argument; `.optional()` makes an argument optional, `.describe()` documents it. */
  argsSchema?: A;
  /** One completer per argument name, used by `completion/complete` with a `ref/prompt`. */
  complete?: Partial<Record<keyof A & string, Completer>>;
  /** Icons for user interfaces. */
  icons?: Icon[];
  /** Free-form metadata sent with the prompt description. */
  _meta?: Record<string, unknown>;
}

/** Builds the prompt's messages from validated arguments. */
export type PromptCallback<A extends ZodRawShape = ZodRawShape> = (
  args: z.output<z.ZodObject<A>>,
  ctx: RequestContext,
) => GetPromptResult | Promise<GetPromptResult>;

/** Fields `update()` may replace. */
export type PromptChanges = Partial<PromptConfig> & { callback?: PromptCallback };

/** Returned by `registerPrompt`; every call sends `notifications/prompts/list_changed`. */
export type PromptHandle = RegisteredHandle<PromptChanges>;

interface PromptEntry {
  name: string;
  config: PromptConfig;
  schema: z.ZodObject | undefined;
  arguments: PromptArgument[] | undefined;
  callback: PromptCallback;
}

function compile(name: string, config: PromptConfig, callback: PromptCallback): PromptEntry {
  const schema = config.argsSchema === undefined ? undefined : z.object(config.argsSchema);
  return { name, config, schema, arguments: schema && describeArguments(schema), callback };
}

/** Prompt arguments as `prompts/list` shows them, read off the schema's JSON Schema form. */
function describeArguments(schema: z.ZodObject): PromptArgument[] {
  const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as {
    properties?: Record<string, { title?: string; description?: string }>;
    required?: string[];
  };
  return Object.entries(json.properties ?? {}).map(([name, property]) => {
    const argument: PromptArgument = { name };
    if (property.title !== undefined) argument.title = property.title;
    if (property.description !== undefined) argument.description = property.description;
    argument.required = json.required?.includes(name) ?? false;
    return argument;
  });
}

export class PromptRegistry {
  readonly #registry: Registry<PromptEntry>;

  constructor(changed: () => void) {
    this.#registry = new Registry("prompt", changed);
  }

  get size(): number {
    return this.#registry.size;
  }

  /** Whether any prompt has a completer (the `completions` capability). */
  get completes(): boolean {
    return this.#registry.all().some((p) => Object.keys(p.config.complete ?? {}).length > 0);
  }

  /** @throws SdkError "INVALID_ARGUMENT" when the name is taken. */
  register(name: string, config: PromptConfig, callback: PromptCallback): PromptHandle {
    return this.#registry.add(name, compile(name, config, callback), (entry, changes: PromptChanges) => {
      const { callback: nextCallback, ...configChanges } = changes;
      return compile(name, { ...entry.config, ...configChanges }, nextCallback ?? entry.callback);
    });
  }

  /** `prompts/list`. @throws ProtocolError -32602 for a bad cursor. */
  list(cursor: unknown, pageSize: number): { prompts: Prompt[]; nextCursor?: string } {
    const page = paginate(this.#registry.enabled(), cursor, pageSize);
    const prompts = page.items.map(describePrompt);
    return page.nextCursor === undefined ? { prompts } : { prompts, nextCursor: page.nextCursor };
  }

  /** `prompts/get`. @throws ProtocolError -32602 for an unknown prompt or arguments that fail the schema. */
  async get(params: Record<string, unknown>, ctx: RequestContext): Promise<GetPromptResult> {
    const entry = this.#find(params.name);
    const given = params.arguments ?? {};
    if (!entry.schema) return entry.callback(given as Record<string, never>, ctx);
    const parsed = entry.schema.safeParse(given);
    if (!parsed.success) {
      const problems = parsed.error.issues.map((i) =>
        i.path.length ? `${i.path.join(".")}: ${i.message}` : i.message,
      );
      throw new ProtocolError(
        ErrorCode.InvalidParams,
        `Invalid arguments for prompt ${entry.name}: ${problems.join("; ")}`,
        { issues: parsed.error.issues.map((i) => ({ path: i.path.map(String), message: i.message })) },
      );
    }
    return entry.callback(parsed.data, ctx);
  }

  /** The completer of one argument; `undefined` when it has none. @throws ProtocolError -32602 for an unknown prompt. */
  completer(name: unknown, argument: string): Completer | undefined {
    const completers = this.#find(name).config.complete ?? {};
    // Only the prompt's own entries: a client-chosen name such as "constructor" must not reach Object.prototype.
    return Object.hasOwn(completers, argument) ? completers[argument] : undefined;
  }

  #find(name: unknown): PromptEntry {
    const entry = typeof name === "string" ? this.#registry.get(name) : undefined;
    if (!entry) throw new ProtocolError(ErrorCode.InvalidParams, `Unknown prompt: ${String(name)}`, { name });
    return entry;
  }
}

function describePrompt(entry: PromptEntry): Prompt {
  const { config } = entry;
  const prompt: Prompt = { name: entry.name };
  if (config.title !== undefined) prompt.title = config.title;
  if (config.description !== undefined) prompt.description = config.description;
  if (entry.arguments !== undefined) prompt.arguments = entry.arguments;
  if (config.icons !== undefined) prompt.icons = config.icons;
  if (config._meta !== undefined) prompt._meta = config._meta;
  return prompt;
}
