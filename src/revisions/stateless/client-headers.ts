/**
 * The standard request headers of Streamable HTTP in the stateless era (spec 2026-07-28:
 * basic/transports/streamable-http § Standard Request Headers, § Custom Headers from Tool
 * Parameters): `Mcp-Method` on every POST, `Mcp-Name` for `tools/call`, `prompts/get` and
 * `resources/read`, and `Mcp-Param-{Name}` for tool arguments marked with `x-mcp-header`.
 */

/** Header names; HTTP compares them case-insensitively. */
export const MCP_METHOD_HEADER = "Mcp-Method";
export const MCP_NAME_HEADER = "Mcp-Name";
export const MCP_PARAM_HEADER_PREFIX = "Mcp-Param-";
export const PROTOCOL_VERSION_HEADER = "MCP-Protocol-Version";

const SENTINEL_START = "=?base64?";
const SENTINEL_END = "?=";
/** RFC 9110 `tchar`: what a header name may be made of. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * A value as a header carries it: plain when it is visible ASCII or inner spaces, else
 * `=?base64?…?=` of its UTF-8 bytes (also for a plain value that looks like the sentinel).
 */
export function encodeHeaderValue(value: string): string {
  if (value === "") return value;
  const plain =
    /^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/.test(value) &&
    !(value.startsWith(SENTINEL_START) && value.endsWith(SENTINEL_END));
  if (plain) return value;
  const bytes = new TextEncoder().encode(value);
  return `${SENTINEL_START}${btoa(String.fromCharCode(...bytes))}${SENTINEL_END}`;
}

/** One `x-mcp-header` annotation: the header name part and the property path it reads. */
export interface ParamHeader {
  name: string;
  path: readonly string[];
}

/**
 * The `x-mcp-header` annotations of a tool's `inputSchema`, or the reason the tool must be
 * rejected: an empty or non-token name, a duplicate (case-insensitive), a non-primitive or
 * `number` type, or an annotation not reachable through `properties` alone.
 */
export function paramHeadersOf(inputSchema: unknown): { headers: ParamHeader[] } | { problem: string } {
  const headers: ParamHeader[] = [];
  const problem = walk(inputSchema, [], true, headers);
  if (problem !== undefined) return { problem };
  const seen = new Set<string>();
  for (const header of headers) {
    const key = header.name.toLowerCase();
    if (seen.has(key)) return { problem: `x-mcp-header "${header.name}" is used twice` };
    seen.add(key);
  }
  return { headers };
}

function walk(schema: unknown, path: string[], reachable: boolean, out: ParamHeader[]): string | undefined {
  if (typeof schema !== "object" || schema === null) return undefined;
  const node = schema as Record<string, unknown>;
  if (Object.hasOwn(node, "x-mcp-header")) {
    const name = node["x-mcp-header"];
    if (!reachable || path.length === 0) return "x-mcp-header is only allowed on properties reached through properties";
    if (typeof name !== "string" || name === "" || !TOKEN.test(name)) {
      return `x-mcp-header ${JSON.stringify(name)} is not a valid header name`;
    }
    const type = node.type;
    if (type !== "string" && type !== "integer" && type !== "boolean") {
      return `x-mcp-header "${name}" is on a property of type ${JSON.stringify(type)}; only string, integer and boolean are allowed`;
    }
    out.push({ name, path: [...path] });
  }
  for (const [key, value] of Object.entries(node)) {
    if (key === "properties" && typeof value === "object" && value !== null) {
      for (const [property, child] of Object.entries(value as Record<string, unknown>)) {
        const problem = walk(child, [...path, property], reachable, out);
        if (problem !== undefined) return problem;
      }
    } else if (key !== "x-mcp-header" && typeof value === "object" && value !== null) {
      // Anything under items, composition keywords, $defs and the like is not statically reachable.
      const children = Array.isArray(value) ? value : [value];
      for (const child of children) {
        const problem = walk(child, path, false, out);
        if (problem !== undefined) return problem;
      }
    }
  }
  return undefined;
}

function valueAt(args: unknown, path: readonly string[]): unknown {
  let current = args;
  for (const key of path) {
    if (typeof current !== "object" || current === null) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/**
 * The standard headers for one outbound request: `Mcp-Method`, `MCP-Protocol-Version` when given,
 * `Mcp-Name` where the method has a name, and for `tools/call` one `Mcp-Param-{Name}` per
 * annotated argument that has a value.
 */
export function standardHeaders(
  method: string,
  params: Record<string, unknown> | undefined,
  paramHeaders: readonly ParamHeader[] = [],
  protocolVersion?: string,
): Record<string, string> {
  const headers: Record<string, string> = { [MCP_METHOD_HEADER]: method };
  if (protocolVersion !== undefined) headers[PROTOCOL_VERSION_HEADER] = protocolVersion;
  const name =
    method === "tools/call" || method === "prompts/get"
      ? params?.name
      : method === "resources/read"
        ? params?.uri
        : undefined;
  if (typeof name === "string") headers[MCP_NAME_HEADER] = encodeHeaderValue(name);
  if (method !== "tools/call") return headers;
  for (const header of paramHeaders) {
    const value = valueAt(params?.arguments, header.path);
    if (typeof value === "string") headers[MCP_PARAM_HEADER_PREFIX + header.name] = encodeHeaderValue(value);
    else if (typeof value === "boolean") headers[MCP_PARAM_HEADER_PREFIX + header.name] = String(value);
    else if (typeof value === "number" && Number.isSafeInteger(value)) {
      headers[MCP_PARAM_HEADER_PREFIX + header.name] = String(value);
    }
  }
  return headers;
}
