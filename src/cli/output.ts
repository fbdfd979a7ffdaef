/**
 * Human-readable rendering of results. Each function returns the text to print (ending in a
 * newline, or empty); `--json` bypasses all of this and prints the raw result objects.
 */
import { isDeepStrictEqual } from "node:util";
import type {
  CallToolResult,
  ContentBlock,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  Tool,
} from "../client/types.js";

type ResourceContents = ReadResourceResult["contents"][number];
/** A content block read field by field: servers may send types newer than this client knows. */
type LooseBlock = { type?: unknown; [field: string]: unknown };

/** Pretty JSON, the `--json` output. */
export function renderJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** One block per tool: name and title, description, then its arguments with types, required ones marked. */
export function renderTools(tools: readonly Tool[]): string {
  if (tools.length === 0) return "No tools.\n";
  return joinBlocks(
    tools.map((tool) => {
      const lines = [heading(tool.name, tool.title), ...describe(tool.description)];
      const args = describeArguments(tool.inputSchema);
      if (args.length > 0) lines.push(`  Arguments: ${args.join(", ")}`);
      return lines;
    }),
  );
}

/** Resources (and resource templates, when given): URI, name and title, MIME type, description. */
export function renderResources(resources: readonly Resource[], templates: readonly ResourceTemplate[] = []): string {
  if (resources.length === 0 && templates.length === 0) return "No resources.\n";
  const blocks = [
    ...resources.map((r) => [
      `${r.uri}${mime(r.mimeType)}`,
      `  ${heading(r.name, r.title)}`,
      ...describe(r.description),
    ]),
    ...templates.map((t) => [
      `${t.uriTemplate}${mime(t.mimeType)} (template)`,
      `  ${heading(t.name, t.title)}`,
      ...describe(t.description),
    ]),
  ];
  return joinBlocks(blocks);
}

/** Prompts: name and title, description, arguments with required ones marked. */
export function renderPrompts(prompts: readonly Prompt[]): string {
  if (prompts.length === 0) return "No prompts.\n";
  return joinBlocks(
    prompts.map((prompt) => {
      const lines = [heading(prompt.name, prompt.title), ...describe(prompt.description)];
      const args = (prompt.arguments ?? []).map((a) => `${a.name}${a.required ? " (required)" : ""}`);
      if (args.length > 0) lines.push(`  Arguments: ${args.join(", ")}`);
      return lines;
    }),
  );
}

/**
 * A tool result, block by block: text as is, images and audio as a one-line summary with MIME
 * type and size in bytes, resource links, embedded resources; then `structuredContent` as
 * pretty JSON unless a text block already carries the same JSON.
 */
export function renderCallResult(result: CallToolResult): string {
  const parts = (result.content ?? []).map(renderBlock);
  const structured = result.structuredContent;
  if (structured !== undefined && !(result.content ?? []).some((block) => sameJson(block, structured))) {
    parts.push(`Structured content:\n${JSON.stringify(structured, null, 2)}`);
  }
  return parts.length === 0 ? "" : `${parts.join("\n")}\n`;
}

/** The contents of `resources/read`: text as is, binary as a summary; a header per item when there are several. */
export function renderReadResult(result: ReadResourceResult): string {
  const contents = result.contents ?? [];
  if (contents.length === 1 && contents[0]) return ensureNewline(renderContents(contents[0], false));
  return contents.map((c) => ensureNewline(renderContents(c, true))).join("");
}

/** Size in bytes of base64 data, without decoding it into memory twice. */
export function base64Bytes(data: string): number {
  return Buffer.byteLength(data, "base64");
}

function renderBlock(content: ContentBlock): string {
  const block = content as unknown as LooseBlock;
  switch (block.type) {
    case "text":
      return typeof block.text === "string" ? block.text : JSON.stringify(block);
    case "image":
    case "audio":
      return `[${block.type} ${stringOr(block.mimeType, "unknown type")}, ${base64Bytes(stringOr(block.data, ""))} bytes]`;
    case "resource_link": {
      const name = typeof block.name === "string" ? ` ${heading(block.name, block.title)}` : "";
      const description = typeof block.description === "string" ? `\n  ${block.description}` : "";
      return `[resource link${name}] ${stringOr(block.uri, "")}${mime(block.mimeType)}${description}`;
    }
    case "resource":
      return typeof block.resource === "object" && block.resource !== null
        ? renderContents(block.resource as ResourceContents, true)
        : JSON.stringify(block);
    default:
      return JSON.stringify(block, null, 2);
  }
}

function renderContents(resource: ResourceContents, withHeader: boolean): string {
  const contents = resource as ResourceContents & { text?: unknown; blob?: unknown };
  if (typeof contents.text === "string") {
    return withHeader ? `[resource ${contents.uri}${mime(contents.mimeType)}]\n${contents.text}` : contents.text;
  }
  const size = typeof contents.blob === "string" ? `, ${base64Bytes(contents.blob)} bytes` : "";
  return `[resource ${contents.uri} ${contents.mimeType ?? "binary"}${size}]`;
}

/** Whether a text block is the serialised form of `structured` (the spec asks servers to send both). */
function sameJson(content: ContentBlock, structured: unknown): boolean {
  const block = content as unknown as LooseBlock;
  if (block.type !== "text" || typeof block.text !== "string") return false;
  try {
    return isDeepStrictEqual(JSON.parse(block.text), structured);
  } catch {
    return false;
  }
}

/** `name: type (required)` for each property of an input schema. */
function describeArguments(schema: Record<string, unknown> | undefined): string[] {
  const properties = schema?.properties;
  if (typeof properties !== "object" || properties === null) return [];
  const required = new Set(Array.isArray(schema?.required) ? schema.required : []);
  return Object.entries(properties as Record<string, unknown>).map(([name, property]) => {
    const type = typeName(property);
    return `${name}${type ? `: ${type}` : ""}${required.has(name) ? " (required)" : ""}`;
  });
}

function typeName(property: unknown): string | undefined {
  if (typeof property !== "object" || property === null) return undefined;
  const { type, enum: values } = property as { type?: unknown; enum?: unknown };
  if (Array.isArray(values)) return values.map((v) => JSON.stringify(v)).join(" | ");
  if (Array.isArray(type)) return type.join(" | ");
  return typeof type === "string" ? type : undefined;
}

function heading(name: string, title: unknown): string {
  return typeof title === "string" && title !== "" && title !== name ? `${name} — ${title}` : name;
}

function describe(description: string | undefined): string[] {
  return description ? description.split("\n").map((line) => `  ${line}`) : [];
}

function mime(type: unknown): string {
  return typeof type === "string" ? ` (${type})` : "";
}

function stringOr(value: unknown, fallback: string): string {
  return typeof value === "string" ? value : fallback;
}

function joinBlocks(blocks: string[][]): string {
  return `${blocks.map((lines) => lines.join("\n")).join("\n\n")}\n`;
}

function ensureNewline(text: string): string {
  return text.endsWith("\n") || text === "" ? text : `${text}\n`;
}
