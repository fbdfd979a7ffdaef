/**
 * Plain JSON Schema tool schemas: a shape check at registration, and an ajv validator compiled on
 * first use. ajv (and its formats) is loaded then too, synchronously (it is CommonJS), so that a
 * server that is never called with arguments to check never pays for loading it.
 */
import { createRequire } from "node:module";
import type { Ajv, ErrorObject, ValidateFunction } from "ajv";
import type { Ajv2019 } from "ajv/dist/2019.js";
import type { Ajv2020 } from "ajv/dist/2020.js";
import { SdkError } from "../jsonrpc/errors.js";
import { type JsonSchemaDraft, metaSchemaProblem } from "../revisions/index.js";
import type { CompiledSchema, JsonSchema } from "./schema-types.js";

type AjvInstance = Ajv | Ajv2019 | Ajv2020;
type AjvOptions = { allErrors: boolean; strict: boolean; addUsedSchema: boolean };
const instances = new Map<JsonSchemaDraft, AjvInstance>();

/** The module each draft's validator class comes from (CommonJS: `module.exports` is the class). */
const AJV_MODULE: Record<JsonSchemaDraft, string> = {
  "draft-07": "ajv",
  "2019-09": "ajv/dist/2019.js",
  "2020-12": "ajv/dist/2020.js",
};

/** The draft a schema is compiled as: the one its `$schema` names, 2020-12 when it names none. */
function draftOf(schema: JsonSchema): JsonSchemaDraft {
  const uri = typeof schema.$schema === "string" ? schema.$schema : "";
  return /draft-0[4-7]/.test(uri) ? "draft-07" : uri.includes("2019-09") ? "2019-09" : "2020-12";
}

/** One validator instance per draft, shared by every schema of that draft, created on first need. */
function ajvFor(schema: JsonSchema): AjvInstance {
  const draft = draftOf(schema);
  let ajv = instances.get(draft);
  if (!ajv) {
    const require = createRequire(import.meta.url);
    const AjvClass = require(AJV_MODULE[draft]) as new (options: AjvOptions) => AjvInstance;
    const addFormats = require("ajv-formats") as (ajv: AjvInstance) => unknown;
    // addUsedSchema: false keeps a schema's `$id` out of the shared instance, so that two tools (or
    // one tool updated) whose schemas share an `$id` each compile, and resolve refs in their own.
    ajv = new AjvClass({ allErrors: true, strict: false, addUsedSchema: false });
    addFormats(ajv);
    instances.set(draft, ajv);
  }
  return ajv;
}

function isSchemaValue(value: unknown): boolean {
  return typeof value === "boolean" || (typeof value === "object" && value !== null && !Array.isArray(value));
}

/**
 * What can be told without compiling: `"type": "object"`, `properties` an object of schemas,
 * `required` a list of distinct names, `additionalProperties` a schema, `$schema` a string; then
 * the whole schema against its draft's meta-schema (`metaSchemaProblem`: a validator generated at
 * build time, so ajv is not loaded), which also checks that every `pattern` and `patternProperties`
 * name compiles as ajv compiles them. What is left for the compiler on first use is mostly `$ref`s
 * that resolve to nothing and formats such as the `uri` of `$id`.
 * @throws SdkError "INVALID_ARGUMENT" naming the first problem.
 */
export function checkJsonObjectSchema(schema: JsonSchema): void {
  const fail = (message: string): never => {
    throw new SdkError("INVALID_ARGUMENT", message);
  };
  if (schema.type !== "object") fail('A tool schema must be a JSON Schema with "type": "object"');
  try {
    // It is listed to clients as JSON: an object that contains itself cannot be.
    JSON.stringify(schema);
  } catch {
    fail("The JSON Schema cannot be written as JSON (an object in it contains itself); use $ref for recursion");
  }
  const { properties, required, additionalProperties, $schema } = schema;
  if (properties !== undefined) {
    if (!isSchemaValue(properties) || typeof properties === "boolean") {
      fail("The JSON Schema's properties must be an object");
    }
    for (const [name, property] of Object.entries(properties as object)) {
      if (!isSchemaValue(property)) fail(`The JSON Schema of property ${JSON.stringify(name)} must be an object`);
    }
  }
  if (required !== undefined) {
    const names = Array.isArray(required) ? required : [];
    if (!Array.isArray(required) || names.some((name) => typeof name !== "string")) {
      fail("The JSON Schema's required must be a list of property names");
    }
    if (new Set(names).size !== names.length) fail("The JSON Schema's required names a property twice");
  }
  if (additionalProperties !== undefined && !isSchemaValue(additionalProperties)) {
    fail("The JSON Schema's additionalProperties must be a boolean or a schema");
  }
  if ($schema !== undefined && typeof $schema !== "string") fail("The JSON Schema's $schema must be a URI");
  const draft = draftOf(schema);
  const problem = metaSchemaProblem(schema, draft);
  if (problem !== undefined) fail(`The JSON Schema's ${problem} (by the JSON Schema ${draft} meta-schema)`);
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
  const message = error.message ?? "is invalid";
  return path ? `${path}: ${message}` : message;
}
