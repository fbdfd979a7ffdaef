/**
 * Fits a value built from the neutral (2025-11-25) model to an older revision's schema.
 *
 * Where the older schema lists an object's fields and says nothing about extra ones, a field it does
 * not list is one that revision lacks (`structuredContent`, `outputSchema`, `title`, `icons` before
 * 2025-06-18 ...), so it is dropped; older peers that check shapes strictly would otherwise reject the
 * whole message. A content block the revision cannot carry (audio before 2025-03-26, resource links
 * before 2025-06-18) is dropped from its list. User-supplied JSON Schemas (`inputSchema`, ...) and
 * free-form maps (`_meta`, `arguments`) pass through untouched.
 */
import type { JsonSchema } from "../schema-document.js";
import { describesJsonSchema, pickBranch, viewOf } from "../schema-walk.js";
import { definitionsOf } from "../schemas.js";
import type { StatefulVersion } from "../versions.js";

const DROP: unique symbol = Symbol("drop");

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `value` reshaped to `schema` of `version`; the same object when nothing had to change. */
export function fitToSchema(version: StatefulVersion, schema: JsonSchema, value: unknown): unknown {
  const fitted = fitValue(version, schema, value, false);
  return fitted === DROP ? value : fitted;
}

function fitValue(version: StatefulVersion, schema: JsonSchema, value: unknown, inList: boolean): unknown {
  const view = viewOf(version, schema);
  if (view.branches !== undefined) {
    const branch = pickBranch(version, view.branches, value);
    if (branch === undefined) return inList && isRecord(value) ? DROP : value;
    return fitValue(version, branch, value, false);
  }
  if (Array.isArray(value)) return view.items === undefined ? value : fitList(version, view.items, value);
  if (!isRecord(value) || describesJsonSchema(view)) return value;

  const listsFields = Object.keys(view.properties).length > 0;
  let out: Record<string, unknown> | undefined;
  for (const [key, item] of Object.entries(value)) {
    const declared = Object.hasOwn(view.properties, key) ? view.properties[key] : undefined;
    let next: unknown = item;
    if (declared !== undefined) next = fitValue(version, declared, item, false);
    else if (typeof view.additionalProperties === "object")
      next = fitValue(version, view.additionalProperties, item, false);
    else if (view.additionalProperties === undefined && listsFields) next = DROP;
    if (next === item) continue;
    out ??= { ...value };
    if (next === DROP) delete out[key];
    else out[key] = next;
  }
  return out ?? value;
}

function fitList(version: StatefulVersion, items: JsonSchema, list: unknown[]): unknown[] {
  let changed = false;
  const out: unknown[] = [];
  for (const item of list) {
    const next = fitValue(version, items, item, true);
    if (next !== item) changed = true;
    if (next !== DROP) out.push(next);
  }
  return changed ? out : list;
}

/**
 * 2025-06-18 knows titled single-select enums only as `enum` + `enumNames`; the 2025-11-25
 * `oneOf: [{ const, title }]` form is rewritten so the older client still shows the labels.
 */
export function downgradeRequestedSchema(version: StatefulVersion, requested: unknown): unknown {
  if (Object.hasOwn(definitionsOf(version), "TitledSingleSelectEnumSchema")) return requested;
  if (!isRecord(requested) || !isRecord(requested.properties)) return requested;
  let properties: Record<string, unknown> | undefined;
  for (const [name, field] of Object.entries(requested.properties)) {
    if (!isRecord(field) || field.type !== "string" || !Array.isArray(field.oneOf)) continue;
    const options = field.oneOf.filter(isRecord);
    const { oneOf: _oneOf, ...rest } = field;
    properties ??= { ...requested.properties };
    properties[name] = {
      ...rest,
      enum: options.map((option) => option.const),
      enumNames: options.map((option) => option.title ?? option.const),
    };
  }
  return properties === undefined ? requested : { ...requested, properties };
}
