import { describe, expect, test } from "vitest";
import type { JsonRpcRequest, JsonRpcResultResponse } from "../../src/jsonrpc/messages.js";
import type { CallToolResult, InitializeResult, ListToolsResult } from "../../src/revisions/model.js";
import type { MessageContext } from "../../src/revisions/revision.js";
import { STATEFUL_REVISIONS } from "../../src/revisions/stateful/revisions.js";
import { validatorFor } from "../../src/revisions/validators.js";
import { STATEFUL_VERSIONS } from "../../src/revisions/versions.js";

const icon = { src: "https://example.com/icon.png", mimeType: "image/png", sizes: ["48x48"] };

const initializeResult: InitializeResult = {
  protocolVersion: "2025-11-25",
  capabilities: {
    tools: { listChanged: true },
    resources: { subscribe: true },
    completions: {},
    logging: {},
    tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
  },
  serverInfo: {
    name: "demo",
    title: "Demo Server",
    version: "1.0.0",
    icons: [icon],
    websiteUrl: "https://example.com",
  },
  instructions: "Be kind.",
};

const callToolResult: CallToolResult = {
  content: [
    { type: "text", text: "22 degrees" },
    { type: "audio", data: "AAAA", mimeType: "audio/wav" },
    { type: "resource_link", uri: "file:///report.pdf", name: "report" },
  ],
  structuredContent: { temperature: 22 },
  isError: false,
};

const listToolsResult: ListToolsResult = {
  tools: [
    {
      name: "weather",
      title: "Weather",
      description: "Current weather",
      icons: [icon],
      inputSchema: {
        $schema: "https://json-schema.org/draft/2020-12/schema",
        type: "object",
        properties: { city: { type: "string", description: "City name" } },
        required: ["city"],
        additionalProperties: false,
      },
      outputSchema: { type: "object", properties: { temperature: { type: "number" } } },
      annotations: { title: "Weather", readOnlyHint: true },
      execution: { taskSupport: "optional" },
      _meta: { "example.com/cost": 1 },
    },
  ],
};

const RESULTS = [
  ["initialize", "InitializeResult", initializeResult],
  ["tools/call", "CallToolResult", callToolResult],
  ["tools/list", "ListToolsResult", listToolsResult],
] as const;

function respond(result: object): JsonRpcResultResponse {
  return { jsonrpc: "2.0", id: 1, result: result as Record<string, unknown> };
}

describe.each(STATEFUL_VERSIONS)("encodeOutbound to %s", (version) => {
  const revision = STATEFUL_REVISIONS[version];

  test.each(RESULTS)("a neutral %s result validates against the official %s", (method, definition, result) => {
    const context: MessageContext = { role: "server", request: { method } };
    const encoded = revision.encodeOutbound(respond(result), context);
    const validate = validatorFor(version, definition);
    expect(validate(encoded.result), JSON.stringify(validate.errors)).toBe(true);
    expect(revision.validateOutbound(encoded, context)).toBeUndefined();
  });

  test("does not modify the message it was given", () => {
    const message = respond(structuredClone(callToolResult));
    const before = structuredClone(message);
    revision.encodeOutbound(message, { role: "server", request: { method: "tools/call" } });
    expect(message).toEqual(before);
  });

  test("a tool's input schema reaches every revision untouched", () => {
    const encoded = revision.encodeOutbound(respond(listToolsResult), {
      role: "server",
      request: { method: "tools/list" },
    });
    const tool = (encoded.result.tools as Record<string, unknown>[])[0];
    expect(tool?.inputSchema).toEqual(listToolsResult.tools[0]?.inputSchema);
  });
});

describe("what each revision loses", () => {
  const encodeResult = (version: (typeof STATEFUL_VERSIONS)[number], method: string, result: object) =>
    STATEFUL_REVISIONS[version].encodeOutbound(respond(result), { role: "server", request: { method } }).result;

  test("2025-11-25 is the neutral model: the message passes through as is", () => {
    const message = respond(callToolResult);
    expect(
      STATEFUL_REVISIONS["2025-11-25"].encodeOutbound(message, { role: "server", request: { method: "tools/call" } }),
    ).toBe(message);
  });

  test("2024-11-05 gets no structuredContent, audio or resource links", () => {
    expect(encodeResult("2024-11-05", "tools/call", callToolResult)).toEqual({
      content: [{ type: "text", text: "22 degrees" }],
      isError: false,
    });
  });

  test("2025-03-26 keeps audio but not resource links or structuredContent", () => {
    const result = encodeResult("2025-03-26", "tools/call", callToolResult);
    expect(result.structuredContent).toBeUndefined();
    expect((result.content as { type: string }[]).map((block) => block.type)).toEqual(["text", "audio"]);
  });

  test("2025-06-18 keeps structuredContent, title and outputSchema but not icons or execution", () => {
    expect(encodeResult("2025-06-18", "tools/call", callToolResult)).toEqual(callToolResult);
    const tool = (encodeResult("2025-06-18", "tools/list", listToolsResult).tools as Record<string, unknown>[])[0];
    expect(tool?.title).toBe("Weather");
    expect(tool?.outputSchema).toBeDefined();
    expect(tool?.icons).toBeUndefined();
    expect(tool?.execution).toBeUndefined();
  });

  test("2024-11-05 tools have only name, description and inputSchema", () => {
    const tool = (encodeResult("2024-11-05", "tools/list", listToolsResult).tools as Record<string, unknown>[])[0];
    expect(Object.keys(tool ?? {}).sort()).toEqual(["description", "inputSchema", "name"]);
  });

  test("server info and capabilities shrink to what 2024-11-05 defines", () => {
    const result = encodeResult("2024-11-05", "initialize", initializeResult);
    expect(result.serverInfo).toEqual({ name: "demo", version: "1.0.0" });
    expect(Object.keys(result.capabilities as object).sort()).toEqual(["logging", "resources", "tools"]);
  });
});

describe("elicitation requests to 2025-06-18", () => {
  const request: JsonRpcRequest = {
    jsonrpc: "2.0",
    id: 9,
    method: "elicitation/create",
    params: {
      mode: "form",
      message: "Pick a color",
      requestedSchema: {
        type: "object",
        properties: {
          color: {
            type: "string",
            title: "Color",
            oneOf: [
              { const: "#f00", title: "Red" },
              { const: "#0f0", title: "Green" },
            ],
          },
        },
      },
    },
  };

  test("mode is dropped and titled options become enum + enumNames", () => {
    const encoded = STATEFUL_REVISIONS["2025-06-18"].encodeOutbound(request, { role: "server" });
    expect(encoded.params).toEqual({
      message: "Pick a color",
      requestedSchema: {
        type: "object",
        properties: { color: { type: "string", title: "Color", enum: ["#f00", "#0f0"], enumNames: ["Red", "Green"] } },
      },
    });
    expect(validatorFor("2025-06-18", "ElicitRequest")(encoded)).toBe(true);
  });

  test("2025-11-25 receives the titled form unchanged", () => {
    expect(STATEFUL_REVISIONS["2025-11-25"].encodeOutbound(request, { role: "server" })).toBe(request);
  });
});
