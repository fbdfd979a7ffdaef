/**
 * The restricted schema of a form-mode elicitation (spec 2025-11-25: client/elicitation § Requested
 * Schema): a flat object whose fields are strings, numbers, booleans or one of four enum shapes.
 * Anything richer is refused here, before it reaches a client that could not render it.
 */

const STRING_FORMATS = ["email", "uri", "date", "date-time"];
const ANNOTATIONS = ["type", "title", "description", "default"];
const TOP_LEVEL = ["$schema", "type", "properties", "required", "title", "description", "additionalProperties"];

type Fields = Record<string, unknown>;

function isRecord(value: unknown): value is Fields {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === "string");
}

function unexpectedKey(field: Fields, allowed: readonly string[]): string | undefined {
  return Object.keys(field).find((key) => !allowed.includes(key));
}

function isNonNegativeInteger(value: unknown): boolean {
  return Number.isInteger(value) && (value as number) >= 0;
}

/** Options of a titled enum (`oneOf` / `items.anyOf`): `[{ const, title }]`, or a sentence saying why not. */
function titledOptions(list: unknown, keyword: string): string[] | string {
  if (!Array.isArray(list) || list.length === 0) return `${keyword} must be a non-empty list of { const, title }`;
  const values: string[] = [];
  for (const [index, option] of list.entries()) {
    if (!isRecord(option) || typeof option.const !== "string" || typeof option.title !== "string") {
      return `${keyword}[${index}] must be { "const": string, "title": string }`;
    }
    const extra = unexpectedKey(option, ["const", "title"]);
    if (extra !== undefined) return `${keyword}[${index}] has "${extra}"; an option has only const and title`;
    values.push(option.const);
  }
  return values;
}

function checkSingleSelect(field: Fields): string | undefined {
  const titled = "oneOf" in field;
  const extra = unexpectedKey(field, titled ? [...ANNOTATIONS, "oneOf"] : [...ANNOTATIONS, "enum", "enumNames"]);
  if (extra !== undefined) return `"${extra}" is not allowed in a single-select enum`;
  const options = titled ? titledOptions(field.oneOf, "oneOf") : field.enum;
  if (typeof options === "string") return options;
  if (!isStringList(options) || options.length === 0) return "enum must be a non-empty list of strings";
  if ("enumNames" in field && !(isStringList(field.enumNames) && field.enumNames.length === options.length)) {
    return "enumNames must list one string per enum value";
  }
  if ("default" in field && !options.includes(field.default as string)) return "default must be one of the options";
  return undefined;
}

function checkMultiSelect(field: Fields): string | undefined {
  const extra = unexpectedKey(field, [...ANNOTATIONS, "items", "minItems", "maxItems"]);
  if (extra !== undefined) return `"${extra}" is not allowed in a multi-select enum`;
  const items = field.items;
  if (!isRecord(items)) return 'a list field needs "items" with the options (enum or anyOf)';
  let options: string[] | string;
  if ("anyOf" in items) {
    const itemExtra = unexpectedKey(items, ["anyOf"]);
    options =
      itemExtra !== undefined
        ? `items has "${itemExtra}"; titled options take only anyOf`
        : titledOptions(items.anyOf, "items.anyOf");
  } else {
    const itemExtra = unexpectedKey(items, ["type", "enum"]);
    if (itemExtra !== undefined) return `items has "${itemExtra}"; untitled options take only type and enum`;
    if (items.type !== "string") return 'items.type must be "string": lists hold enum options only';
    options =
      isStringList(items.enum) && items.enum.length > 0 ? items.enum : "items.enum must be a non-empty list of strings";
  }
  if (typeof options === "string") return options;
  for (const bound of ["minItems", "maxItems"]) {
    if (bound in field && !isNonNegativeInteger(field[bound])) return `${bound} must be a non-negative integer`;
  }
  if ("default" in field) {
    const chosen = field.default;
    if (!isStringList(chosen) || !chosen.every((value) => options.includes(value))) {
      return "default must be a list of the options";
    }
  }
  return undefined;
}

function checkString(field: Fields): string | undefined {
  const extra = unexpectedKey(field, [...ANNOTATIONS, "minLength", "maxLength", "pattern", "format"]);
  if (extra !== undefined) return `"${extra}" is not allowed in a string field`;
  for (const bound of ["minLength", "maxLength"]) {
    if (bound in field && !isNonNegativeInteger(field[bound])) return `${bound} must be a non-negative integer`;
  }
  if ("format" in field && !STRING_FORMATS.includes(field.format as string)) {
    return `format ${JSON.stringify(field.format)} is not supported (use ${STRING_FORMATS.join(", ")})`;
  }
  if ("pattern" in field) {
    if (typeof field.pattern !== "string") return "pattern must be a string";
    try {
      new RegExp(field.pattern, "u");
    } catch {
      return `pattern ${JSON.stringify(field.pattern)} is not a valid regular expression`;
    }
  }
  if ("default" in field && typeof field.default !== "string") return "default must be a string";
  return undefined;
}

function checkNumber(field: Fields): string | undefined {
  const extra = unexpectedKey(field, [...ANNOTATIONS, "minimum", "maximum"]);
  if (extra !== undefined) return `"${extra}" is not allowed in a ${String(field.type)} field`;
  for (const bound of ["minimum", "maximum", "default"]) {
    if (bound in field && typeof field[bound] !== "number") return `${bound} must be a number`;
  }
  if (field.type === "integer" && "default" in field && !Number.isInteger(field.default)) {
    return "default must be an integer";
  }
  return undefined;
}

function checkBoolean(field: Fields): string | undefined {
  const extra = unexpectedKey(field, ANNOTATIONS);
  if (extra !== undefined) return `"${extra}" is not allowed in a boolean field`;
  if ("default" in field && typeof field.default !== "boolean") return "default must be true or false";
  return undefined;
}

function checkField(field: unknown): string | undefined {
  if (!isRecord(field)) return "must be a schema object";
  for (const key of ["title", "description"]) {
    if (key in field && typeof field[key] !== "string") return `${key} must be a string`;
  }
  switch (field.type) {
    case "string":
      return "enum" in field || "oneOf" in field ? checkSingleSelect(field) : checkString(field);
    case "number":
    case "integer":
      return checkNumber(field);
    case "boolean":
      return checkBoolean(field);
    case "array":
      return checkMultiSelect(field);
    case undefined:
      return 'needs a "type" (string, number, integer, boolean, or array for a multi-select enum)';
    default:
      return `type ${JSON.stringify(field.type)} is not allowed: form fields are flat (string, number, integer, boolean, or an enum)`;
  }
}

/**
 * Checks a form-mode `requestedSchema` against the restricted subset: an object schema whose fields
 * are a string (formats email, uri, date, date-time), a number or integer, a boolean, or an enum
 * (single- or multi-select, each with or without titles; the legacy `enumNames` is accepted).
 *
 * @returns a sentence naming the offending field, or `undefined` when the schema is allowed.
 */
export function checkRequestedSchema(schema: unknown): string | undefined {
  if (!isRecord(schema)) return "requestedSchema must be a JSON Schema object";
  if (schema.type !== "object") return 'requestedSchema.type must be "object"';
  const extra = unexpectedKey(schema, TOP_LEVEL);
  if (extra !== undefined) return `requestedSchema has "${extra}", which form elicitation does not allow`;
  if ("additionalProperties" in schema && typeof schema.additionalProperties !== "boolean") {
    return "requestedSchema.additionalProperties must be true or false: fields cannot nest";
  }
  if (!isRecord(schema.properties)) return "requestedSchema.properties must be an object of fields";
  for (const [name, field] of Object.entries(schema.properties)) {
    const problem = checkField(field);
    if (problem !== undefined) return `requestedSchema.properties.${name}: ${problem}`;
  }
  if ("required" in schema) {
    if (!isStringList(schema.required)) return "requestedSchema.required must be a list of field names";
    const unknown = schema.required.find((name) => !Object.hasOwn(schema.properties as Fields, name));
    if (unknown !== undefined) return `requestedSchema.required names "${unknown}", which is not a field`;
  }
  return undefined;
}
