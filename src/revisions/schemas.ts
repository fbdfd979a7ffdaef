/**
 * The official JSON Schema of each revision, and the small amount of schema navigation the codec needs
 * (following `$ref`s, naming definitions). Draft-07 revisions keep definitions under `definitions`,
 * 2020-12 ones under `$defs`. The documents are the embedded official files with the corrections
 * of `errata.ts` applied.
 */
import { createRequire } from "node:module";
import { applyErrata } from "./errata.js";
import type { JsonSchema, SchemaDocument } from "./schema-document.js";
import type { ProtocolVersion } from "./versions.js";

const require = createRequire(import.meta.url);

/**
 * Read and parsed on first use: a process that speaks one revision never reads the other four.
 * The files are the official ones (generated/<revision>.schema.json, by scripts/gen-wire-types.ts).
 */
const DOCUMENTS = new Map<ProtocolVersion, SchemaDocument>();

/** The whole schema document of a revision: the official file, corrected where it contradicts schema.ts. */
export function schemaDocument(version: ProtocolVersion): SchemaDocument {
  let document = DOCUMENTS.get(version);
  if (document === undefined) {
    document = applyErrata(require(`./generated/${version}.schema.json`) as SchemaDocument);
    DOCUMENTS.set(version, document);
  }
  return document;
}

/** The named definitions of a revision (`definitions` or `$defs`). */
export function definitionsOf(version: ProtocolVersion): Readonly<Record<string, JsonSchema>> {
  const document = schemaDocument(version);
  return document.$defs ?? document.definitions ?? {};
}

/** The JSON pointer of a named definition inside its document, e.g. `#/$defs/Tool`. */
export function definitionPointer(version: ProtocolVersion, name: string): string {
  return schemaDocument(version).$defs ? `#/$defs/${name}` : `#/definitions/${name}`;
}

/** The definition a `$ref` names, or undefined when the ref is not a local definition. */
export function refName(ref: string): string | undefined {
  const match = /^#\/(?:\$defs|definitions)\/([^/]+)$/.exec(ref);
  return match?.[1];
}

/** Follows `$ref`s until a schema with content; unknown refs resolve to the empty (accept-all) schema. */
export function resolveSchema(version: ProtocolVersion, schema: JsonSchema): JsonSchema {
  let current = schema;
  for (let hops = 0; typeof current.$ref === "string" && hops < 16; hops++) {
    const name = refName(current.$ref);
    const target = name === undefined ? undefined : definitionsOf(version)[name];
    if (target === undefined) return {};
    current = target;
  }
  return current;
}
