/**
 * Tools: registration, `tools/list` and `tools/call` (spec: server/tools). Argument and output
 * problems become tool results with `isError: true`, so that a model can read them and retry;
 * only an unknown tool, a thrown `ProtocolError` (such as -32042) and a schema that does not
 * compile (-32603, the server's own fault) are JSON-RPC errors.
 */
import { ErrorCode, ProtocolError, SdkError } from "../jsonrpc/errors.js";
import { isPromiseLike } from "../jsonrpc/thenable.js";
import type { CallToolResult, Icon, Tool, ToolAnnotations } from "../revisions/index.js";
import { MissingClientCapabilityError } from "../revisions/index.js";
import type { RequestContext } from "./handler-types.js";
import { InputNeeded } from "./input-needed.js";
import { InteractionRequired } from "./interactions.js";
import { paginate } from "./pagination.js";
import { type RegisteredHandle, Registry } from "./registry.js";
import {
  type CompiledSchema,
  type InferSchema,
  type JsonSchema,
  type ObjectSchema,
  prepareObjectSchema,
  readySchema,
  type SchemaInput,
} from "./schema.js";

/** What describes a tool besides its name (spec: server/tools § Tool). */
export interface ToolConfig<I extends SchemaInput = SchemaInput, O extends SchemaInput = SchemaInput> {
  /** Display name. */
  title?: string;
  /** What the tool does, for the model. */
  description?: string;
  /**
   * Arguments: a zod object schema, a zod raw shape, or JSON Schema with `"type": "object"`
   * (written `as const`, it types the handler's arguments; see `InferSchema`).
   * Absent: the tool takes no arguments (`{ "type": "object", "additionalProperties": false }`).
   */
  inputSchema?: I;
  /** Structured result: when given, every successful result must carry `structuredContent` that matches. */
  outputSchema?: O;
  /** Hints about behaviour (`readOnlyHint`, `destructiveHint`, ...); clients treat them as untrusted. */
  annotations?: ToolAnnotations;
  /** Icons for user interfaces. */
  icons?: Icon[];
  /** Free-form metadata sent with the tool description. */
  _meta?: Record<string, unknown>;
}

/**
 * Runs a tool. Return a `CallToolResult`; throw to report a failure as `isError: true` with the
 * error's message, throw a `ProtocolError` (e.g. `UrlElicitationRequiredError`) to answer
 * with that JSON-RPC error instead, or throw `InteractionRequired` to hand the user off to a page.
 */
export type ToolHandler<I extends SchemaInput = SchemaInput> = (
  args: InferSchema<I>,
  ctx: RequestContext,
) => CallToolResult | Promise<CallToolResult>;

/** Fields `update()` may replace. */
export type ToolChanges = Partial<ToolConfig> & { handler?: ToolHandler };

/** Returned by `registerTool`; every call sends `notifications/tools/list_changed`. */
export type ToolHandle = RegisteredHandle<ToolChanges>;

interface ToolEntry {
  name: string;
  config: ToolConfig;
  input: ObjectSchema;
  output: ObjectSchema | undefined;
  handler: ToolHandler;
}

/**
 * A tool without `inputSchema` takes no arguments (`{ "type": "object", "additionalProperties": false }`),
 * checked by hand with the messages ajv would give, so that such a tool costs no validator.
 */
const NO_ARGUMENTS: ObjectSchema = readySchema({
  json: { type: "object", additionalProperties: false },
  validate(value) {
    if (typeof value !== "object" || value === null || Array.isArray(value))
      return { ok: false, message: "must be object" };
    const extra = Object.keys(value).length;
    if (extra === 0) return { ok: true, value: value as Record<string, unknown> };
    return { ok: false, message: Array(extra).fill("must NOT have additional properties").join("; ") };
  },
});
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

function compile(name: string, config: ToolConfig, handler: ToolHandler): ToolEntry {
  return {
    name,
    config,
    input: config.inputSchema === undefined ? NO_ARGUMENTS : prepareObjectSchema(config.inputSchema, "input"),
    output: config.outputSchema === undefined ? undefined : prepareObjectSchema(config.outputSchema, "output"),
    handler,
  };
}

/** The JSON Schema to advertise: plain JSON Schema as given, a zod schema once compiled. */
function jsonOf(schema: ObjectSchema): JsonSchema | Promise<JsonSchema> {
  return schema.given ?? schema.compiled?.json ?? schema.compile().then((compiled) => compiled.json);
}

/** @throws SdkError "INVALID_ARGUMENT" naming the tool, when its schema does not compile. */
async function compiledOf(entry: ToolEntry, schema: ObjectSchema, which: "input" | "output"): Promise<CompiledSchema> {
  try {
    return await schema.compile();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new SdkError("INVALID_ARGUMENT", `Tool ${entry.name}'s ${which} schema: ${reason}`, { cause: error });
  }
}

function errorResult(text: string): CallToolResult {
  return { content: [{ type: "text", text }], isError: true };
}

export class ToolRegistry {
  readonly #registry: Registry<ToolEntry>;
  /** Tools already reported as left out of `tools/list`: once per registration or update, not per listing. */
  readonly #reported = new WeakSet<ToolEntry>();

  /**
   * @param warn told of a questionable tool name.
   * @param fail told, once per registration or update, of a tool left out of `tools/list` because
   *   its zod schema does not compile.
   */
  constructor(
    changed: () => void,
    private readonly warn: (message: string) => void,
    private readonly fail: (message: string, error: unknown) => void,
  ) {
    this.#registry = new Registry("tool", changed);
  }

  get size(): number {
    return this.#registry.size;
  }

  /** @throws SdkError "INVALID_ARGUMENT" for a taken name or a schema that fails the shape check (see `prepareObjectSchema`). */
  register(name: string, config: ToolConfig, handler: ToolHandler): ToolHandle {
    if (!TOOL_NAME.test(name)) {
      this.warn(`Tool name ${JSON.stringify(name)} should be 1-128 characters of A-Z, a-z, 0-9, _, - and .`);
    }
    return this.#registry.add(name, compile(name, config, handler), (entry, changes: ToolChanges) => {
      const { handler: nextHandler, ...configChanges } = changes;
      return compile(name, { ...entry.config, ...configChanges }, nextHandler ?? entry.handler);
    });
  }

  /**
   * `tools/list`. A tool whose zod schema does not compile is left out (and reported to `fail`).
   * @throws ProtocolError -32602 for a bad cursor.
   */
  async list(cursor: unknown, pageSize: number): Promise<{ tools: Tool[]; nextCursor?: string }> {
    const page = paginate(this.#registry.enabled(), cursor, pageSize);
    const described = await Promise.all(page.items.map((entry) => this.#describe(entry)));
    const tools = described.filter((tool) => tool !== undefined);
    return page.nextCursor === undefined ? { tools } : { tools, nextCursor: page.nextCursor };
  }

  async #describe(entry: ToolEntry): Promise<Tool | undefined> {
    try {
      const input = await jsonOf(entry.input);
      const output = entry.output && (await jsonOf(entry.output));
      return describeTool(entry, input, output);
    } catch (error) {
      if (!this.#reported.has(entry)) {
        this.#reported.add(entry);
        this.fail(`Tool ${entry.name} is left out of tools/list: its schema does not compile`, error);
      }
      return undefined;
    }
  }

  /** The input schema `tools/list` shows for `name`, if such a tool is enabled (and its schema compiles). */
  inputSchemaOf(name: unknown): JsonSchema | Promise<JsonSchema | undefined> | undefined {
    const entry = typeof name === "string" ? this.#registry.get(name) : undefined;
    if (!entry) return undefined;
    const json = jsonOf(entry.input);
    return json instanceof Promise ? json.catch(() => undefined) : json;
  }

  /**
   * `tools/call`. The tool's schemas are compiled on its first call (spec: server/tools § Error
   * Handling: a schema that does not compile is a server error, not something the model can fix).
   * @throws ProtocolError -32602 for an unknown tool, or the handler's ProtocolError.
   * @throws SdkError "INVALID_ARGUMENT" when the input or output schema does not compile; the
   *   client is answered -32603 Internal error, and the server's logger gets the reason.
   */
  call(params: Record<string, unknown>, ctx: RequestContext): CallToolResult | Promise<CallToolResult> {
    const name = params.name;
    const entry = typeof name === "string" ? this.#registry.get(name) : undefined;
    if (!entry) {
      throw new ProtocolError(ErrorCode.InvalidParams, `Unknown tool: ${String(name)}`, { name });
    }
    const input = entry.input.compiled;
    const output = entry.output?.compiled;
    // Compiled schemas (every call after the first) and a handler that answers at once cost no promise.
    if (input === undefined || (entry.output !== undefined && output === undefined))
      return this.#callCompiling(entry, params, ctx);
    return run(entry, input, output, params.arguments, ctx);
  }

  async #callCompiling(
    entry: ToolEntry,
    params: Record<string, unknown>,
    ctx: RequestContext,
  ): Promise<CallToolResult> {
    const input = entry.input.compiled ?? (await compiledOf(entry, entry.input, "input"));
    const output = entry.output && (entry.output.compiled ?? (await compiledOf(entry, entry.output, "output")));
    return run(entry, input, output, params.arguments, ctx);
  }
}

/** Checks the arguments, runs the handler and checks what it returns; a promise only when the handler gives one. */
function run(
  entry: ToolEntry,
  input: CompiledSchema,
  output: CompiledSchema | undefined,
  args: unknown,
  ctx: RequestContext,
): CallToolResult | Promise<CallToolResult> {
  const checked = input.validate(args ?? {});
  if (!checked.ok) return errorResult(`Invalid arguments for tool ${entry.name}: ${checked.message}`);
  let result: CallToolResult | PromiseLike<CallToolResult>;
  try {
    result = entry.handler(checked.value, ctx);
  } catch (error) {
    return failed(entry, error);
  }
  if (isPromiseLike<CallToolResult>(result)) {
    return Promise.resolve(result).then(
      (value) => settled(entry, output, value),
      (error: unknown) => failed(entry, error),
    );
  }
  return settled(entry, output, result);
}

/**
 * A handler's throw: a ProtocolError, a hand-off or an ask the client did not declare is rethrown;
 * anything else becomes a tool error result.
 */
function failed(entry: ToolEntry, error: unknown): CallToolResult {
  // These become JSON-RPC errors (or the hand-off's own answer) rather than tool results.
  if (
    error instanceof ProtocolError ||
    error instanceof InteractionRequired ||
    error instanceof InputNeeded ||
    error instanceof MissingClientCapabilityError
  ) {
    throw error;
  }
  const message = error instanceof Error ? error.message : String(error);
  // Libraries quote the token they were given; the server redacts the text with the whole result.
  return errorResult(message || `Tool ${entry.name} failed`);
}

function settled(entry: ToolEntry, output: CompiledSchema | undefined, result: CallToolResult): CallToolResult {
  // Typed handlers cannot, but plain JavaScript ones can forget to return.
  if (typeof result !== "object" || result === null) return errorResult(`Tool ${entry.name} returned no result`);
  return finish(entry.name, output, result);
}

function finish(name: string, output: CompiledSchema | undefined, result: CallToolResult): CallToolResult {
  if (result.isError) return { ...result, content: result.content ?? [] };
  const structured = result.structuredContent;
  if (output) {
    if (structured === undefined) {
      return errorResult(`Tool ${name} declares an output schema but returned no structured content`);
    }
    const checked = output.validate(structured);
    if (!checked.ok) {
      return errorResult(
        `Tool ${name} returned structured content that does not match its output schema: ${checked.message}`,
      );
    }
  }
  const content = result.content ?? [];
  // Clients that predate structured content still get the data, as the spec recommends.
  if (structured !== undefined && content.length === 0) {
    return { ...result, content: [{ type: "text", text: JSON.stringify(structured) }] };
  }
  // The handler's own object goes out when it needs nothing added.
  return content === result.content ? result : { ...result, content };
}

function describeTool({ name, config }: ToolEntry, input: JsonSchema, output: JsonSchema | undefined): Tool {
  const tool: Tool = { name, inputSchema: input as Tool["inputSchema"] };
  if (config.title !== undefined) tool.title = config.title;
  if (config.description !== undefined) tool.description = config.description;
  if (output) tool.outputSchema = output as Tool["outputSchema"];
  if (config.annotations !== undefined) tool.annotations = config.annotations;
  if (config.icons !== undefined) tool.icons = config.icons;
  if (config._meta !== undefined) tool._meta = config._meta;
  return tool;
}
