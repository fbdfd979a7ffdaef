/**
 * Validators for the official schema definitions of each revision.
 *
 * The current revisions have validators compiled ahead of time (scripts/gen-validators.ts, into
 * generated/<revision>.validators.cjs), loaded when the revision is first used: checking a message
 * then loads neither ajv nor the schema text. For the other revisions, each document is added to
 * ajv once per process and a definition is compiled the first time it is asked for; either way a
 * validator is reused after that, so validating a message never compiles anything twice.
 */
import { createRequire } from "node:module";
import type { Ajv, ErrorObject } from "ajv";
import { SdkError } from "../jsonrpc/errors.js";
import { createAjv, type Dialect } from "./ajv.js";
import { definitionPointer, definitionsOf, schemaDocument } from "./schemas.js";
import type { ProtocolVersion } from "./versions.js";

/**
 * A compiled JSON Schema validator: returns whether `data` matches; after a mismatch, `errors`
 * holds ajv's error objects (the first one found: validation stops there).
 */
export interface SchemaValidator {
  (data: unknown): boolean;
  errors?: ErrorObject[] | null;
}

/** Revisions with validators generated at build time, by the file that holds them. */
export const GENERATED_VALIDATORS: Partial<Record<ProtocolVersion, string>> = {
  "2025-11-25": "./generated/2025-11-25.validators.cjs",
  "2026-07-28": "./generated/2026-07-28.validators.cjs",
};

const require = createRequire(import.meta.url);
/** The generated modules required so far: one exported validator per definition name. */
const generated = new Map<ProtocolVersion, Readonly<Record<string, SchemaValidator>>>();

const instances = new Map<Dialect, Ajv>();
const loaded = new Set<ProtocolVersion>();
/** Compiled validators by revision, then by definition name (looked up on every message). */
const compiled = new Map<ProtocolVersion, Map<string, SchemaValidator>>();

function generatedFor(version: ProtocolVersion): Readonly<Record<string, SchemaValidator>> | undefined {
  const file = GENERATED_VALIDATORS[version];
  if (file === undefined) return undefined;
  let module = generated.get(version);
  if (module === undefined) {
    module = require(file) as Record<string, SchemaValidator>;
    generated.set(version, module);
  }
  return module;
}

/** The dialect the revision's official schema is written in. */
export function dialectOf(version: ProtocolVersion): Dialect {
  return String(schemaDocument(version).$schema).includes("2020-12") ? "2020-12" : "draft-07";
}

function ajvFor(version: ProtocolVersion): Ajv {
  const dialect = dialectOf(version);
  let ajv = instances.get(dialect);
  if (ajv === undefined) {
    ajv = createAjv(dialect, true);
    instances.set(dialect, ajv);
  }
  if (!loaded.has(version)) {
    ajv.addSchema(schemaDocument(version), documentKey(version));
    loaded.add(version);
  }
  return ajv;
}

/** The key the revision's document is added to ajv under (the generator uses the same one). */
export function documentKey(version: ProtocolVersion): string {
  return `urn:mcp-handoff:schema:${version}`;
}

/** Whether the revision's schema has a definition with this name (`CallToolRequest`, `Tool`, ...). */
export function hasDefinition(version: ProtocolVersion, definition: string): boolean {
  const module = generatedFor(version);
  if (module !== undefined) return Object.hasOwn(module, definition);
  return Object.hasOwn(definitionsOf(version), definition);
}

/**
 * The validator of one named definition of a revision's official schema, e.g.
 * `validatorFor("2025-11-25", "CallToolRequest")`: the generated one when the revision has them,
 * else compiled on first use and cached for the process.
 *
 * @throws SdkError `INVALID_ARGUMENT` when the revision's schema has no such definition.
 */
export function validatorFor(version: ProtocolVersion, definition: string): SchemaValidator {
  const module = generatedFor(version);
  if (module !== undefined) {
    if (!Object.hasOwn(module, definition)) throw noDefinition(version, definition);
    return module[definition] as SchemaValidator;
  }
  return compiledValidator(version, definition);
}

/**
 * The validator ajv compiles at run time from the revision's document, whether or not the revision
 * has generated ones (tests compare the two).
 *
 * @throws SdkError `INVALID_ARGUMENT` when the revision's schema has no such definition.
 */
export function compiledValidator(version: ProtocolVersion, definition: string): SchemaValidator {
  let byName = compiled.get(version);
  const cached = byName?.get(definition);
  if (cached !== undefined) return cached;
  if (!Object.hasOwn(definitionsOf(version), definition)) throw noDefinition(version, definition);
  const validate = ajvFor(version).getSchema(`${documentKey(version)}${definitionPointer(version, definition)}`);
  if (validate === undefined) {
    throw new SdkError("INVALID_ARGUMENT", `could not compile "${definition}" of protocol revision ${version}`);
  }
  if (byName === undefined) {
    byName = new Map();
    compiled.set(version, byName);
  }
  byName.set(definition, validate);
  return validate;
}

function noDefinition(version: ProtocolVersion, definition: string): SdkError {
  return new SdkError("INVALID_ARGUMENT", `protocol revision ${version} has no schema definition "${definition}"`);
}
