/**
 * The fields of a form-mode elicitation: each property of `requestedSchema` read as one of the
 * primitive kinds the spec allows (spec 2025-11-25: client/elicitation § Requested Schema),
 * with its schema default when that default fits the field.
 */
import type { Choice } from "./prompter.js";

interface FieldBase {
  /** The property name, the key in the answer's `content`. */
  name: string;
  /** `title`, or the property name. */
  label: string;
  description: string | undefined;
  required: boolean;
  /** The property's schema, for validating an answer. */
  schema: Record<string, unknown>;
}

export type FormField =
  | (FieldBase & { kind: "text"; format: string | undefined; default: string | undefined })
  | (FieldBase & { kind: "number"; integer: boolean; default: number | undefined })
  | (FieldBase & { kind: "boolean"; default: boolean | undefined })
  | (FieldBase & { kind: "select"; choices: Choice[]; default: string | undefined })
  | (FieldBase & {
      kind: "multiselect";
      choices: Choice[];
      default: string[] | undefined;
      minItems: number | undefined;
      maxItems: number | undefined;
    });

/** A `requestedSchema` this client cannot show as a form. */
export class FormSchemaError extends Error {
  override readonly name = "FormSchemaError";
}

/**
 * Reads every property of a flat object schema, in the order the server wrote them.
 * @throws FormSchemaError when the schema is not an object schema or a property is not a
 *   string, number, integer, boolean or one of the four enum shapes.
 */
export function formFields(requestedSchema: Record<string, unknown>): FormField[] {
  const properties = requestedSchema.properties ?? {};
  if (!isObject(properties)) throw new FormSchemaError('The form\'s "properties" is not an object');
  const required = Array.isArray(requestedSchema.required) ? requestedSchema.required : [];
  return Object.entries(properties).map(([name, schema]) => {
    if (!isObject(schema)) throw new FormSchemaError(`The form field "${name}" has no schema`);
    const base: FieldBase = {
      name,
      label: typeof schema.title === "string" && schema.title !== "" ? schema.title : name,
      description: typeof schema.description === "string" ? schema.description : undefined,
      required: required.includes(name),
      schema,
    };
    const field = readField(base, schema);
    if (!field) throw new FormSchemaError(`The form field "${name}" has a type this client cannot ask for`);
    return field;
  });
}

function readField(base: FieldBase, schema: Record<string, unknown>): FormField | undefined {
  const fallback = schema.default;
  switch (schema.type) {
    case "string": {
      const choices = singleChoices(schema);
      if (choices) {
        const initial =
          typeof fallback === "string" && choices.some((c) => c.value === fallback) ? fallback : undefined;
        return { ...base, kind: "select", choices, default: initial };
      }
      const format = typeof schema.format === "string" ? schema.format : undefined;
      return { ...base, kind: "text", format, default: typeof fallback === "string" ? fallback : undefined };
    }
    case "number":
    case "integer": {
      const integer = schema.type === "integer";
      const fits = typeof fallback === "number" && (!integer || Number.isInteger(fallback));
      return { ...base, kind: "number", integer, default: fits ? fallback : undefined };
    }
    case "boolean":
      return { ...base, kind: "boolean", default: typeof fallback === "boolean" ? fallback : undefined };
    case "array": {
      const choices = isObject(schema.items) ? multiChoices(schema.items) : undefined;
      if (!choices) return undefined;
      const values = new Set(choices.map((c) => c.value));
      const initial =
        Array.isArray(fallback) && fallback.every((v) => typeof v === "string" && values.has(v))
          ? (fallback as string[])
          : undefined;
      return {
        ...base,
        kind: "multiselect",
        choices,
        default: initial,
        minItems: count(schema.minItems),
        maxItems: count(schema.maxItems),
      };
    }
    default:
      return undefined;
  }
}

/** `enum` (optionally with the older `enumNames` labels) or `oneOf: [{ const, title }]`. */
function singleChoices(schema: Record<string, unknown>): Choice[] | undefined {
  if (Array.isArray(schema.enum)) {
    const labels = Array.isArray(schema.enumNames) ? schema.enumNames : [];
    return plainChoices(schema.enum, labels);
  }
  return Array.isArray(schema.oneOf) ? titledChoices(schema.oneOf) : undefined;
}

/** `items: { type: "string", enum }` or `items: { anyOf: [{ const, title }] }`. */
function multiChoices(items: Record<string, unknown>): Choice[] | undefined {
  if (Array.isArray(items.enum)) return plainChoices(items.enum, []);
  return Array.isArray(items.anyOf) ? titledChoices(items.anyOf) : undefined;
}

function plainChoices(values: unknown[], labels: unknown[]): Choice[] | undefined {
  if (!values.every((v) => typeof v === "string")) return undefined;
  return values.map((value, i) => {
    const label = labels[i];
    return { value, label: typeof label === "string" ? label : value };
  });
}

function titledChoices(options: unknown[]): Choice[] | undefined {
  const choices: Choice[] = [];
  for (const option of options) {
    if (!isObject(option) || typeof option.const !== "string") return undefined;
    choices.push({ value: option.const, label: typeof option.title === "string" ? option.title : option.const });
  }
  return choices;
}

function count(value: unknown): number | undefined {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
