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
import type { CompiledSchema, JsonSchema } from "./schema.js";

type AjvInstance = Ajv | Ajv2019 | Ajv2020;
type AjvOptions = { allErrors: boolean; strict: boolean; addUsedSchema: boolean };
type Draft = "07" | "2019" | "2020";
const instances = new Map<Draft, AjvInstance>();

/** The module each draft's validator class comes from (CommonJS: `module.exports` is the class). */
const AJV_MODULE: Record<Draft, string> = { "07": "ajv", "2019": "ajv/dist/2019.js", "2020": "ajv/dist/2020.js" };

/** The draft a schema is compiled as: the one its `$schema` names, 2020-12 when it names none. */
function draftOf(schema: JsonSchema): Draft {
  const uri = typeof schema.$schema === "string" ? schema.$schema : "";
  return /draft-0[4-7]/.test(uri) ? "07" : uri.includes("2019-09") ? "2019" : "2020";
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
 * What can be told without a validator: `"type": "object"`, `properties` an object of schemas,
 * `required` a list of distinct names, `additionalProperties` a schema, `$schema` a string; and
 * in every subschema, the keyword values every draft's meta-schema refuses (see `checkKeywords`).
 * What is left for the compiler on first use is mostly `$ref`s that resolve to nothing.
 * @throws SdkError "INVALID_ARGUMENT" naming the first problem.
 */
export function checkJsonObjectSchema(schema: JsonSchema): void {
  const fail = (message: string): never => {
    throw new SdkError("INVALID_ARGUMENT", message);
  };
  if (schema.type !== "object") fail('A tool schema must be a JSON Schema with "type": "object"');
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
  checkKeywords(schema, { unknown: UNKNOWN_TO[draftOf(schema)], at: "", seen: new Set(), fail });
}

const JSON_TYPES = new Set(["string", "number", "integer", "boolean", "object", "array", "null"]);
/** Keywords whose value is one schema (`items` may also be a list, as draft-07 allows). */
const ONE_SCHEMA = [
  "additionalProperties",
  "additionalItems",
  "unevaluatedProperties",
  "unevaluatedItems",
  "contains",
  "propertyNames",
  "not",
  "if",
  "then",
  "else",
];
/** Keywords whose value maps names to schemas. */
const SCHEMA_MAPS = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"];
/** Keywords whose value is a non-empty list of schemas. */
const SCHEMA_LISTS = ["allOf", "anyOf", "oneOf", "prefixItems"];
const COUNTS = [
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
  "minProperties",
  "maxProperties",
  "minContains",
  "maxContains",
];
const NUMBERS = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"];
const STRINGS = ["$ref", "format", "title", "description"];
/** Keywords a draft does not define: ajv ignores them there, whatever their value. */
const UNKNOWN_TO: Record<Draft, ReadonlySet<string>> = {
  "07": new Set([
    "$defs",
    "dependentSchemas",
    "prefixItems",
    "unevaluatedProperties",
    "unevaluatedItems",
    "minContains",
    "maxContains",
  ]),
  "2019": new Set(["prefixItems"]),
  "2020": new Set(["additionalItems"]),
};

interface Walk {
  unknown: ReadonlySet<string>;
  /** Where the schema being checked is, as a JSON pointer from the root ("" for the root). */
  at: string;
  seen: Set<unknown>;
  fail: (message: string) => never;
}

function isRegExp(source: unknown): boolean {
  if (typeof source !== "string") return false;
  try {
    // The flag ajv compiles `pattern` with.
    new RegExp(source, "u");
    return true;
  } catch {
    return false;
  }
}

/**
 * Walks every subschema for values that no draft's meta-schema allows and that ajv would refuse
 * when compiling: a `type` that is no JSON type, `required` or `enum` that is not a list, a
 * `pattern` that is no regular expression, a subschema that is neither an object nor a boolean,
 * counts that are not non-negative integers. Unknown keywords are left alone (ajv's strict mode
 * is off), and so is anything ajv accepts in some draft, so that a schema ajv compiles is never
 * refused here.
 */
function checkKeywords(schema: unknown, walk: Walk): void {
  const { unknown, at, seen, fail } = walk;
  if (typeof schema !== "object" || schema === null || seen.has(schema)) return;
  seen.add(schema);
  const s = Object.fromEntries(Object.entries(schema).filter(([keyword]) => !unknown.has(keyword)));
  const bad = (keyword: string, what: string) => fail(`The JSON Schema's ${at}/${keyword} must be ${what}`);
  const sub = (value: unknown, path: string, what: string) => {
    if (!isSchemaValue(value)) bad(path, what);
    checkKeywords(value, { ...walk, at: `${at}/${path}` });
  };
  const { type } = s;
  if (type !== undefined) {
    const types = Array.isArray(type) ? type : [type];
    const known = types.every((name) => typeof name === "string" && JSON_TYPES.has(name));
    if (!known || types.length === 0 || new Set(types).size !== types.length) {
      bad("type", `one of ${[...JSON_TYPES].join(", ")}, or a list of distinct ones`);
    }
  }
  if (s.required !== undefined && (!Array.isArray(s.required) || s.required.some((n) => typeof n !== "string"))) {
    bad("required", "a list of property names");
  }
  if (s.enum !== undefined && (!Array.isArray(s.enum) || s.enum.length === 0)) bad("enum", "a non-empty list");
  if (s.pattern !== undefined && !isRegExp(s.pattern)) bad("pattern", "a regular expression (with the u flag)");
  if (s.multipleOf !== undefined && !(typeof s.multipleOf === "number" && s.multipleOf > 0)) {
    bad("multipleOf", "a number above 0");
  }
  for (const keyword of COUNTS) {
    const value = s[keyword];
    if (value !== undefined && !(Number.isInteger(value) && (value as number) >= 0)) bad(keyword, "a count");
  }
  for (const keyword of NUMBERS) {
    if (s[keyword] !== undefined && typeof s[keyword] !== "number") bad(keyword, "a number");
  }
  for (const keyword of STRINGS) {
    if (s[keyword] !== undefined && typeof s[keyword] !== "string") bad(keyword, "a string");
  }
  for (const keyword of ONE_SCHEMA) {
    if (s[keyword] !== undefined) sub(s[keyword], keyword, "a schema (an object or a boolean)");
  }
  if (s.items !== undefined) {
    if (!Array.isArray(s.items)) sub(s.items, "items", "a schema (an object or a boolean)");
    else for (const [i, item] of s.items.entries()) sub(item, `items/${i}`, "a schema");
  }
  for (const keyword of SCHEMA_MAPS) {
    const map = s[keyword];
    if (map === undefined) continue;
    if (typeof map !== "object" || map === null || Array.isArray(map)) {
      bad(keyword, "an object of schemas");
      continue;
    }
    for (const [name, value] of Object.entries(map)) {
      if (keyword === "patternProperties" && !isRegExp(name))
        bad(`${keyword}/${name}`, "named by a regular expression");
      sub(value, `${keyword}/${name}`, "a schema (an object or a boolean)");
    }
  }
  for (const keyword of SCHEMA_LISTS) {
    const list = s[keyword];
    if (list === undefined) continue;
    if (!Array.isArray(list) || list.length === 0) bad(keyword, "a non-empty list of schemas");
    else for (const [i, item] of list.entries()) sub(item, `${keyword}/${i}`, "a schema (an object or a boolean)");
  }
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
