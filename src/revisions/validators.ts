/**
 * Validators for the official schema definitions of each revision.
 *
 * The current revisions have validators compiled ahead of time (scripts/gen-validators.ts, into
 * generated/<revision>.validators/, one file per definition), each loaded when its definition is
 * first asked for: checking a message then loads neither ajv nor the schema text, nor the
 * validators of messages the process never meets. For the other revisions, each document is added to
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

/**
 * Revisions with validators generated at build time, by the folder that holds them: one
 * `<Definition>.cjs` per definition (`exports.validate`), and `definitions.cjs`, their names.
 */
export const GENERATED_VALIDATORS: Partial<Record<ProtocolVersion, string>> = {
  "2025-11-25": "./generated/2025-11-25.validators/",
  "2026-07-28": "./generated/2026-07-28.validators/",
};

const require = createRequire(import.meta.url);

/** A revision's generated validators: the names there are, and those required so far. */
interface GeneratedValidators {
  readonly folder: string;
  readonly names: ReadonlySet<string>;
  readonly loaded: Map<string, SchemaValidator>;
}

/** By revision, once its list of names was read. */
const generated = new Map<ProtocolVersion, GeneratedValidators>();

const instances = new Map<Dialect, Ajv>();
const loaded = new Set<ProtocolVersion>();
/** Compiled validators by revision, then by definition name (looked up on every message). */
const compiled = new Map<ProtocolVersion, Map<string, SchemaValidator>>();

function generatedFor(version: ProtocolVersion): GeneratedValidators | undefined {
  const folder = GENERATED_VALIDATORS[version];
  if (folder === undefined) return undefined;
  let module = generated.get(version);
  if (module === undefined) {
    const names = new Set(require(`${folder}definitions.cjs`) as string[]);
    module = { folder, names, loaded: new Map() };
    generated.set(version, module);
  }
  return module;
}

/** The generated validator of a definition the revision has, required on first use. */
function generatedValidator(module: GeneratedValidators, definition: string): SchemaValidator {
  let validate = module.loaded.get(definition);
  if (validate === undefined) {
    validate = (require(`${module.folder}${definition}.cjs`) as { validate: SchemaValidator }).validate;
    module.loaded.set(definition, validate);
  }
  return validate;
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
  if (module !== undefined) return module.names.has(definition);
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
    if (!module.names.has(definition)) throw noDefinition(version, definition);
    return generatedValidator(module, definition);
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
