/**
 * Reading the official schemas alongside a value: which branch of a union a value means, which fields
 * an object shape declares. Shared by the outbound encoder and by error descriptions.
 */
import type { JsonSchema } from "./schema-document.js";
import { refName, resolveSchema } from "./schemas.js";
import type { ProtocolVersion } from "./versions.js";

/** One object shape after following `$ref`s and merging `allOf` members. */
export interface ObjectView {
  properties: Record<string, JsonSchema>;
  required: Set<string>;
  /** `undefined` when the schema is silent about extra fields. */
  additionalProperties: boolean | JsonSchema | undefined;
  branches: JsonSchema[] | undefined;
  items: JsonSchema | undefined;
  type: string | string[] | undefined;
}

// Schema nodes belong to one revision's document, so a node alone keys its view.
const views = new WeakMap<JsonSchema, Readonly<ObjectView>>();

/** The merged view of a schema: `$ref` followed, `allOf` members folded in. Computed once per node. */
export function viewOf(version: ProtocolVersion, schema: JsonSchema): Readonly<ObjectView> {
  const cached = views.get(schema);
  if (cached !== undefined) return cached;
  const view = buildView(version, schema);
  views.set(schema, view);
  return view;
}

function buildView(version: ProtocolVersion, schema: JsonSchema): ObjectView {
  const resolved = resolveSchema(version, schema);
  const view: ObjectView = {
    properties: { ...(resolved.properties ?? {}) },
    required: new Set(resolved.required ?? []),
    additionalProperties: resolved.additionalProperties,
    branches: resolved.anyOf ?? resolved.oneOf,
    items: resolved.items,
    type: resolved.type,
  };
  for (const member of resolved.allOf ?? []) {
    const inner = viewOf(version, member);
    Object.assign(view.properties, inner.properties);
    for (const name of inner.required) view.required.add(name);
    view.additionalProperties ??= inner.additionalProperties;
    view.type ??= inner.type;
  }
  return view;
}

function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (Number.isInteger(value)) return "integer";
  return typeof value;
}

function typeAllows(type: string | string[] | undefined, value: unknown): boolean {
  if (type === undefined) return true;
  const actual = jsonType(value);
  const allowed = Array.isArray(type) ? type : [type];
  return allowed.includes(actual) || (actual === "integer" && allowed.includes("number"));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const RULED_OUT = Number.NEGATIVE_INFINITY;

/**
 * The union branch a value is meant to be, judged by discriminators (`type: "text"`, `mode: "url"`)
 * and then by how many of a branch's required fields are present; the earlier branch wins a tie.
 * `undefined` when every branch contradicts the value, i.e. it has no representation in this revision.
 */
export function pickBranch(version: ProtocolVersion, branches: JsonSchema[], value: unknown): JsonSchema | undefined {
  let best: JsonSchema | undefined;
  let bestScore = RULED_OUT;
  for (const branch of branches) {
    const score = branchScore(version, branch, value);
    if (score > bestScore) {
      best = branch;
      bestScore = score;
    }
  }
  return best;
}

function branchScore(version: ProtocolVersion, branch: JsonSchema, value: unknown): number {
  const view = viewOf(version, branch);
  if (view.branches !== undefined) {
    return Math.max(RULED_OUT, ...view.branches.map((inner) => branchScore(version, inner, value)));
  }
  if (!typeAllows(view.type, value)) return RULED_OUT;
  if (!isRecord(value)) return 0;
  // A matching discriminator (`type: "image"`) counts most; a missing required field counts against a
  // branch without ruling it out, so an image block without `data` is still judged as an image.
  let score = 0;
  for (const [name, property] of Object.entries(view.properties)) {
    const resolved = resolveSchema(version, property);
    const allowed = resolved.const !== undefined ? [resolved.const] : resolved.enum;
    if (allowed === undefined) continue;
    if (!(name in value)) {
      if (view.required.has(name)) return RULED_OUT;
      continue;
    }
    if (!allowed.includes(value[name])) return RULED_OUT;
    score += 4;
  }
  for (const name of view.required) score += name in value ? 1 : -1;
  return score;
}

/** The definition name of a branch that is a plain `$ref`, e.g. `TextContent`. */
export function branchName(branch: JsonSchema): string | undefined {
  return typeof branch.$ref === "string" ? refName(branch.$ref) : undefined;
}

/**
 * Whether a schema node describes a JSON Schema carried as data (`inputSchema`, `outputSchema`,
 * `requestedSchema`): such values are the user's own schemas and pass through untouched.
 */
export function describesJsonSchema(view: ObjectView): boolean {
  return "properties" in view.properties && "type" in view.properties && "required" in view.properties;
}
