/**
 * Answers a form-mode elicitation at the terminal: the server's message, a choice to answer or
 * decline, then one prompt per field (spec 2025-11-25: client/elicitation § Form Mode).
 * Ctrl-C at any prompt answers `cancel`.
 */
import { Ajv, type ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";
import type { ElicitResult, FormElicitationParams, Implementation } from "../client/types.js";
import { type FormField, formFields } from "./form-fields.js";
import { CANCELLED, type Cancelled, type Prompter } from "./prompter.js";
import { printable, printableLine, serverLabel } from "./text.js";

// ajv-formats is CommonJS: under NodeNext its default import is the module object.
const addFormats = addFormatsModule.default;

export type FieldValue = string | number | boolean | string[];

export interface FormPromptIo {
  prompter: Prompter;
  /** Where the server's message is shown (stderr). */
  write: (text: string) => void;
}

/**
 * Shows who asks and why, lets the user answer or decline, then asks each field.
 * @throws FormSchemaError when the schema has a field that cannot be asked (nothing was shown).
 */
export async function promptForm(
  params: FormElicitationParams,
  server: Implementation | undefined,
  io: FormPromptIo,
): Promise<ElicitResult> {
  const fields = formFields(params.requestedSchema);
  io.write(`\n${serverLabel(server)} asks for information:\n${indent(printable(params.message))}\n\n`);
  const decision = await io.prompter.select({
    message: "Answer this request?",
    choices: [
      { value: "accept", label: fields.length > 0 ? "Answer" : "Accept" },
      { value: "decline", label: "Decline" },
    ],
  });
  if (decision === CANCELLED) return { action: "cancel" };
  if (decision !== "accept") return { action: "decline" };
  const content: Record<string, FieldValue> = {};
  for (const field of fields) {
    const value = await askField(field, io.prompter);
    if (value === CANCELLED) return { action: "cancel" };
    if (value !== undefined) content[field.name] = value;
  }
  return { action: "accept", content };
}

/** A unique value for "leave this optional choice empty". */
const SKIP = "\u0000skip";

/**
 * Asks one field with the prompt that suits its kind, pre-filled with its default.
 * Resolves `undefined` for an optional field left empty.
 */
export async function askField(field: FormField, prompter: Prompter): Promise<FieldValue | undefined | Cancelled> {
  const message = fieldMessage(field);
  switch (field.kind) {
    case "text": {
      const check = validatorFor(field.schema);
      const answer = await prompter.text({
        message,
        ...optional("placeholder", formatHint(field.format)),
        ...optional("initialValue", field.default),
        validate: (value) => (value === "" ? requiredMessage(field) : check(value)),
      });
      return answer === "" ? undefined : answer;
    }
    case "number": {
      const check = validatorFor(field.schema);
      const answer = await prompter.text({
        message,
        placeholder: numberHint(field),
        ...optional("initialValue", field.default === undefined ? undefined : String(field.default)),
        validate: (value) => {
          if (value.trim() === "") return requiredMessage(field);
          const number = Number(value);
          return Number.isFinite(number) ? check(number) : "Enter a number";
        },
      });
      return answer === CANCELLED ? answer : answer.trim() === "" ? undefined : Number(answer);
    }
    case "boolean":
      return prompter.confirm({ message, initialValue: field.default ?? false });
    case "select": {
      const skip = field.required ? [] : [{ value: SKIP, label: "(leave empty)" }];
      const answer = await prompter.select({
        message,
        choices: [...field.choices, ...skip],
        ...optional("initialValue", field.default),
      });
      return answer === SKIP ? undefined : answer;
    }
    case "multiselect":
      return askMany(field, message, prompter);
  }
}

async function askMany(
  field: Extract<FormField, { kind: "multiselect" }>,
  message: string,
  prompter: Prompter,
): Promise<string[] | undefined | Cancelled> {
  const { minItems = 0, maxItems = Number.POSITIVE_INFINITY } = field;
  const range = countHint(minItems, maxItems);
  let initialValues = field.default;
  let problem = "";
  for (;;) {
    const answer = await prompter.multiselect({
      message: `${message}${range}${problem}`,
      choices: field.choices,
      required: minItems > 0,
      ...optional("initialValues", initialValues),
    });
    if (answer === CANCELLED) return answer;
    if (answer.length === 0 && !field.required && minItems === 0) return undefined;
    if (answer.length >= minItems && answer.length <= maxItems) return answer;
    initialValues = answer;
    problem = ` (you chose ${answer.length})`;
  }
}

function fieldMessage(field: FormField): string {
  const label = printableLine(field.label);
  const optionalNote = field.required || field.kind === "boolean" ? "" : " (optional)";
  const format = field.kind === "text" && field.format ? ` [${printableLine(field.format)}]` : "";
  const description = field.description ? ` — ${printableLine(field.description)}` : "";
  return `${label}${format}${optionalNote}${description}`;
}

function requiredMessage(field: FormField): string | undefined {
  return field.required ? "This field is required" : undefined;
}

function formatHint(format: string | undefined): string | undefined {
  switch (format) {
    case "email":
      return "name@example.com";
    case "uri":
      return "https://example.com/";
    case "date":
      return "YYYY-MM-DD";
    case "date-time":
      return "YYYY-MM-DDThh:mm:ssZ";
    default:
      return undefined;
  }
}

function numberHint(field: Extract<FormField, { kind: "number" }>): string {
  const { minimum, maximum } = field.schema;
  const kind = field.integer ? "a whole number" : "a number";
  const low = typeof minimum === "number" ? minimum : undefined;
  const high = typeof maximum === "number" ? maximum : undefined;
  if (low !== undefined && high !== undefined) return `${kind} from ${low} to ${high}`;
  if (low !== undefined) return `${kind}, at least ${low}`;
  if (high !== undefined) return `${kind}, at most ${high}`;
  return kind;
}

function countHint(min: number, max: number): string {
  if (max === Number.POSITIVE_INFINITY) return min > 0 ? ` — choose at least ${min}` : "";
  return min === max ? ` — choose ${min}` : ` — choose ${min} to ${max}`;
}

let ajv: Ajv | undefined;

/** A check of one value against its property schema; the first problem as a sentence. */
function validatorFor(schema: Record<string, unknown>): (value: unknown) => string | undefined {
  ajv ??= addFormats(new Ajv({ strict: false, allErrors: false }));
  let validate: ValidateFunction;
  try {
    const { default: _default, title: _title, description: _description, ...rules } = schema;
    validate = ajv.compile(rules);
  } catch {
    // A schema ajv cannot compile: leave the checking to the server.
    return () => undefined;
  }
  return (value) => (validate(value) ? undefined : `Value ${validate.errors?.[0]?.message ?? "is not valid"}`);
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

function indent(text: string): string {
  return text
    .split("\n")
    .map((line) => `  ${line}`)
    .join("\n");
}
