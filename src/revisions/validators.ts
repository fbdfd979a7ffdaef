/**
 * Validators for the official schema definitions of each revision.
 *
 * Each revision's document is added to ajv once per process; a definition is compiled the first time
 * it is asked for and reused after that, so validating a message never compiles anything.
 */
import { Ajv, type ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { SdkError } from "../jsonrpc/errors.js";
import { definitionPointer, definitionsOf, schemaDocument } from "./schemas.js";
import type { ProtocolVersion } from "./versions.js";

type Dialect = "draft-07" | "2020-12";

// ajv-formats is CommonJS: under NodeNext its default import is the module object.
const addFormats = addFormatsModule.default;

const instances = new Map<Dialect, Ajv>();
const loaded = new Set<ProtocolVersion>();
/** Compiled validators by revision, then by definition name (looked up on every message). */
const compiled = new Map<ProtocolVersion, Map<string, ValidateFunction>>();

function dialectOf(version: ProtocolVersion): Dialect {
  return String(schemaDocument(version).$schema).includes("2020-12") ? "2020-12" : "draft-07";
}

/**
 * A fresh ajv for a dialect with the official formats (`uri`, `byte`, `date-time`, ...) enabled.
 * `trusted: true` skips checking schemas against the meta-schema, for documents shipped with the
 * package (the official schemas, checked by tests against their source files): building the
 * meta-schema's own validator is most of the cost of a cold start.
 */
export function createAjv(dialect: Dialect, trusted = false): Ajv {
  // strict mode would reject annotations the official schemas use (e.g. union `type` arrays) and log noise.
  // Trusted documents also compile each `$ref`d definition once, as its own function, instead of
  // inlining it into every definition that names it: the first messages compile a third as much code.
  const options = { strict: false, allErrors: false, validateSchema: !trusted, inlineRefs: !trusted } as const;
  const ajv = dialect === "2020-12" ? new Ajv2020(options) : new Ajv(options);
  addFormats(ajv);
  return ajv;
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

function documentKey(version: ProtocolVersion): string {
  return `urn:mcp-handoff:schema:${version}`;
}

/** Whether the revision's schema has a definition with this name (`CallToolRequest`, `Tool`, ...). */
export function hasDefinition(version: ProtocolVersion, definition: string): boolean {
  return Object.hasOwn(definitionsOf(version), definition);
}

/**
 * The validator of one named definition of a revision's official schema, e.g.
 * `validatorFor("2025-11-25", "CallToolRequest")`. Compiled on first use, then cached for the process.
 *
 * @throws SdkError `INVALID_ARGUMENT` when the revision's schema has no such definition.
 */
export function validatorFor(version: ProtocolVersion, definition: string): ValidateFunction {
  let byName = compiled.get(version);
  const cached = byName?.get(definition);
  if (cached !== undefined) return cached;
  if (!hasDefinition(version, definition)) {
    throw new SdkError("INVALID_ARGUMENT", `protocol revision ${version} has no schema definition "${definition}"`);
  }
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
