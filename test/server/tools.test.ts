import { describe, expect, it } from "vitest";
import * as z from "zod";
import { ErrorCode, SdkError, UrlElicitationRequiredError } from "../../src/jsonrpc/errors.js";
import { McpServer } from "../../src/server/index.js";
import { connectClient, until } from "./support.js";

const text = (t: string) => ({ content: [{ type: "text" as const, text: t }] });

function weatherServer() {
  const server = new McpServer({ name: "weather", version: "1.0.0" });
  server.registerTool(
    "forecast",
    {
      title: "Forecast",
      description: "Weather for a city",
      inputSchema: { city: z.string().describe("City name"), days: z.number().int().min(1).max(7).default(1) },
      annotations: { readOnlyHint: true },
    },
    ({ city, days }) => text(`${city}: sunny for ${days} day(s)`),
  );
  server.registerTool(
    "add",
    {
      inputSchema: {
        type: "object",
        properties: { a: { type: "number" }, b: { type: "number" } },
        required: ["a", "b"],
        additionalProperties: false,
      },
    },
    (args) => text(String((args.a as number) + (args.b as number))),
  );
  return server;
}

describe("tools", () => {
  it("lists tools with JSON Schema from zod and plain JSON Schema", async () => {
    const { client } = await connectClient(weatherServer());
    const { tools } = await client.request("tools/list");
    expect(tools).toEqual([
      {
        name: "forecast",
        title: "Forecast",
        description: "Weather for a city",
        inputSchema: {
          type: "object",
          properties: {
            city: { type: "string", description: "City name" },
            days: { type: "integer", minimum: 1, maximum: 7, default: 1 },
          },
          required: ["city"],
        },
        annotations: { readOnlyHint: true },
      },
      {
        name: "add",
        inputSchema: {
          type: "object",
          properties: { a: { type: "number" }, b: { type: "number" } },
          required: ["a", "b"],
          additionalProperties: false,
        },
      },
    ]);
  });

  it("calls a zod tool with parsed arguments (defaults applied)", async () => {
    const { client } = await connectClient(weatherServer());
    const result = await client.request("tools/call", { name: "forecast", arguments: { city: "Oslo" } });
    expect(result).toEqual(text("Oslo: sunny for 1 day(s)"));
  });

  it("accepts a zod object schema as well as a raw shape", async () => {
    const server = new McpServer({ name: "s", version: "1" });
    const inputSchema = z.object({ word: z.string().transform((w) => w.toUpperCase()) });
    server.registerTool("shout", { inputSchema }, ({ word }) => text(word));
    const { client } = await connectClient(server);
    const { tools } = await client.request("tools/list");
    expect(tools).toEqual([
      { name: "shout", inputSchema: { type: "object", properties: { word: { type: "string" } }, required: ["word"] } },
    ]);
    await expect(client.request("tools/call", { name: "shout", arguments: { word: "hi" } })).resolves.toEqual(
      text("HI"),
    );
  });

  it("calls a JSON Schema tool", async () => {
    const { client } = await connectClient(weatherServer());
    await expect(client.request("tools/call", { name: "add", arguments: { a: 2, b: 3 } })).resolves.toEqual(text("5"));
  });

  it("reports invalid arguments as a tool error the model can read", async () => {
    const { client } = await connectClient(weatherServer());
    const zodResult = await client.request("tools/call", { name: "forecast", arguments: { city: "Oslo", days: 9 } });
    expect(zodResult.isError).toBe(true);
    expect(JSON.stringify(zodResult.content)).toMatch(/Invalid arguments for tool forecast: days: .*7/);
    const ajvResult = await client.request("tools/call", { name: "add", arguments: { a: "two" } });
    expect(ajvResult.isError).toBe(true);
    expect(JSON.stringify(ajvResult.content)).toMatch(
      /Invalid arguments for tool add: .*required.*b|a: must be number/,
    );
  });

  it("calls a tool without inputSchema with no arguments, and refuses arguments it does not take", async () => {
    const server = new McpServer({ name: "clock", version: "1.0.0" });
    server.registerTool("now", {}, () => text("noon"));
    const { client } = await connectClient(server);
    expect(await client.request("tools/call", { name: "now" })).toEqual(text("noon"));
    expect(await client.request("tools/call", { name: "now", arguments: {} })).toEqual(text("noon"));
    const refused = await client.request("tools/call", { name: "now", arguments: { zone: "UTC" } });
    expect(refused.isError).toBe(true);
    expect(refused.content).toEqual([
      { type: "text", text: "Invalid arguments for tool now: must NOT have additional properties" },
    ]);
  });

  it("answers -32602 for an unknown tool", async () => {
    const { client } = await connectClient(weatherServer());
    await expect(client.request("tools/call", { name: "nope", arguments: {} })).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
      message: "Unknown tool: nope",
    });
  });

  it("turns a thrown error into an isError result with its message", async () => {
    const server = new McpServer({ name: "s", version: "1" });
    server.registerTool("boom", {}, () => {
      throw new Error("the database is down");
    });
    const { client } = await connectClient(server);
    await expect(client.request("tools/call", { name: "boom", arguments: {} })).resolves.toEqual({
      content: [{ type: "text", text: "the database is down" }],
      isError: true,
    });
  });

  it("keeps a thrown UrlElicitationRequiredError (-32042) a JSON-RPC error", async () => {
    const server = new McpServer({ name: "s", version: "1" });
    const elicitation = {
      mode: "url" as const,
      elicitationId: "e-1",
      url: "https://example.com/connect?elicitationId=e-1",
      message: "Connect your account.",
    };
    server.registerTool("files", {}, () => {
      throw new UrlElicitationRequiredError([elicitation]);
    });
    const { client } = await connectClient(server, { capabilities: { elicitation: { url: {} } } });
    const error = await client.request("tools/call", { name: "files", arguments: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UrlElicitationRequiredError);
    expect(error).toMatchObject({ code: -32042, elicitations: [elicitation] });
  });

  it("checks structured content against the output schema", async () => {
    const server = new McpServer({ name: "s", version: "1" });
    const outputSchema = { temperature: z.number(), conditions: z.string() };
    server.registerTool("good", { outputSchema }, () => ({
      content: [],
      structuredContent: { temperature: 21.5, conditions: "sunny" },
    }));
    server.registerTool("wrong", { outputSchema }, () => ({ content: [], structuredContent: { temperature: "hot" } }));
    server.registerTool("missing", { outputSchema }, () => text("no data"));
    const { client } = await connectClient(server);
    const { tools } = await client.request("tools/list");
    expect((tools as { outputSchema?: unknown }[])[0]?.outputSchema).toMatchObject({
      type: "object",
      required: ["temperature", "conditions"],
    });
    await expect(client.request("tools/call", { name: "good", arguments: {} })).resolves.toEqual({
      content: [{ type: "text", text: '{"temperature":21.5,"conditions":"sunny"}' }],
      structuredContent: { temperature: 21.5, conditions: "sunny" },
    });
    const wrong = await client.request("tools/call", { name: "wrong", arguments: {} });
    expect(wrong.isError).toBe(true);
    expect(JSON.stringify(wrong.content)).toMatch(/does not match its output schema: temperature/);
    const missing = await client.request("tools/call", { name: "missing", arguments: {} });
    expect(missing.isError).toBe(true);
    expect(JSON.stringify(missing.content)).toMatch(/returned no structured content/);
  });

  it("paginates tools/list with opaque cursors and refuses a bad cursor", async () => {
    const server = new McpServer({ name: "s", version: "1" }, { pageSize: 2 });
    for (const name of ["a", "b", "c", "d", "e"]) server.registerTool(name, {}, () => text(name));
    const { client } = await connectClient(server);
    const names: string[] = [];
    let cursor: unknown;
    let pages = 0;
    do {
      const page = await client.request("tools/list", cursor === undefined ? {} : { cursor });
      names.push(...(page.tools as { name: string }[]).map((t) => t.name));
      cursor = page.nextCursor;
      pages++;
    } while (cursor !== undefined);
    expect(names).toEqual(["a", "b", "c", "d", "e"]);
    expect(pages).toBe(3);
    await expect(client.request("tools/list", { cursor: "not-a-cursor" })).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
    });
  });

  it("notifies list changes after connect and honours disable, update and remove", async () => {
    const server = new McpServer({ name: "s", version: "1" });
    const first = server.registerTool("first", {}, () => text("1"));
    const { client, notifications } = await connectClient(server);
    server.registerTool("second", {}, () => text("2"));
    await until(() => (notifications("notifications/tools/list_changed").length === 1 ? true : undefined));

    first.disable();
    await until(() => (notifications("notifications/tools/list_changed").length === 2 ? true : undefined));
    expect((await client.request("tools/list")).tools).toMatchObject([{ name: "second" }]);
    await expect(client.request("tools/call", { name: "first", arguments: {} })).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
    });

    first.enable();
    first.update({ description: "now described", handler: () => text("one") });
    await until(() => (notifications("notifications/tools/list_changed").length === 3 ? true : undefined));
    expect((await client.request("tools/list")).tools).toMatchObject([
      { name: "first", description: "now described" },
      {},
    ]);
    await expect(client.request("tools/call", { name: "first", arguments: {} })).resolves.toEqual(text("one"));

    first.remove();
    await until(() => (notifications("notifications/tools/list_changed").length === 4 ? true : undefined));
    expect((await client.request("tools/list")).tools).toMatchObject([{ name: "second" }]);
  });

  it("refuses a duplicate name and a schema that is not an object schema", () => {
    const server = new McpServer({ name: "s", version: "1" });
    server.registerTool("t", {}, () => text(""));
    expect(() => server.registerTool("t", {}, () => text(""))).toThrow(SdkError);
    expect(() => server.registerTool("u", { inputSchema: { type: "string" } }, () => text(""))).toThrow(
      /type": "object"/,
    );
  });
});
