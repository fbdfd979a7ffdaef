/**
 * When tool and prompt schemas are checked: their shape at registration (a mistake there throws
 * at once), everything else on first use, where a schema that does not compile answers that
 * tool's calls with -32603 and a log entry, while the rest of the server keeps serving.
 */
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { ErrorCode, SdkError } from "../../src/jsonrpc/errors.js";
import { McpServer } from "../../src/server/index.js";
import { recordingLogger } from "../support/recording-logger.js";
import { connectClient } from "./support.js";

const text = (t: string) => ({ content: [{ type: "text" as const, text: t }] });
/** Compiles to ajv only: the reference has no target, which no shape check can tell. */
const UNRESOLVABLE = { type: "object", properties: { city: { $ref: "#/$defs/City" } } };

function loggingServer() {
  const logger = recordingLogger();
  const server = new McpServer({ name: "s", version: "1" }, { logger });
  return { server, entries: logger.entries };
}

describe("schema checks at registration", () => {
  it.each([
    ["a JSON Schema that is not an object", { type: "string" }, /"type": "object"/],
    ["properties that are not an object", { type: "object", properties: ["city"] }, /properties must be an object/],
    ["a property schema that is a string", { type: "object", properties: { city: "string" } }, /property "city"/],
    ["required that is not a list of names", { type: "object", required: "city" }, /required must be a list/],
    ["required that names a property twice", { type: "object", required: ["a", "a"] }, /twice/],
    [
      "a property type that is no JSON type",
      { type: "object", properties: { a: { type: "strin" } } },
      /properties\/a\/type/,
    ],
    [
      "a nested required that is not a list",
      { type: "object", properties: { a: { type: "object", required: "b" } } },
      /properties\/a\/required/,
    ],
    [
      "array items that are not a schema",
      { type: "object", properties: { a: { type: "array", items: "string" } } },
      /properties\/a\/items/,
    ],
    [
      "a length that is not a count",
      { type: "object", properties: { a: { type: "string", minLength: "3" } } },
      /properties\/a\/minLength/,
    ],
    [
      "a pattern that is no regular expression",
      { type: "object", properties: { a: { type: "string", pattern: "^[\\w-.]+$" } } },
      /properties\/a\/pattern/,
    ],
    ["an enum that is not a list", { type: "object", properties: { a: { enum: "x" } } }, /properties\/a\/enum/],
    ["an empty anyOf", { type: "object", properties: { a: { anyOf: [] } } }, /properties\/a\/anyOf/],
    ["a schema under $defs that is not one", { type: "object", $defs: { City: "string" } }, /\$defs\/City/],
    [
      "a patternProperties name that is no regular expression",
      { type: "object", patternProperties: { "^[\\w-.]+$": { type: "string" } } },
      /patternProperties names a property "\^\[\\\\w-\.\]\+\$", which must be a regular expression/,
    ],
    [
      "a type listed twice, in a 2019-09 schema",
      {
        $schema: "https://json-schema.org/draft/2019-09/schema",
        type: "object",
        properties: { a: { type: ["string", "string"] } },
      },
      /properties\/a\/type must NOT have duplicate items .*2019-09 meta-schema/,
    ],
    ["a zod schema that is not an object", z.string(), /zod object schema/],
    ["a zod union", z.union([z.object({ a: z.string() }), z.object({ b: z.string() })]), /zod object schema/],
  ])("refuses %s", (_, inputSchema, message) => {
    const { server } = loggingServer();
    const register = () => server.registerTool("t", { inputSchema: inputSchema as z.ZodObject }, () => text(""));
    expect(register).toThrow(SdkError);
    expect(register).toThrow(message);
  });

  it("accepts zod objects behind wrappers that JSON Schema passes through", () => {
    const { server } = loggingServer();
    const object = z.object({ a: z.string() });
    for (const inputSchema of [
      object.optional(),
      object.default({ a: "x" }),
      z.lazy(() => object),
      object.readonly(),
    ]) {
      expect(() =>
        server.registerTool(`t${Math.random()}`, { inputSchema: inputSchema as never }, () => text("")),
      ).not.toThrow();
    }
  });

  it("accepts, and then compiles, JSON Schemas that use what their own draft allows", async () => {
    const { server, entries } = loggingServer();
    const schemas = [
      // draft-07: items as a list, additionalItems; $defs is no keyword there, so anything goes in it.
      {
        $schema: "http://json-schema.org/draft-07/schema#",
        type: "object",
        properties: { pair: { type: "array", items: [{ type: "string" }, true], additionalItems: false } },
        $defs: { ignored: "by draft-07" },
      },
      // 2020-12: prefixItems, $defs and $ref, not, boolean schemas, vendor keywords.
      {
        type: "object",
        properties: {
          pair: { type: "array", prefixItems: [{ $ref: "#/$defs/Name" }], items: false },
          tag: { type: ["string", "null"], pattern: "^[a-z]+$", "x-note": { type: 3 }, nullable: true },
          any: true,
        },
        patternProperties: { "^x-": { type: "string", minLength: 1 } },
        not: { required: ["forbidden"] },
        additionalProperties: true,
        $defs: { Name: { type: "string", enum: ["a", "b"], default: { type: "strin" } } },
      },
    ];
    schemas.forEach((inputSchema, i) => {
      expect(() => server.registerTool(`t${i}`, { inputSchema }, () => text("ran"))).not.toThrow();
    });
    const { client } = await connectClient(server);
    for (const i of schemas.keys()) {
      await expect(client.request("tools/call", { name: `t${i}`, arguments: {} })).resolves.toEqual(text("ran"));
    }
    expect(entries).toEqual([]);
  });

  describe("keywords of another draft, which the schema's draft does not define and ajv ignores", () => {
    const DRAFT_07 = "http://json-schema.org/draft-07/schema#";
    const DRAFT_2019 = "https://json-schema.org/draft/2019-09/schema";
    const schemas = [
      // 2019-09 and 2020-12 keywords in a draft-07 schema.
      {
        $schema: DRAFT_07,
        type: "object",
        properties: { a: { prefixItems: "none", unevaluatedProperties: 3, dependentSchemas: [] } },
      },
      // A 2020-12 keyword in a 2019-09 schema.
      { $schema: DRAFT_2019, type: "object", properties: { a: { prefixItems: 5 } } },
      // A keyword 2020-12 dropped, in a schema of the default draft.
      { type: "object", properties: { a: { additionalItems: "any" } } },
    ];

    it("are accepted at registration and the tools are called", async () => {
      const { server, entries } = loggingServer();
      schemas.forEach((inputSchema, i) => {
        expect(() => server.registerTool(`t${i}`, { inputSchema }, () => text("ran"))).not.toThrow();
      });
      const { client } = await connectClient(server);
      for (const i of schemas.keys()) {
        const args = { arguments: { a: [1] } };
        await expect(client.request("tools/call", { name: `t${i}`, ...args })).resolves.toEqual(text("ran"));
      }
      expect(entries).toEqual([]);
    });

    it("are refused in a schema of a draft that defines them", () => {
      const { server } = loggingServer();
      const as = (schema: object, $schema: string) => ({ ...schema, $schema });
      const redrafted = [
        [as(schemas[0] as object, DRAFT_2019), /properties\/a\/(unevaluatedProperties|dependentSchemas) must be/],
        [{ ...schemas[1], $schema: undefined }, /properties\/a\/prefixItems must be array/],
        [as(schemas[2] as object, DRAFT_07), /properties\/a\/additionalItems must be object or boolean/],
      ] as const;
      for (const [inputSchema, message] of redrafted) {
        expect(() => server.registerTool("t", { inputSchema }, () => text(""))).toThrow(message);
      }
    });
  });

  it("refuses, with an SdkError, a JSON Schema object that contains itself", () => {
    const { server } = loggingServer();
    const node: Record<string, unknown> = { type: "object", properties: {} };
    (node.properties as Record<string, unknown>).child = node;
    let thrown: unknown;
    try {
      server.registerTool("tree", { inputSchema: node as { type: "object" } }, () => text(""));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(SdkError);
    expect(thrown).toMatchObject({ code: "INVALID_ARGUMENT", message: expect.stringContaining("contains itself") });
  });

  it("refuses a prompt whose argsSchema is not a zod raw shape", () => {
    const { server } = loggingServer();
    const argsSchema = { topic: { type: "string" } } as unknown as { topic: z.ZodString };
    expect(() => server.registerPrompt("p", { argsSchema }, () => ({ messages: [] }))).toThrow(/zod raw shape/);
  });
});

describe("schemas compiled on first use", () => {
  it("validates a JSON Schema tool's arguments on its first call, and every call after", async () => {
    const { server } = loggingServer();
    const inputSchema = { type: "object", properties: { n: { type: "integer", minimum: 1 } }, required: ["n"] };
    server.registerTool("count", { inputSchema }, (args) => text(String(args.n)));
    const { client } = await connectClient(server);
    const first = await client.request("tools/call", { name: "count", arguments: { n: 0 } });
    expect(first).toEqual({
      content: [{ type: "text", text: "Invalid arguments for tool count: n: must be >= 1" }],
      isError: true,
    });
    await expect(client.request("tools/call", { name: "count", arguments: { n: 2 } })).resolves.toEqual(text("2"));
    const third = await client.request("tools/call", { name: "count", arguments: {} });
    expect(third.isError).toBe(true);
  });

  it("validates each tool by its own JSON Schema when schemas share an $id, also after an update", async () => {
    const { server, entries } = loggingServer();
    const withId = (type: string) => ({
      $id: "https://example.com/schemas/query",
      type: "object",
      properties: { q: { $ref: "#/$defs/Q" } },
      required: ["q"],
      $defs: { Q: { type } },
    });
    server.registerTool("words", { inputSchema: withId("string") }, () => text("words"));
    const numbers = server.registerTool("numbers", { inputSchema: withId("number") }, () => text("numbers"));
    const { client } = await connectClient(server);
    const call = (name: string, q: unknown) => client.request("tools/call", { name, arguments: { q } });
    await expect(call("words", "a")).resolves.toEqual(text("words"));
    await expect(call("numbers", 1)).resolves.toEqual(text("numbers"));
    await expect(call("numbers", "a")).resolves.toMatchObject({ isError: true });
    numbers.update({ inputSchema: withId("boolean") });
    await expect(call("numbers", true)).resolves.toEqual(text("numbers"));
    await expect(call("words", "a")).resolves.toEqual(text("words"));
    expect(entries).toEqual([]);
  });

  it("lists a tool whose JSON Schema does not compile, answers its calls -32603 and logs why", async () => {
    const { server, entries } = loggingServer();
    let ran = 0;
    server.registerTool("broken", { inputSchema: UNRESOLVABLE }, () => {
      ran++;
      return text("ran");
    });
    server.registerTool("fine", {}, () => text("fine"));
    const { client } = await connectClient(server);
    const { tools } = await client.request("tools/list");
    expect(tools).toEqual([
      { name: "broken", inputSchema: UNRESOLVABLE },
      { name: "fine", inputSchema: { type: "object", additionalProperties: false } },
    ]);
    for (let attempt = 0; attempt < 2; attempt++) {
      await expect(client.request("tools/call", { name: "broken", arguments: { city: "Oslo" } })).rejects.toMatchObject(
        { code: ErrorCode.InternalError, message: "Internal error" },
      );
    }
    expect(ran).toBe(0);
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({ level: "error", message: "tools/call failed" });
    expect(String(entries[0]?.error)).toMatch(/Tool broken's input schema: The JSON Schema does not compile: .*City/);
    await expect(client.request("tools/call", { name: "fine", arguments: {} })).resolves.toEqual(text("fine"));
  });

  it("answers -32603 before running the handler when the output schema does not compile", async () => {
    const { server, entries } = loggingServer();
    let ran = 0;
    server.registerTool("out", { outputSchema: UNRESOLVABLE }, () => {
      ran++;
      return { content: [], structuredContent: { city: "Oslo" } };
    });
    const { client } = await connectClient(server);
    await expect(client.request("tools/call", { name: "out", arguments: {} })).rejects.toMatchObject({
      code: ErrorCode.InternalError,
    });
    expect(ran).toBe(0);
    expect(String(entries[0]?.error)).toMatch(/Tool out's output schema: The JSON Schema does not compile/);
  });

  it("leaves out of tools/list, and logs, a zod tool whose JSON Schema cannot be built", async () => {
    const { server, entries } = loggingServer();
    // A default that throws when zod reads it to write the JSON Schema (every zod 4 release does).
    const unbuildable = z.string().default((): string => {
      throw new Error("no default");
    });
    server.registerTool("odd", { inputSchema: { word: unbuildable } }, () => text("odd"));
    server.registerTool("fine", { inputSchema: { word: z.string() } }, ({ word }) => text(word));
    const { client } = await connectClient(server);
    const { tools } = await client.request("tools/list");
    expect((tools as { name: string }[]).map((tool) => tool.name)).toEqual(["fine"]);
    expect(entries).toMatchObject([
      { level: "error", message: "Tool odd is left out of tools/list: its schema does not compile" },
    ]);
    await expect(client.request("tools/call", { name: "odd", arguments: { word: "a" } })).rejects.toMatchObject({
      code: ErrorCode.InternalError,
    });
    await expect(client.request("tools/call", { name: "fine", arguments: { word: "a" } })).resolves.toEqual(text("a"));
  });

  it("logs a tool or prompt left out of its list once, however often and by whomever it is listed", async () => {
    const { server, entries } = loggingServer();
    // A default that throws when zod reads it to write the JSON Schema (every zod 4 release does).
    const unbuildable = z.string().default((): string => {
      throw new Error("no default");
    });
    server.registerTool("odd", { inputSchema: { word: unbuildable } }, () => text("odd"));
    server.registerPrompt("odd", { argsSchema: { word: unbuildable } }, () => ({ messages: [] }));
    for (let connection = 0; connection < 2; connection++) {
      const { client } = await connectClient(server);
      for (let listing = 0; listing < 2; listing++) {
        await expect(client.request("tools/list")).resolves.toEqual({ tools: [] });
        await expect(client.request("prompts/list")).resolves.toEqual({ prompts: [] });
      }
    }
    expect(entries.map((entry) => entry.message)).toEqual([
      "Tool odd is left out of tools/list: its schema does not compile",
      "Prompt odd is left out of prompts/list: its arguments do not compile",
    ]);
  });
});
