/**
 * Schemas as users write them for tools and prompts: a zod v4 object schema, a zod raw shape
 * (`{ city: z.string() }`), or plain JSON Schema. Each is turned once, at registration, into the
 * JSON Schema that is advertised and a validator that is run on every call.
 */

import { createRequire } from "node:module";
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import type { Ajv2019 } from "ajv/dist/2019.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import * as z from "zod";
import { SdkError } from "../jsonrpc/errors.js";

/** A JSON Schema object (any draft; 2020-12 when it names none, as MCP says for tool schemas). */
export type JsonSchema = { [key: string]: unknown };

/** A zod raw shape: the argument of `z.object(...)`. */
export type ZodRawShape = { [key: string]: z.ZodType };

/** What `inputSchema` / `outputSchema` accept. */
export type SchemaInput = z.ZodObject | ZodRawShape | JsonSchema;

/** The parsed value a schema yields: zod's output type, or a plain record for JSON Schema. */
export type InferSchema<S> = S extends z.ZodType
  ? z.output<S>
  : S extends ZodRawShape
    ? z.output<z.ZodObject<S>>
    : Record<string, unknown>;

export type Validation = { ok: true; value: Record<string, unknown> } | { ok: false; message: string };

/** A schema ready to advertise (`json`) and to check values against (`validate`). */
export interface CompiledSchema {
  readonly json: JsonSchema;
  validate(value: unknown): Validation;
}

function isZodSchema(value: unknown): value is z.ZodType {
  return typeof value === "object" && value !== null && "_zod" in value;
}

function isZodRawShape(value: object): value is ZodRawShape {
  return Object.values(value).every(isZodSchema);
}

/**
 * Compiles a tool or prompt schema once.
 * @param io `"input"` for arguments (defaults may be omitted), `"output"` for results.
 * @throws SdkError "INVALID_ARGUMENT" when the schema is not an object schema or does not compile.
 */
export function compileObjectSchema(schema: SchemaInput, io: "input" | "output"): CompiledSchema {
  if (isZodSchema(schema) || isZodRawShape(schema)) {
    const zodSchema = isZodSchema(schema) ? schema : z.object(schema);
    return compileZod(zodSchema, io);
  }
  if (schema.type !== "object") {
    throw new SdkError("INVALID_ARGUMENT", 'A tool schema must be a JSON Schema with "type": "object"');
  }
  return compileJsonSchema(schema);
}

function compileZod(schema: z.ZodType, io: "input" | "output"): CompiledSchema {
  let json: JsonSchema;
  try {
    json = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchema;
  } catch (cause) {
    throw new SdkError("INVALID_ARGUMENT", "The zod schema cannot be expressed as JSON Schema", { cause });
  }
  // 2020-12 is what MCP assumes when `$schema` is absent; older validators choke on the URI.
  delete json.$schema;
  if (json.type !== "object") {
    throw new SdkError("INVALID_ARGUMENT", "A tool schema must be a zod object schema or a raw shape");
  }
  return {
    json,
    validate(value) {
      const parsed = schema.safeParse(value);
      if (parsed.success) return { ok: true, value: parsed.data as Record<string, unknown> };
      return { ok: false, message: parsed.error.issues.map((i) => describe(i.path.join("."), i.message)).join("; ") };
    },
  };
}

type AjvInstance = Ajv | Ajv2019 | Ajv2020;
const instances = new Map<string, AjvInstance>();
// ajv-formats is CommonJS: under NodeNext its default export arrives as `module.exports` or `.default`.
type FormatsPlugin = (ajv: AjvInstance) => unknown;
const formatsModule = addFormatsModule as unknown as FormatsPlugin & { default?: FormatsPlugin };
const addFormats: FormatsPlugin = formatsModule.default ?? formatsModule;

/** The 2019-09 dialect, loaded (synchronously, it is CommonJS) only for a schema that names it. */
function loadAjv2019(): typeof Ajv2019 {
  return (createRequire(import.meta.url)("ajv/dist/2019.js") as typeof import("ajv/dist/2019.js")).Ajv2019;
}

/** One validator instance per draft, shared by every schema of that draft. */
function ajvFor(schema: JsonSchema): AjvInstance {
  const uri = typeof schema.$schema === "string" ? schema.$schema : "";
  const draft = /draft-0[4-7]/.test(uri) ? "07" : uri.includes("2019-09") ? "2019" : "2020";
  let ajv = instances.get(draft);
  if (!ajv) {
    const options = { allErrors: true, strict: false };
    ajv = draft === "07" ? new Ajv(options) : draft === "2019" ? new (loadAjv2019())(options) : new Ajv2020(options);
    addFormats(ajv);
    instances.set(draft, ajv);
  }
  return ajv;
}

/**
 * Compiles plain JSON Schema with ajv (draft from `$schema`, 2020-12 by default).
 * @throws SdkError "INVALID_ARGUMENT" when the schema does not compile.
 */
export function compileJsonSchema(schema: JsonSchema): CompiledSchema {
  let check: ValidateFunction;
  try {
    check = ajvFor(schema).compile(schema);
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new SdkError("INVALID_ARGUMENT", `The JSON Schema does not compile: ${reason}`, { cause });
  }
  return {
    json: schema,
    validate(value) {
      if (check(value)) return { ok: true, value: value as Record<string, unknown> };
      return { ok: false, message: (check.errors ?? []).map(describeAjvError).join("; ") };
    },
  };
}

function describeAjvError(error: ErrorObject): string {
  const path = error.instancePath.replace(/^\//, "").replaceAll("/", ".");
  return describe(path, error.message ?? "is invalid");
}

function describe(path: string, message: string): string {
  return path ? `${path}: ${message}` : message;
}
