/**
 * Form-elicitation helpers (spec 2025-11-25: client/elicitation): checking the restricted schema,
 * filling defaults, validating the user's answer, and keeping URLs out of everything but a URL-mode
 * request's `url` field.
 */

import { createRequire } from "node:module";
import type { ValidateFunction } from "ajv";
import type { LinkifyIt } from "linkify-it";
import { createAjv } from "./ajv.js";
import { joinPath } from "./explain.js";

export { checkRequestedSchema } from "./elicitation-schema.js";

type Fields = Record<string, unknown>;

function isRecord(value: unknown): value is Fields {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function fieldsOf(schema: unknown): Fields {
  return isRecord(schema) && isRecord(schema.properties) ? schema.properties : {};
}

/**
 * An `ElicitResult` as a handler may see it: `content` only beside `action: "accept"`. A decline
 * or a cancel carries no content (spec 2025-11-25: client/elicitation § Response Actions), and a
 * client that sends some anyway must not hand the server data the user refused to submit. Every
 * elicitation answer the server receives passes here, in either era.
 * @returns the same object when it has nothing to drop.
 */
export function decodeElicitResult<R extends Record<string, unknown>>(result: R): R {
  if (result.action === "accept" || !Object.hasOwn(result, "content")) return result;
  const { content: _refused, ...rest } = result;
  return rest as R;
}

/**
 * The answer with each missing field that has a `default` filled in; fields the user gave are kept.
 * Returns a new object; `content` is not modified.
 * @internal
 */
export function applyDefaults(schema: unknown, content: Readonly<Fields> = {}): Fields {
  const filled: Fields = { ...content };
  for (const [name, field] of Object.entries(fieldsOf(schema))) {
    if (!Object.hasOwn(filled, name) && isRecord(field) && "default" in field) filled[name] = field.default;
  }
  return filled;
}

const MAX_CACHED_SCHEMAS = 256;
/** Made on first use: a process that never checks elicitation content never builds it. */
let ajv: ReturnType<typeof createAjv> | undefined;
const validators = new Map<string, { validate: ValidateFunction; body: Fields }>();

/** The same key for the same schema, whatever order its keys were written in. */
function stableKey(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableKey).join(",")}]`;
  if (isRecord(value)) {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${stableKey(value[key])}`);
    return `{${entries.join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

function validatorOf(schema: Fields): ValidateFunction {
  const key = stableKey(schema);
  const cached = validators.get(key);
  if (cached !== undefined) {
    // Re-inserting keeps the map in least-recently-used order for eviction.
    validators.delete(key);
    validators.set(key, cached);
    return cached.validate;
  }
  // `$schema` may name draft-07; the restricted subset means the same in either dialect.
  const { $schema: _dialect, ...body } = schema;
  ajv ??= createAjv("2020-12");
  const validate = ajv.compile(body);
  validators.set(key, { validate, body });
  if (validators.size > MAX_CACHED_SCHEMAS) {
    const [oldest] = validators;
    if (oldest !== undefined) {
      validators.delete(oldest[0]);
      ajv.removeSchema(oldest[1].body);
    }
  }
  return validate;
}

function optionsOf(field: unknown): string[] | undefined {
  if (!isRecord(field)) return undefined;
  const source = field.type === "array" && isRecord(field.items) ? field.items : field;
  if (Array.isArray(source.enum)) return source.enum.map(String);
  const titled = Array.isArray(source.oneOf) ? source.oneOf : Array.isArray(source.anyOf) ? source.anyOf : undefined;
  return titled?.filter(isRecord).map((option) => String(option.const));
}

/**
 * Checks a form answer (`ElicitResult.content`) against the `requestedSchema` it answers. The schema's
 * validator is compiled once and cached by the schema's content.
 *
 * @returns a sentence naming the offending field (e.g. `content.email must match format "email"`), or
 *   `undefined` when the answer is valid.
 */
export function validateElicitContent(schema: unknown, content: unknown): string | undefined {
  if (!isRecord(schema)) return "requestedSchema must be a JSON Schema object";
  let validate: ValidateFunction;
  try {
    validate = validatorOf(schema);
  } catch (error) {
    return `requestedSchema is not a valid JSON Schema: ${error instanceof Error ? error.message : String(error)}`;
  }
  if (validate(content)) return undefined;
  const errors = (validate.errors ?? []).filter((e) => !["oneOf", "anyOf", "allOf"].includes(e.keyword));
  const error = errors[0] ?? validate.errors?.[0];
  if (error === undefined) return "content does not match the requested schema";
  const segments = error.instancePath === "" ? [] : error.instancePath.slice(1).split("/");
  const params = error.params as Fields;
  if (error.keyword === "required") return `${joinPath("content", [String(params.missingProperty)])} is required`;
  if (error.keyword === "additionalProperties") {
    return `${joinPath("content", [String(params.additionalProperty)])} is not a field of the form`;
  }
  const name = segments[0];
  const options = name === undefined ? undefined : optionsOf(fieldsOf(schema)[name]);
  if (name !== undefined && options !== undefined && error.keyword !== "type" && !/Items$/.test(error.keyword)) {
    return `${joinPath("content", [name])} must be one of ${options.map((o) => JSON.stringify(o)).join(", ")}`;
  }
  return `${joinPath("content", segments)} ${error.message ?? "is invalid"}`;
}

/** Loaded on the first check (its CommonJS build, synchronously), so a server start does not pay for it. */
let linkify: LinkifyIt | undefined;
function linkifier(): LinkifyIt {
  if (linkify === undefined) {
    const { LinkifyIt } = createRequire(import.meta.url)("linkify-it") as typeof import("linkify-it");
    linkify = new LinkifyIt({ fuzzyLink: true, fuzzyIP: true, fuzzyEmail: false });
  }
  return linkify;
}
const SCHEME_URL = /\b[a-z][a-z0-9+.-]*:\/\/\S/i;

/**
 * Whether `text` contains a URL: a link with any scheme (`https://`, `ftp://`, `myapp://`), a
 * protocol-relative `//host`, or a bare domain with a known top-level domain (`example.com/login`).
 * Elicitation messages must not carry URLs; only a URL-mode request's `url` field may (spec
 * 2025-11-25: client/elicitation § Safe URL Handling). E-mail addresses do not count.
 */
export function messageContainsUrl(text: string): boolean {
  return SCHEME_URL.test(text) || linkifier().test(text);
}

/**
 * Whether a form-mode elicitation carries a URL (as `messageContainsUrl` finds them) in its
 * `message` or in any `title` or `description` of its `requestedSchema`: the text a client shows
 * next to the form. Only a URL-mode request's `url` may send the user somewhere (spec 2025-11-25:
 * client/elicitation § Safe URL Handling).
 */
export function formContainsUrl(params: { message?: unknown; requestedSchema?: unknown }): boolean {
  if (typeof params.message === "string" && messageContainsUrl(params.message)) return true;
  return displayTexts(params.requestedSchema).some(messageContainsUrl);
}

function displayTexts(schema: unknown): string[] {
  if (Array.isArray(schema)) return schema.flatMap(displayTexts);
  if (typeof schema !== "object" || schema === null) return [];
  return Object.entries(schema).flatMap(([key, value]) =>
    (key === "title" || key === "description") && typeof value === "string" ? [value] : displayTexts(value),
  );
}
