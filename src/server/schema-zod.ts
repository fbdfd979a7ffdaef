/**
 * zod v4 schemas, recognised by their shape (`_zod`) and compiled with zod's ES module, which is
 * imported on first use only: the user who wrote a zod schema loaded that module already, so the
 * import costs nothing then, and a server without zod schemas never loads it. The ES module and
 * not the CommonJS build, because each build has its own metadata registry, and only the one the
 * user's `import` filled knows their `.describe()` and `.meta()` texts.
 */
import type * as z from "zod";
import { SdkError } from "../jsonrpc/errors.js";
import type { CompiledSchema, JsonSchema, ZodRawShape } from "./schema-types.js";

type ZodModule = typeof import("zod");
let zodModule: Promise<ZodModule> | undefined;

/** zod's ES module: the instance a user's `import * as z from "zod"` gave them. */
export function loadZod(): Promise<ZodModule> {
  zodModule ??= import("zod");
  return zodModule;
}

/** What this module reads of a zod schema's internals (`schema._zod`), the same in zod 4 and zod/mini. */
interface ZodInternals {
  _zod: { def: { type: string; innerType?: unknown; in?: unknown; out?: unknown }; innerType?: unknown };
}

export function isZodSchema(value: unknown): value is z.ZodType {
  if (typeof value !== "object" || value === null || !("_zod" in value)) return false;
  const internals = (value as Partial<ZodInternals>)._zod;
  return typeof internals === "object" && internals !== null && typeof internals.def?.type === "string";
}

export function isZodRawShape(value: object): value is ZodRawShape {
  return Object.values(value).every(isZodSchema);
}

/**
 * Whether `z.toJSONSchema(schema, { io })` has `"type": "object"` at the top: an object or a
 * record, possibly behind wrappers that the JSON Schema passes through (optional, default,
 * readonly, catch, lazy, a pipe's side for `io`).
 */
function describesObject(schema: unknown, io: "input" | "output"): boolean {
  const seen = new Set<unknown>();
  let current = schema;
  while (isZodSchema(current) && !seen.has(current)) {
    seen.add(current);
    const internals = (current as unknown as ZodInternals)._zod;
    const def = internals.def;
    switch (def.type) {
      case "object":
      case "record":
        return true;
      case "pipe": {
        const inType = isZodSchema(def.in) ? (def.in as unknown as ZodInternals)._zod.def.type : undefined;
        current = io === "input" && inType !== "transform" ? def.in : def.out;
        break;
      }
      case "optional":
      case "nonoptional":
      case "default":
      case "prefault":
      case "readonly":
      case "catch":
      case "promise":
        current = def.innerType;
        break;
      case "lazy":
        current = internals.innerType;
        break;
      default:
        return false;
    }
  }
  return false;
}

/** @throws SdkError "INVALID_ARGUMENT" when a zod schema (not a raw shape) does not describe an object. */
export function checkZodObjectSchema(schema: z.ZodType | ZodRawShape, io: "input" | "output"): void {
  if (isZodSchema(schema) && !describesObject(schema, io)) {
    throw new SdkError("INVALID_ARGUMENT", "A tool schema must be a zod object schema or a raw shape");
  }
}

/**
 * The advertised JSON Schema (`z.toJSONSchema`, without `$schema`) and a validator (`safeParse`,
 * whose output, with defaults and transforms applied, is what the handler receives).
 * @throws SdkError "INVALID_ARGUMENT" when zod cannot express the schema as a JSON Schema object.
 */
export async function compileZodSchema(
  schema: z.ZodType | ZodRawShape,
  io: "input" | "output",
): Promise<CompiledSchema> {
  const zod = await loadZod();
  const zodSchema = isZodSchema(schema) ? schema : zod.object(schema);
  let json: JsonSchema;
  try {
    json = zod.toJSONSchema(zodSchema, { io, unrepresentable: "any" }) as JsonSchema;
  } catch (cause) {
    throw new SdkError("INVALID_ARGUMENT", "The zod schema cannot be expressed as JSON Schema", { cause });
  }
  // 2020-12 is what MCP assumes when `$schema` is absent; older validators choke on the URI.
  delete json.$schema;
  if (json.type !== "object") {
    throw new SdkError("INVALID_ARGUMENT", "A tool schema must be a zod object schema or a raw shape");
  }
  return {
    json,
    validate(value) {
      const parsed = zodSchema.safeParse(value);
      if (parsed.success) return { ok: true, value: parsed.data as Record<string, unknown> };
      const problems = parsed.error.issues.map((i) => describe(i.path.join("."), i.message));
      return { ok: false, message: problems.join("; ") };
    },
  };
}

function describe(path: string, message: string): string {
  return path ? `${path}: ${message}` : message;
}
