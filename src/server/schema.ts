/**
 * Schemas as users write them for tools and prompts: a zod v4 object schema, a zod raw shape
 * (`{ city: z.string() }`), or plain JSON Schema. Registration checks the shape of a schema
 * without any library; the JSON Schema that is advertised and the validator that runs on every
 * call are built on first use, so that a server whose schemas are plain JSON Schema never loads
 * zod, and no server loads ajv before a JSON Schema tool is called.
 */

import type * as z from "zod";
import { SdkError } from "../jsonrpc/errors.js";
import type { FromJsonObject } from "./json-schema-types.js";
import { checkJsonObjectSchema, compileJsonSchema } from "./schema-json.js";
import type { CompiledSchema, JsonSchema, ZodRawShape } from "./schema-types.js";
import { checkZodObjectSchema, compileZodSchema, isZodRawShape, isZodSchema } from "./schema-zod.js";

export type { CompiledSchema, JsonSchema, Validation, ZodRawShape } from "./schema-types.js";

/** What `inputSchema` / `outputSchema` accept. */
export type SchemaInput = z.ZodObject | ZodRawShape | JsonSchema;

/**
 * The parsed value a schema yields: zod's output type; for JSON Schema written `as const`, the
 * declared properties (see `FromJsonObject`); for any other JSON Schema, a plain record.
 */
export type InferSchema<S> = S extends z.ZodType
  ? z.output<S>
  : S extends ZodRawShape
    ? z.output<z.ZodObject<S>>
    : S extends { type: "object" }
      ? FromJsonObject<S>
      : Record<string, unknown>;

/**
 * A registered object schema, compiled at most once, on first use.
 * `compiled` is set once `compile()` has succeeded, so that later calls need not wait.
 */
export interface ObjectSchema {
  /** The JSON Schema as given, when it is plain JSON Schema (advertised without compiling). */
  readonly given: JsonSchema | undefined;
  readonly compiled: CompiledSchema | undefined;
  /**
   * Builds the JSON Schema and the validator; the same promise every time.
   * @throws SdkError "INVALID_ARGUMENT" (as a rejection) when the schema does not compile.
   */
  compile(): Promise<CompiledSchema>;
}

/** An `ObjectSchema` that is compiled already (a hand-written validator). */
export function readySchema(compiled: CompiledSchema): ObjectSchema {
  const promise = Promise.resolve(compiled);
  return { given: compiled.json, compiled, compile: () => promise };
}

function lazySchema(
  given: JsonSchema | undefined,
  build: () => CompiledSchema | Promise<CompiledSchema>,
): ObjectSchema {
  let promise: Promise<CompiledSchema> | undefined;
  const schema = {
    given,
    compiled: undefined as CompiledSchema | undefined,
    compile(): Promise<CompiledSchema> {
      promise ??= (async () => {
        const compiled = await build();
        schema.compiled = compiled;
        return compiled;
      })();
      return promise;
    },
  };
  return schema;
}

/**
 * Checks a tool or prompt schema's shape now and prepares it to be compiled on first use.
 * Caught now: a JSON Schema whose `type` is not `"object"` or whose `properties` / `required`
 * are malformed; a zod schema that does not describe an object. Caught on first use (a rejection
 * of `compile()`): anything else ajv or `z.toJSONSchema` refuses, such as an unresolvable `$ref`.
 * @param io `"input"` for arguments (defaults may be omitted), `"output"` for results.
 * @throws SdkError "INVALID_ARGUMENT" for what the shape check finds.
 */
export function prepareObjectSchema(schema: SchemaInput, io: "input" | "output"): ObjectSchema {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) {
    throw new SdkError("INVALID_ARGUMENT", "A tool schema must be a zod object schema, a raw shape or JSON Schema");
  }
  if (isZodSchema(schema) || isZodRawShape(schema)) {
    checkZodObjectSchema(schema, io);
    return lazySchema(undefined, () => compileZodSchema(schema, io));
  }
  checkJsonObjectSchema(schema);
  return lazySchema(schema, () => compileJsonSchema(schema));
}
