/** The parts of a JSON Schema document this codec reads; everything else passes through untouched. */
export interface JsonSchema {
  $ref?: string;
  $schema?: string;
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  properties?: Record<string, JsonSchema>;
  additionalProperties?: boolean | JsonSchema;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  [keyword: string]: unknown;
}

/** A whole official schema file: draft-07 keeps named shapes in `definitions`, 2020-12 in `$defs`. */
export interface SchemaDocument extends JsonSchema {
  definitions?: Record<string, JsonSchema>;
  $defs?: Record<string, JsonSchema>;
}
