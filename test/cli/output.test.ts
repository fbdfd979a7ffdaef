import { describe, expect, it } from "vitest";
import {
  renderCallResult,
  renderJson,
  renderPrompts,
  renderReadResult,
  renderResources,
  renderTools,
} from "../../src/cli/output.js";
import type { CallToolResult, Tool } from "../../src/client/types.js";

const png = Buffer.alloc(1234, 7).toString("base64");

describe("human output", () => {
  it("lists tools with name, title, description and arguments, required ones marked", () => {
    const tools: Tool[] = [
      {
        name: "weather",
        title: "Weather",
        description: "Forecast for a city.\nUses public data.",
        inputSchema: {
          type: "object",
          properties: { city: { type: "string" }, days: { type: "integer" }, unit: { enum: ["c", "f"] } },
          required: ["city"],
        },
      },
      { name: "ping", inputSchema: { type: "object" } },
    ];
    expect(renderTools(tools)).toBe(
      [
        "weather — Weather",
        "  Forecast for a city.",
        "  Uses public data.",
        '  Arguments: city: string (required), days: integer, unit: "c" | "f"',
        "",
        "ping",
        "",
      ].join("\n"),
    );
    expect(renderTools([])).toBe("No tools.\n");
  });

  it("lists resources, templates and prompts", () => {
    expect(
      renderResources(
        [{ uri: "file:///a.txt", name: "a", title: "File A", mimeType: "text/plain" }],
        [{ uriTemplate: "file:///{path}", name: "any", description: "Any file" }],
      ),
    ).toBe("file:///a.txt (text/plain)\n  a — File A\n\nfile:///{path} (template)\n  any\n  Any file\n");
    expect(renderResources([])).toBe("No resources.\n");
    expect(
      renderPrompts([
        { name: "greet", description: "Says hello", arguments: [{ name: "who", required: true }, { name: "tone" }] },
      ]),
    ).toBe("greet\n  Says hello\n  Arguments: who (required), tone\n");
  });

  it("prints text as is, images and audio as one line with MIME type and size in bytes, and resource links", () => {
    const result: CallToolResult = {
      content: [
        { type: "text", text: "line one\n  indented" },
        { type: "image", data: png, mimeType: "image/png" },
        { type: "audio", data: "AAAA", mimeType: "audio/wav" },
        { type: "resource_link", uri: "file:///r.md", name: "r", title: "Report", mimeType: "text/markdown" },
        { type: "resource", resource: { uri: "file:///e.txt", mimeType: "text/plain", text: "embedded" } },
        { type: "resource", resource: { uri: "file:///b.bin", blob: "AAECAw==" } },
      ],
    };
    expect(renderCallResult(result).split("\n")).toEqual([
      "line one",
      "  indented",
      "[image image/png, 1234 bytes]",
      "[audio audio/wav, 3 bytes]",
      "[resource link r — Report] file:///r.md (text/markdown)",
      "[resource file:///e.txt (text/plain)]",
      "embedded",
      "[resource file:///b.bin binary, 4 bytes]",
      "",
    ]);
  });

  it("prints structured content as pretty JSON, unless a text block already carries the same JSON", () => {
    const structured = { temperature: 21, unit: "c" };
    expect(renderCallResult({ content: [], structuredContent: structured })).toBe(
      `Structured content:\n${JSON.stringify(structured, null, 2)}\n`,
    );
    const both: CallToolResult = {
      content: [{ type: "text", text: '{"unit":"c","temperature":21}' }],
      structuredContent: structured,
    };
    expect(renderCallResult(both)).toBe('{"unit":"c","temperature":21}\n');
  });

  it("prints a content type it does not know as JSON rather than dropping it", () => {
    const unknown = { content: [{ type: "hologram", frames: 3 }] } as unknown as CallToolResult;
    expect(renderCallResult(unknown)).toContain('"hologram"');
  });

  it("prints one resource's text as is, and headers when there are several", () => {
    expect(renderReadResult({ contents: [{ uri: "file:///a", text: "hello" }] })).toBe("hello\n");
    expect(
      renderReadResult({
        contents: [
          { uri: "file:///a", text: "hello\n" },
          { uri: "file:///b", mimeType: "image/png", blob: png },
        ],
      }),
    ).toBe("[resource file:///a]\nhello\n[resource file:///b image/png, 1234 bytes]\n");
  });

  it("prints raw results as pretty JSON for --json", () => {
    expect(renderJson({ content: [] })).toBe('{\n  "content": []\n}\n');
  });
});
