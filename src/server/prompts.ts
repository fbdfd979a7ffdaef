/**
 * Prompts: registration, `prompts/list` and `prompts/get` (spec: server/prompts). Arguments
 * arrive as strings; a zod raw shape validates (and may transform) them before the callback runs.
 * The shape becomes a zod object on first use, with the zod module the user's schemas come from
 * (see `schema-zod.ts`), so that a server without prompt arguments never loads zod.
 */
import type * as z from "zod";
import { ErrorCode, ProtocolError, SdkError } from "../jsonrpc/errors.js";
import type { GetPromptResult, Icon, Prompt, PromptArgument } from "../revisions/index.js";
import type { RequestContext } from "./handler-types.js";
import { paginate } from "./pagination.js";
import { type RegisteredHandle, Registry } from "./registry.js";
import type { ZodRawShape } from "./schema.js";
import { isZodRawShape, loadZod } from "./schema-zod.js";
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

/** An argument schema compiled: the zod object that validates, and the arguments `prompts/list` shows. */
interface CompiledArguments {
  schema: z.ZodObject;
  arguments: PromptArgument[];
}

interface PromptEntry {
  name: string;
  config: PromptConfig;
  /** Present when the prompt has an `argsSchema`; compiled on first use, once. */
  compile: (() => Promise<CompiledArguments>) | undefined;
  compiled: CompiledArguments | undefined;
  callback: PromptCallback;
}

/** @throws SdkError "INVALID_ARGUMENT" when `argsSchema` is not a zod raw shape. */
function compile(name: string, config: PromptConfig, callback: PromptCallback): PromptEntry {
  const shape = config.argsSchema;
  const entry: PromptEntry = { name, config, compile: undefined, compiled: undefined, callback };
  if (shape === undefined) return entry;
  if (typeof shape !== "object" || shape === null || !isZodRawShape(shape)) {
    throw new SdkError("INVALID_ARGUMENT", `Prompt ${name}: argsSchema must be a zod raw shape`);
  }
  let promise: Promise<CompiledArguments> | undefined;
  entry.compile = () => {
    promise ??= compileArguments(shape).then((compiled) => {
      entry.compiled = compiled;
      return compiled;
    });
    return promise;
  };
  return entry;
}

async function compileArguments(shape: ZodRawShape): Promise<CompiledArguments> {
  const zod = await loadZod();
  const schema = zod.object(shape);
  const json = zod.toJSONSchema(schema, { io: "input", unrepresentable: "any" });
  return { schema, arguments: describeArguments(json) };
}

/** Prompt arguments as `prompts/list` shows them, read off the schema's JSON Schema form. */
function describeArguments(schema: unknown): PromptArgument[] {
  const json = schema as {
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
  /** Prompts already reported as left out of `prompts/list`: once per registration or update, not per listing. */
  readonly #reported = new WeakSet<PromptEntry>();

  /**
   * @param fail told, once per registration or update, of a prompt left out of `prompts/list`
   *   because its arguments do not compile.
   */
  constructor(
    changed: () => void,
    private readonly fail: (message: string, error: unknown) => void,
  ) {
    this.#registry = new Registry("prompt", changed);
  }

  get size(): number {
    return this.#registry.size;
  }

  /** Whether any prompt has a completer (the `completions` capability). */
  get completes(): boolean {
    return this.#registry.all().some((p) => Object.keys(p.config.complete ?? {}).length > 0);
  }

  /** @throws SdkError "INVALID_ARGUMENT" when the name is taken or `argsSchema` is not a zod raw shape. */
  register(name: string, config: PromptConfig, callback: PromptCallback): PromptHandle {
    return this.#registry.add(name, compile(name, config, callback), (entry, changes: PromptChanges) => {
      const { callback: nextCallback, ...configChanges } = changes;
      return compile(name, { ...entry.config, ...configChanges }, nextCallback ?? entry.callback);
    });
  }

  /**
   * `prompts/list`. A prompt whose arguments do not compile is left out (and reported to `fail`).
   * @throws ProtocolError -32602 for a bad cursor.
   */
  async list(cursor: unknown, pageSize: number): Promise<{ prompts: Prompt[]; nextCursor?: string }> {
    const page = paginate(this.#registry.enabled(), cursor, pageSize);
    const described = await Promise.all(page.items.map((entry) => this.#describe(entry)));
    const prompts = described.filter((prompt) => prompt !== undefined);
    return page.nextCursor === undefined ? { prompts } : { prompts, nextCursor: page.nextCursor };
  }

  async #describe(entry: PromptEntry): Promise<Prompt | undefined> {
    try {
      const compiled = entry.compiled ?? (await entry.compile?.());
      return describePrompt(entry, compiled?.arguments);
    } catch (error) {
      if (!this.#reported.has(entry)) {
        this.#reported.add(entry);
        this.fail(`Prompt ${entry.name} is left out of prompts/list: its arguments do not compile`, error);
      }
      return undefined;
    }
  }

  /**
   * `prompts/get`. @throws ProtocolError -32602 for an unknown prompt or arguments that fail the schema.
   * @throws Error when the argument schema does not compile (answered -32603 Internal error, and logged).
   */
  async get(params: Record<string, unknown>, ctx: RequestContext): Promise<GetPromptResult> {
    const entry = this.#find(params.name);
    const given = params.arguments ?? {};
    if (!entry.compile) return entry.callback(given as Record<string, never>, ctx);
    const { schema } = entry.compiled ?? (await entry.compile());
    const parsed = schema.safeParse(given);
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

function describePrompt(entry: PromptEntry, args: PromptArgument[] | undefined): Prompt {
  const { config } = entry;
  const prompt: Prompt = { name: entry.name };
  if (config.title !== undefined) prompt.title = config.title;
  if (config.description !== undefined) prompt.description = config.description;
  if (args !== undefined) prompt.arguments = args;
  if (config.icons !== undefined) prompt.icons = config.icons;
  if (config._meta !== undefined) prompt._meta = config._meta;
  return prompt;
}
