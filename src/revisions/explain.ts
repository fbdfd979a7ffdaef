/**
 * Turns a failed schema validation into one sentence that names the failing field.
 *
 * ajv reports every branch of a failed union (a content block is checked as text, image, audio, ...),
 * which buries the real problem. Here the branch the value meant (by its `type` or `mode`) is
 * validated on its own, so the sentence speaks about that branch only.
 */
import type { ErrorObject } from "ajv";
import type { JsonSchema } from "./schema-document.js";
import { branchName, pickBranch, viewOf } from "./schema-walk.js";
import { definitionsOf } from "./schemas.js";
import { validatorFor } from "./validators.js";
import type { ProtocolVersion } from "./versions.js";

const UNION_KEYWORDS = new Set(["anyOf", "oneOf"]);
const SUMMARY_KEYWORDS = new Set(["anyOf", "oneOf", "allOf", "if", "not"]);

/**
 * Why `value` does not match `definition` of the revision's schema, as a sentence such as
 * `params.arguments must be object`, or `undefined` when it matches. `root` names the value in the
 * sentence (`params`, `result`).
 */
export function explainMismatch(
  version: ProtocolVersion,
  definition: string,
  value: unknown,
  root: string,
): string | undefined {
  const validate = validatorFor(version, definition);
  if (validate(value)) return undefined;
  return describeErrors(version, definitionsOf(version)[definition] ?? {}, value, validate.errors ?? [], root);
}

function describeErrors(
  version: ProtocolVersion,
  schema: JsonSchema,
  value: unknown,
  errors: readonly ErrorObject[],
  root: string,
): string {
  const union = shallowest(errors.filter((error) => UNION_KEYWORDS.has(error.keyword)));
  if (union !== undefined) {
    const segments = pointerSegments(union.instancePath);
    const branches = schemaAt(version, schema, value, segments)?.branches;
    const inner = valueAt(value, segments);
    const where = joinPath(root, segments);
    if (branches !== undefined) {
      const branch = pickBranch(version, branches, inner);
      const name = branch === undefined ? undefined : branchName(branch);
      if (name !== undefined) {
        const nested = explainMismatch(version, name, inner, where);
        if (nested !== undefined) return nested;
      }
      if (branch === undefined) {
        const names = branches.map(describeBranch).join(", ");
        return `${where} must be one of ${names}${discriminatorHint(inner)}`;
      }
    }
  }
  const concrete = errors.filter((error) => !SUMMARY_KEYWORDS.has(error.keyword));
  const chosen = deepest(concrete.length > 0 ? concrete : errors);
  if (chosen === undefined) return `${root} does not match the schema`;
  return sentence(chosen, root);
}

function sentence(error: ErrorObject, root: string): string {
  const where = joinPath(root, pointerSegments(error.instancePath));
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "required":
      return `${joinPath(where, [String(params.missingProperty)])} is required`;
    case "const":
      return `${where} must be ${JSON.stringify(params.allowedValue)}`;
    case "enum":
      return `${where} must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`;
    default:
      return `${where} ${error.message ?? "is invalid"}`;
  }
}

/** `TextContent` for a named branch, `string | integer` or `array of string` for an inline one. */
function describeBranch(branch: JsonSchema): string {
  const name = branchName(branch);
  if (name !== undefined) return name;
  const type = Array.isArray(branch.type) ? branch.type.join(" | ") : (branch.type ?? "a value");
  return type === "array" && typeof branch.items?.type === "string" ? `array of ${branch.items.type}` : type;
}

function discriminatorHint(value: unknown): string {
  if (typeof value !== "object" || value === null) return "";
  const record = value as Record<string, unknown>;
  for (const key of ["type", "mode", "method"]) {
    if (typeof record[key] === "string") return ` (got ${key} ${JSON.stringify(record[key])})`;
  }
  return "";
}

function schemaAt(
  version: ProtocolVersion,
  schema: JsonSchema,
  value: unknown,
  segments: string[],
): ReturnType<typeof viewOf> | undefined {
  let view = viewOf(version, schema);
  let current = value;
  for (const segment of segments) {
    if (view.branches !== undefined) {
      const branch = pickBranch(version, view.branches, current);
      if (branch === undefined) return undefined;
      view = viewOf(version, branch);
    }
    const next = Array.isArray(current)
      ? view.items
      : (view.properties[segment] ??
        (typeof view.additionalProperties === "object" ? view.additionalProperties : undefined));
    if (next === undefined) return undefined;
    view = viewOf(version, next);
    current = valueAt(current, [segment]);
  }
  return view;
}

function valueAt(value: unknown, segments: string[]): unknown {
  let current = value;
  for (const segment of segments) {
    if (typeof current !== "object" || current === null) return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

function pointerSegments(pointer: string): string[] {
  if (pointer === "") return [];
  return pointer
    .slice(1)
    .split("/")
    .map((s) => s.replaceAll("~1", "/").replaceAll("~0", "~"));
}

/** `params` + [`content`, `0`, `text`] -> `params.content[0].text`. */
export function joinPath(root: string, segments: string[]): string {
  let path = root;
  for (const segment of segments) {
    if (/^\d+$/.test(segment)) path += `[${segment}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(segment)) path += path === "" ? segment : `.${segment}`;
    else path += `[${JSON.stringify(segment)}]`;
  }
  return path;
}

function depth(error: ErrorObject): number {
  return error.instancePath === "" ? 0 : error.instancePath.split("/").length;
}

function shallowest(errors: ErrorObject[]): ErrorObject | undefined {
  return errors.reduce<ErrorObject | undefined>(
    (best, e) => (best === undefined || depth(e) < depth(best) ? e : best),
    undefined,
  );
}

function deepest(errors: readonly ErrorObject[]): ErrorObject | undefined {
  return errors.reduce<ErrorObject | undefined>(
    (best, e) => (best === undefined || depth(e) > depth(best) ? e : best),
    undefined,
  );
}
