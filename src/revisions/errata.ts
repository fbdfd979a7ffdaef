/**
 * Corrections to the released JSON Schema files, applied once before anything is compiled or
 * read. Each fixes a place where the generated `schema.json` contradicts `schema.ts`, which the
 * specification names as its source of truth; the embedded files themselves stay verbatim.
 */
import type { JsonSchema, SchemaDocument } from "./schema-document.js";

interface Erratum {
  /** The definition to correct; revisions without it are left alone. */
  definition: string;
  fix(definition: JsonSchema): JsonSchema;
}

const ERRATA: readonly Erratum[] = [
  {
    // schema.ts types the answer's values as `string | number | boolean (| string[])`, but the
    // generator wrote "integer", which would refuse an accepted form with `score: 95.5`.
    definition: "ElicitResult",
    fix: (definition) => {
      const content = definition.properties?.content;
      if (content?.additionalProperties === undefined || typeof content.additionalProperties === "boolean") {
        return definition;
      }
      const values = integerAsNumber(content.additionalProperties);
      return {
        ...definition,
        properties: { ...definition.properties, content: { ...content, additionalProperties: values } },
      };
    },
  },
];

/** `schema` with every `"integer"` type widened to `"number"`. */
function integerAsNumber(schema: JsonSchema): JsonSchema {
  const out: JsonSchema = { ...schema };
  if (schema.type === "integer") out.type = "number";
  if (Array.isArray(schema.type)) out.type = schema.type.map((type) => (type === "integer" ? "number" : type));
  if (schema.items !== undefined) out.items = integerAsNumber(schema.items);
  for (const keyword of ["anyOf", "oneOf", "allOf"] as const) {
    const branches = schema[keyword];
    if (branches !== undefined) out[keyword] = branches.map(integerAsNumber);
  }
  return out;
}

/** The document with every erratum applied to the definitions it has; the input is not changed. */
export function applyErrata(document: SchemaDocument): SchemaDocument {
  const key = document.$defs ? "$defs" : "definitions";
  const definitions = { ...(document[key] ?? {}) };
  for (const erratum of ERRATA) {
    const definition = definitions[erratum.definition];
    if (definition !== undefined) definitions[erratum.definition] = erratum.fix(definition);
  }
  return { ...document, [key]: definitions };
}
