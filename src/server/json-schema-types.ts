/**
 * The TypeScript type of the value a JSON Schema describes, for schemas written `as const`:
 * `type` (one name or a list), `properties` with `required`, `items`, `enum` and `const`. What it
 * cannot read becomes `unknown`; an object may always carry more properties than it declares.
 */

/** The value of a JSON Schema written `as const`; `unknown` for what it cannot tell. */
export type FromJsonSchema<S> = S extends { const: infer C }
  ? C
  : S extends { enum: readonly (infer E)[] }
    ? E
    : S extends { type: infer T }
      ? T extends readonly (infer Each)[]
        ? FromTypeName<Each, S>
        : FromTypeName<T, S>
      : unknown;

type FromTypeName<T, S> = T extends "string"
  ? string
  : T extends "number" | "integer"
    ? number
    : T extends "boolean"
      ? boolean
      : T extends "null"
        ? null
        : T extends "array"
          ? S extends { items: infer I }
            ? FromJsonSchema<I>[]
            : unknown[]
          : T extends "object"
            ? FromJsonObject<S>
            : unknown;

type RequiredOf<S> = S extends { required: readonly (infer R)[] } ? R : never;

type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** Declared properties (required ones as such, the others optional), and any others as `unknown`. */
export type FromJsonObject<S> = S extends { properties: infer P }
  ? Simplify<
      { -readonly [K in keyof P & RequiredOf<S>]: FromJsonSchema<P[K]> } & {
        -readonly [K in Exclude<keyof P, RequiredOf<S>>]?: FromJsonSchema<P[K]>;
      } & { [key: string]: unknown }
    >
  : Record<string, unknown>;
