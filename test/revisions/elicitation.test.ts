import { describe, expect, test } from "vitest";
import {
  applyDefaults,
  checkRequestedSchema,
  decodeElicitResult,
  messageContainsUrl,
  validateElicitContent,
} from "../../src/revisions/elicitation.js";
import { validatorFor } from "../../src/revisions/validators.js";

const form = (properties: Record<string, unknown>, required?: string[]) => ({
  type: "object",
  properties,
  ...(required === undefined ? {} : { required }),
});

const untitledSingle = { type: "string", title: "Color", enum: ["red", "green", "blue"], default: "red" };
const titledSingle = {
  type: "string",
  title: "Color",
  oneOf: [
    { const: "#f00", title: "Red" },
    { const: "#0f0", title: "Green" },
  ],
  default: "#f00",
};
const untitledMulti = {
  type: "array",
  title: "Colors",
  minItems: 1,
  maxItems: 2,
  items: { type: "string", enum: ["red", "green", "blue"] },
  default: ["red"],
};
const titledMulti = {
  type: "array",
  title: "Colors",
  items: {
    anyOf: [
      { const: "#f00", title: "Red" },
      { const: "#0f0", title: "Green" },
    ],
  },
};

/** What the official 2025-11-25 schema says about a requested schema. */
const officialRequestedSchema = (schema: unknown) =>
  validatorFor("2025-11-25", "ElicitRequestFormParams")({ mode: "form", message: "m", requestedSchema: schema });

describe("checkRequestedSchema accepts the restricted subset", () => {
  test.each([
    ["a plain string with a format", { type: "string", format: "email", minLength: 3, maxLength: 80 }],
    ["a string with a pattern", { type: "string", pattern: "^[a-z]+$" }],
    ["a number with bounds", { type: "number", minimum: 0, maximum: 10, default: 5 }],
    ["an integer", { type: "integer", default: 3 }],
    ["a boolean", { type: "boolean", default: false }],
    ["an untitled single-select enum", untitledSingle],
    ["a titled single-select enum", titledSingle],
    ["an untitled multi-select enum", untitledMulti],
    ["a titled multi-select enum", titledMulti],
    ["a legacy enum with enumNames", { type: "string", enum: ["a", "b"], enumNames: ["A", "B"] }],
  ])("%s", (_name, field) => {
    const schema = form({ field }, ["field"]);
    expect(checkRequestedSchema(schema)).toBeUndefined();
    expect(officialRequestedSchema(schema)).toBe(true);
  });

  test("the output of a typical schema library (with $schema and additionalProperties) passes", () => {
    const schema = {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: { name: { type: "string" } },
      required: ["name"],
      additionalProperties: false,
    };
    expect(checkRequestedSchema(schema)).toBeUndefined();
  });
});

describe("checkRequestedSchema refuses anything else, naming the field", () => {
  test.each([
    [
      "a nested object",
      { address: { type: "object", properties: { city: { type: "string" } } } },
      /address: type "object" is not allowed/,
    ],
    [
      "an array of objects",
      { people: { type: "array", items: { type: "object" } } },
      /people: items has "type"|people: items.type must be "string"/,
    ],
    [
      "an array of free strings",
      { tags: { type: "array", items: { type: "string" } } },
      /tags: items.enum must be a non-empty list/,
    ],
    [
      "an unsupported format",
      { site: { type: "string", format: "hostname" } },
      /site: format "hostname" is not supported/,
    ],
    ["a field without a type", { x: { title: "X" } }, /x: needs a "type"/],
    [
      "a combinator inside a field",
      { x: { type: "string", anyOf: [{ type: "string" }] } },
      /x: "anyOf" is not allowed in a string field/,
    ],
    [
      "an untitled enum with a number",
      { x: { type: "string", enum: ["a", 1] } },
      /x: enum must be a non-empty list of strings/,
    ],
    ["a titled option without a title", { x: { type: "string", oneOf: [{ const: "a" }] } }, /x: oneOf\[0\] must be/],
    [
      "a titled multi-select option with extras",
      { x: { type: "array", items: { anyOf: [{ const: "a", title: "A", description: "d" }] } } },
      /x: items.anyOf\[0\] has "description"/,
    ],
    [
      "a default outside the options",
      { x: { ...untitledSingle, default: "purple" } },
      /x: default must be one of the options/,
    ],
    [
      "a multi-select default outside the options",
      { x: { ...untitledMulti, default: ["purple"] } },
      /x: default must be a list of the options/,
    ],
    ["an integer with a fractional default", { x: { type: "integer", default: 1.5 } }, /x: default must be an integer/],
    ["a broken pattern", { x: { type: "string", pattern: "(" } }, /x: pattern "\(" is not a valid regular expression/],
  ])("%s", (_name, properties, message) => {
    const problem = checkRequestedSchema(form(properties));
    expect(problem).toMatch(/^requestedSchema\.properties\./);
    expect(problem).toMatch(message);
  });

  test("the top level must be an object schema with properties", () => {
    expect(checkRequestedSchema({ type: "string" })).toBe('requestedSchema.type must be "object"');
    expect(checkRequestedSchema({ type: "object" })).toBe("requestedSchema.properties must be an object of fields");
    expect(checkRequestedSchema({ type: "object", properties: {}, allOf: [] })).toContain('"allOf"');
    expect(checkRequestedSchema(form({ a: { type: "string" } }, ["b"]))).toBe(
      'requestedSchema.required names "b", which is not a field',
    );
  });
});

describe("applyDefaults", () => {
  const schema = form({
    color: untitledSingle,
    count: { type: "integer", default: 2 },
    subscribe: { type: "boolean", default: false },
    name: { type: "string" },
  });

  test("fills missing fields from defaults and keeps what the user gave", () => {
    expect(applyDefaults(schema, { color: "blue", name: "Ada" })).toEqual({
      color: "blue",
      count: 2,
      subscribe: false,
      name: "Ada",
    });
  });

  test("works without an answer and does not modify its input", () => {
    const answer = { name: "Ada" };
    expect(applyDefaults(schema)).toEqual({ color: "red", count: 2, subscribe: false });
    applyDefaults(schema, answer);
    expect(answer).toEqual({ name: "Ada" });
  });
});

describe("validateElicitContent", () => {
  const schema = form(
    {
      email: { type: "string", format: "email" },
      age: { type: "integer", minimum: 18 },
      color: titledSingle,
      colors: untitledMulti,
    },
    ["email"],
  );

  test("a valid answer passes", () => {
    expect(validateElicitContent(schema, { email: "ada@example.com", age: 30, color: "#0f0", colors: ["red"] })).toBe(
      undefined,
    );
  });

  test("each kind of mistake is named by field", () => {
    expect(validateElicitContent(schema, {})).toBe("content.email is required");
    expect(validateElicitContent(schema, { email: "nope" })).toBe('content.email must match format "email"');
    expect(validateElicitContent(schema, { email: "a@b.co", age: 12 })).toBe("content.age must be >= 18");
    expect(validateElicitContent(schema, { email: "a@b.co", color: "#00f" })).toBe(
      'content.color must be one of "#f00", "#0f0"',
    );
    expect(validateElicitContent(schema, { email: "a@b.co", colors: ["purple"] })).toBe(
      'content.colors must be one of "red", "green", "blue"',
    );
    expect(validateElicitContent(schema, { email: "a@b.co", colors: ["red", "green", "blue"] })).toBe(
      "content.colors must NOT have more than 2 items",
    );
  });

  test("extra fields are refused when the schema closes the object", () => {
    expect(validateElicitContent({ ...form({ a: { type: "string" } }), additionalProperties: false }, { b: "x" })).toBe(
      "content.b is not a field of the form",
    );
  });

  test("the same schema written in another key order reuses its validator and gives the same answer", () => {
    const reordered = { required: ["email"], properties: schema.properties, type: "object" };
    expect(validateElicitContent(reordered, {})).toBe("content.email is required");
  });

  test("a schema named as draft-07 is validated the same way", () => {
    const draft7 = { ...form({ n: { type: "number" } }), $schema: "http://json-schema.org/draft-07/schema#" };
    expect(validateElicitContent(draft7, { n: "x" })).toBe("content.n must be number");
  });
});

describe("decodeElicitResult", () => {
  test("drops the content of a decline or a cancel and keeps everything else", () => {
    const content = { name: "Mallory" };
    expect(decodeElicitResult({ action: "decline", content, _meta: { a: 1 } })).toEqual({
      action: "decline",
      _meta: { a: 1 },
    });
    expect(decodeElicitResult({ action: "cancel", content })).toEqual({ action: "cancel" });
  });

  test("keeps an accepted answer, and a refusal without content, as the same object", () => {
    const accepted = { action: "accept", content: { name: "Ada" } };
    const declined = { action: "decline" };
    expect(decodeElicitResult(accepted)).toBe(accepted);
    expect(decodeElicitResult(declined)).toBe(declined);
  });
});

describe("messageContainsUrl", () => {
  test.each([
    "Open https://example.com/connect to continue",
    "Go to example.com/login",
    "Visit evil.co now",
    "ftp://files.example.org/x",
    "custom-app://authorize?x=1",
    "see //evil.example.com/path",
  ])("finds a URL in %j", (text) => {
    expect(messageContainsUrl(text)).toBe(true);
  });

  test.each([
    "Please provide your GitHub username",
    "Which version, 1.2.3 or 2.0?",
    "Write to ada@example.com if stuck",
    "Settings are in config.json",
  ])("finds none in %j", (text) => {
    expect(messageContainsUrl(text)).toBe(false);
  });
});
