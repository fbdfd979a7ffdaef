/**
 * The tools of the everything server: one per kind of content and per thing a tool can do
 * during a call (log, report progress, ask the client's model, ask the user).
 */
import { z } from "zod";
import type { FormElicitation, McpServer, RequestContext } from "../../src/server/index.js";
import { PNG_BASE64, WAV_BASE64 } from "./fixtures.js";

/** A tool that takes no arguments, advertised the way most servers write it. */
const NO_ARGUMENTS = { type: "object", properties: {} };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const text = (value: string) => ({ content: [{ type: "text" as const, text: value }] });

export function registerTools(server: McpServer): void {
  server.registerTool(
    "test_simple_text",
    { description: "Returns a simple text response", inputSchema: NO_ARGUMENTS },
    () => text("This is a simple text response for testing."),
  );

  server.registerTool(
    "test_image_content",
    { description: "Returns a small PNG image", inputSchema: NO_ARGUMENTS },
    () => ({ content: [{ type: "image", data: PNG_BASE64, mimeType: "image/png" }] }),
  );

  server.registerTool(
    "test_audio_content",
    { description: "Returns a short WAV clip", inputSchema: NO_ARGUMENTS },
    () => ({ content: [{ type: "audio", data: WAV_BASE64, mimeType: "audio/wav" }] }),
  );

  server.registerTool(
    "test_embedded_resource",
    { description: "Returns an embedded text resource", inputSchema: NO_ARGUMENTS },
    () => ({
      content: [
        {
          type: "resource",
          resource: {
            uri: "test://embedded-resource",
            mimeType: "text/plain",
            text: "This is an embedded resource content.",
          },
        },
      ],
    }),
  );

  server.registerTool(
    "test_multiple_content_types",
    { description: "Returns text, an image and an embedded resource", inputSchema: NO_ARGUMENTS },
    () => ({
      content: [
        { type: "text", text: "Multiple content types test:" },
        { type: "image", data: PNG_BASE64, mimeType: "image/png" },
        {
          type: "resource",
          resource: {
            uri: "test://mixed-content-resource",
            mimeType: "application/json",
            text: JSON.stringify({ test: "data", value: 123 }),
          },
        },
      ],
    }),
  );

  server.registerTool(
    "test_tool_with_logging",
    { description: "Sends three log messages while it runs", inputSchema: NO_ARGUMENTS },
    async (_args, ctx) => {
      await ctx.log("info", "Tool execution started");
      await sleep(50);
      await ctx.log("info", "Tool processing data");
      await sleep(50);
      await ctx.log("info", "Tool execution completed");
      return text("Tool with logging executed successfully");
    },
  );

  server.registerTool(
    "test_tool_with_progress",
    { description: "Reports progress 0, 50 and 100 of 100 while it runs", inputSchema: NO_ARGUMENTS },
    async (_args, ctx) => {
      await ctx.progress(0, 100);
      await sleep(50);
      await ctx.progress(50, 100);
      await sleep(50);
      await ctx.progress(100, 100);
      return text("Tool with progress executed successfully");
    },
  );

  server.registerTool(
    "test_error_handling",
    { description: "Always fails, reporting the failure as a tool result", inputSchema: NO_ARGUMENTS },
    () => ({
      content: [{ type: "text", text: "This tool intentionally returns an error for testing" }],
      isError: true,
    }),
  );

  server.registerTool(
    "test_reconnection",
    {
      description: "Closes its SSE connection mid-call; the client reconnects to get the result",
      inputSchema: NO_ARGUMENTS,
    },
    async (_args, ctx) => {
      const closed = ctx.closeSseStream();
      // Long enough that the result is sent while the client is away.
      await sleep(100);
      return text(
        closed ? "Reconnection test completed successfully" : "Completed; this transport keeps the connection open",
      );
    },
  );

  server.registerTool(
    "test_sampling",
    {
      description: "Asks the client's model to answer a prompt",
      inputSchema: { prompt: z.string().describe("The prompt to send to the model") },
    },
    async ({ prompt }, ctx) => {
      const answer = await ctx.sample({
        messages: [{ role: "user", content: { type: "text", text: prompt } }],
        maxTokens: 100,
      });
      const blocks = Array.isArray(answer.content) ? answer.content : [answer.content];
      const reply = blocks.map((block) => (block.type === "text" ? block.text : `[${block.type}]`)).join("\n");
      return text(`LLM response: ${reply}`);
    },
  );

  server.registerTool(
    "test_elicitation",
    {
      description: "Asks the user for a username and an email address",
      inputSchema: { message: z.string().describe("The message shown to the user") },
    },
    async ({ message }, ctx) => {
      const answer = await ctx.elicit({
        message,
        requestedSchema: {
          type: "object",
          properties: {
            username: { type: "string", description: "User's response" },
            email: { type: "string", description: "User's email address" },
          },
          required: ["username", "email"],
        },
      });
      return text(`User response: action=${answer.action}, content=${submitted(answer)}`);
    },
  );

  server.registerTool(
    "test_elicitation_sep1034_defaults",
    { description: "Asks for a form whose every field has a default", inputSchema: NO_ARGUMENTS },
    (_args, ctx) =>
      elicitAndReport(ctx, "Please review your details; every field has a default", {
        name: { type: "string", description: "User name", default: "John Doe" },
        age: { type: "integer", description: "User age", default: 30 },
        score: { type: "number", description: "User score", default: 95.5 },
        status: {
          type: "string",
          description: "User status",
          enum: ["active", "inactive", "pending"],
          default: "active",
        },
        verified: { type: "boolean", description: "Verification status", default: true },
      }),
  );

  server.registerTool(
    "test_elicitation_sep1330_enums",
    { description: "Asks for a form with every kind of enum field", inputSchema: NO_ARGUMENTS },
    (_args, ctx) =>
      elicitAndReport(ctx, "Please pick from each list", {
        untitledSingle: { type: "string", description: "Pick one", enum: ["option1", "option2", "option3"] },
        titledSingle: {
          type: "string",
          description: "Pick one",
          oneOf: [
            { const: "value1", title: "First Option" },
            { const: "value2", title: "Second Option" },
            { const: "value3", title: "Third Option" },
          ],
        },
        legacyEnum: {
          type: "string",
          description: "Pick one",
          enum: ["opt1", "opt2", "opt3"],
          enumNames: ["Option One", "Option Two", "Option Three"],
        },
        untitledMulti: {
          type: "array",
          description: "Pick any",
          items: { type: "string", enum: ["option1", "option2", "option3"] },
        },
        titledMulti: {
          type: "array",
          description: "Pick any",
          items: {
            anyOf: [
              { const: "value1", title: "First Choice" },
              { const: "value2", title: "Second Choice" },
              { const: "value3", title: "Third Choice" },
            ],
          },
        },
      }),
  );

  server.registerTool(
    "json_schema_2020_12_tool",
    {
      description: "Tool with JSON Schema 2020-12 features",
      inputSchema: {
        $schema: "https://json-schema.org/draft/2020-12/schema",
        type: "object",
        $defs: {
          address: {
            $anchor: "addressDef",
            type: "object",
            properties: { street: { type: "string" }, city: { type: "string" } },
          },
        },
        properties: {
          name: { type: "string" },
          address: { $ref: "#/$defs/address" },
          contactMethod: { type: "string", enum: ["phone", "email"] },
          phone: { type: "string" },
          email: { type: "string" },
        },
        allOf: [{ anyOf: [{ required: ["phone"] }, { required: ["email"] }] }],
        if: { properties: { contactMethod: { const: "phone" } }, required: ["contactMethod"] },
        // biome-ignore lint/suspicious/noThenProperty: a JSON Schema keyword; not a function, so never a thenable.
        then: { required: ["phone"] },
        else: { required: ["email"] },
        additionalProperties: false,
      },
    },
    (args) => text(`Received: ${JSON.stringify(args)}`),
  );
}

type FormProperties = FormElicitation["requestedSchema"]["properties"];

async function elicitAndReport(ctx: RequestContext, message: string, properties: FormProperties) {
  const answer = await ctx.elicit({ message, requestedSchema: { type: "object", properties, required: [] } });
  return text(`Elicitation completed: action=${answer.action}, content=${submitted(answer)}`);
}

/** What the user submitted, as JSON: nothing unless they accepted (a decline or cancel submits no data). */
function submitted(answer: { action: string; content?: Record<string, unknown> }): string {
  return JSON.stringify(answer.action === "accept" ? (answer.content ?? {}) : {});
}
