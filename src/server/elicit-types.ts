/**
 * The types of a form elicitation as a handler writes it: its `requestedSchema`, inline or written
 * `as const`, gives the type of the accepted answer's `content` (spec 2025-11-25:
 * client/elicitation § Supported Schema Types: string, number, integer, boolean, single- and
 * multi-select enums, titled with `oneOf` / `anyOf` of `const`).
 */
import type { ElicitFormParams, ElicitResult, PrimitiveSchemaDefinition } from "../revisions/index.js";

/** `T` with every array and property readonly, so a schema written `as const` fits. */
type ReadonlyDeep<T> = T extends readonly (infer E)[]
  ? readonly ReadonlyDeep<E>[]
  : T extends object
    ? { readonly [K in keyof T]: ReadonlyDeep<T[K]> }
    : T;

/** A form's `requestedSchema`: a flat object of primitive fields, mutable or `as const`. */
export interface RequestedSchemaInput {
  readonly $schema?: string;
  readonly type: "object";
  readonly properties: { readonly [name: string]: ReadonlyDeep<PrimitiveSchemaDefinition> };
  readonly required?: readonly string[];
}

/** Form-mode elicitation as a handler asks for it; `mode` may be left out. */
export type FormElicitation<S extends RequestedSchemaInput = RequestedSchemaInput> = Omit<
  ElicitFormParams,
  "mode" | "requestedSchema"
> & { mode?: "form"; requestedSchema: S };

/** The values of `const` entries of a `oneOf` / `anyOf` list. */
type ConstOf<L> = L extends readonly (infer Each)[] ? (Each extends { const: infer C } ? C : never) : never;

/** The value one field of the form yields. */
type FieldValue<F> = F extends { enum: readonly (infer E)[] }
  ? E
  : F extends { oneOf: infer L }
    ? ConstOf<L>
    : F extends { type: "array"; items: infer I }
      ? (I extends { enum: readonly (infer E)[] } ? E : I extends { anyOf: infer L } ? ConstOf<L> : string)[]
      : F extends { type: "string" }
        ? string
        : F extends { type: "number" | "integer" }
          ? number
          : F extends { type: "boolean" }
            ? boolean
            : ElicitContentValue;

type ElicitContentValue = NonNullable<ElicitResult["content"]>[string];
type RequiredOf<S> = S extends { required: readonly (infer R)[] } ? R : never;
type Simplify<T> = { [K in keyof T]: T[K] } & {};

/**
 * The accepted `content` a schema yields: its required fields as such, the others optional; the
 * wire's record of values when the field names are not known to the type checker.
 */
export type ElicitContentOf<S extends RequestedSchemaInput> = string extends keyof S["properties"]
  ? NonNullable<ElicitResult["content"]>
  : Simplify<
      { -readonly [K in keyof S["properties"] & RequiredOf<S>]: FieldValue<S["properties"][K]> } & {
        -readonly [K in Exclude<keyof S["properties"], RequiredOf<S>>]?: FieldValue<S["properties"][K]>;
      }
    >;

/** The answer to a form elicitation: `content` (present on `accept` only) typed from the schema. */
export type FormElicitResult<S extends RequestedSchemaInput = RequestedSchemaInput> = Omit<ElicitResult, "content"> & {
  content?: ElicitContentOf<S>;
};
