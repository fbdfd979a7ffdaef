/**
 * The one place the revisions layer loads ajv. ajv is CommonJS and costs tens of milliseconds to
 * evaluate, so it is required synchronously on first use instead of imported: a process whose
 * protocol messages are checked by the pre-compiled validators (see validators.ts) never loads it.
 */
import { createRequire } from "node:module";
import type { Ajv, Options } from "ajv";

/** The JSON Schema dialects of the official schemas: draft-07 up to 2025-06-18, 2020-12 after. */
export type Dialect = "draft-07" | "2020-12";

const require = createRequire(import.meta.url);

/**
 * The options of the validators of the official schemas (`trusted`), compiled at run time or
 * ahead of time by scripts/gen-validators.ts: both must produce the same code.
 * strict mode would reject annotations the official schemas use (e.g. union `type` arrays) and log noise.
 * Trusted documents skip checking against the meta-schema (building its validator is costly) and
 * compile each `$ref`d definition once, as its own function, instead of inlining it everywhere.
 */
export function ajvOptions(trusted: boolean): Options {
  return { strict: false, allErrors: false, validateSchema: !trusted, inlineRefs: !trusted };
}

/**
 * A fresh ajv for a dialect with the official formats (`uri`, `byte`, `date-time`, ...) enabled.
 * `trusted: true` is for documents shipped with the package (the official schemas, checked by
 * tests against their source files). `extra` adds options (the generator asks for `code.source`).
 */
export function createAjv(dialect: Dialect, trusted = false, extra: Options = {}): Ajv {
  const options = { ...ajvOptions(trusted), ...extra };
  const ajv =
    dialect === "2020-12"
      ? new (require("ajv/dist/2020.js") as typeof import("ajv/dist/2020.js")).Ajv2020(options)
      : new (require("ajv") as typeof import("ajv")).Ajv(options);
  // Ajv2020 tracks which properties each branch of a union evaluated, for `unevaluatedProperties`
  // and `unevaluatedItems`, and so checks every branch of an `anyOf`. The official schemas use
  // neither keyword (a test checks), so their unions stop at the first branch that matches.
  if (trusted && dialect === "2020-12") (ajv.opts as { unevaluated?: boolean }).unevaluated = false;
  const addFormats = require("ajv-formats") as typeof import("ajv-formats").default;
  addFormats(ajv);
  return ajv;
}
