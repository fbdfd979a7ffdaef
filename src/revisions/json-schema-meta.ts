/**
 * Checks a JSON Schema against its draft's meta-schema (draft-07, 2019-09 or 2020-12), with the
 * validators ajv generated from those meta-schemas at build time (scripts/gen-validators.ts, into
 * generated/json-schema-<draft>.meta.cjs). A draft's file is loaded the first time a schema of
 * that draft is checked; neither ajv nor any other package is loaded with it.
 *
 * The check is what ajv itself does before it compiles a schema, with one difference: `format`
 * is checked for `regex` only (the values of `pattern`, the names under `patternProperties`),
 * and with the `u` flag, as ajv compiles them. Other formats (`uri` of `$schema`, ...) are left
 * to the compiler.
 */
import { createRequire } from "node:module";
import type { ErrorObject } from "ajv";
import type { SchemaValidator } from "./validators.js";

/** The JSON Schema drafts tools may write their schemas in (`$schema`; 2020-12 when it names none). */
export type JsonSchemaDraft = "draft-07" | "2019-09" | "2020-12";

/** The generated validator of each draft's meta-schema, by the file that holds it (`exports.validate`). */
export const META_VALIDATORS: Readonly<Record<JsonSchemaDraft, string>> = {
  "draft-07": "./generated/json-schema-draft-07.meta.cjs",
  "2019-09": "./generated/json-schema-2019-09.meta.cjs",
  "2020-12": "./generated/json-schema-2020-12.meta.cjs",
};

const require = createRequire(import.meta.url);
const loaded = new Map<JsonSchemaDraft, SchemaValidator>();

function metaValidator(draft: JsonSchemaDraft): SchemaValidator {
  let validate = loaded.get(draft);
  if (validate === undefined) {
    validate = (require(META_VALIDATORS[draft]) as { validate: SchemaValidator }).validate;
    loaded.set(draft, validate);
  }
  return validate;
}

/**
 * What is wrong with `schema` by its draft's meta-schema, as the end of a sentence that starts
 * with the place (a JSON pointer into the schema, such as `/properties/city/type must be one of
 * "array", "boolean", ...`), or `undefined` when the meta-schema accepts it. Only the first
 * problem found is told. Keywords the draft does not define are not checked (ajv ignores them).
 */
export function metaSchemaProblem(schema: unknown, draft: JsonSchemaDraft): string | undefined {
  const validate = metaValidator(draft);
  if (validate(schema)) return undefined;
  const error = telling(validate.errors ?? []);
  return error === undefined ? "root does not match its meta-schema" : describe(error);
}

/** Errors that only say "not of this branch's kind" when the value fails every branch of a union. */
const SHAPE_KEYWORDS = new Set(["type", "enum", "const"]);

/**
 * The error to tell: the first, unless it is one of a union's branches (`type` is a name or a
 * list of names) that fail; then the first that says more than "not of this branch's kind".
 */
function telling(errors: readonly ErrorObject[]): ErrorObject | undefined {
  const union = errors.find((error) => error.keyword === "anyOf" || error.keyword === "oneOf");
  if (union === undefined) return errors[0];
  const branches = errors.slice(0, errors.indexOf(union));
  const specific = branches.find((e) => e.instancePath !== union.instancePath || !SHAPE_KEYWORDS.has(e.keyword));
  return specific ?? branches[0] ?? union;
}

function describe(error: ErrorObject): string {
  const where = error.instancePath === "" ? "root" : error.instancePath;
  const params = error.params as Record<string, unknown>;
  const name = (error as ErrorObject & { propertyName?: string }).propertyName;
  if (error.keyword === "format" && params.format === "regex") {
    const what = "a regular expression (with the u flag)";
    return name === undefined
      ? `${where} must be ${what}`
      : `${where} names a property ${JSON.stringify(name)}, which must be ${what}`;
  }
  switch (error.keyword) {
    case "type":
      return `${where} must be ${String(params.type).split(",").join(" or ")}`;
    case "enum":
      return `${where} must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`;
    default:
      return `${where} ${error.message ?? "is invalid"}`;
  }
}
