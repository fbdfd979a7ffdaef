/**
 * The shapes a schema takes once it is known to be an object schema: what the JSON Schema and zod
 * compilers produce and what the tool and prompt registries check values against. No library is
 * loaded here.
 */
import type * as z from "zod";

/** A JSON Schema object (any draft; 2020-12 when it names none, as MCP says for tool schemas). */
export type JsonSchema = { [key: string]: unknown };

/** A zod raw shape: the argument of `z.object(...)`. */
export type ZodRawShape = { [key: string]: z.ZodType };

export type Validation = { ok: true; value: Record<string, unknown> } | { ok: false; message: string };

/** A schema ready to advertise (`json`) and to check values against (`validate`). */
export interface CompiledSchema {
  readonly json: JsonSchema;
  validate(value: unknown): Validation;
}
