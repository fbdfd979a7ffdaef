/**
 * `x-mcp-header` tool parameters (revision 2026-07-28: server/tools § x-mcp-header,
 * basic/transports/streamable-http § Custom Headers): a parameter so annotated travels again in
 * an `Mcp-Param-{Name}` header, so that intermediaries can route on it; the server checks that
 * the header and the body agree, since each party may trust a different one.
 */
import { ProtocolError } from "../../jsonrpc/errors.js";
import { StatelessErrorCode } from "../../revisions/index.js";
import { decodeHeaderValue } from "../../transports/http/eras/stateless.js";

/** The header text of a body value: strings as they are, numbers in decimal, booleans lower-case. */
function sameValue(header: string, value: unknown): boolean {
  if (typeof value === "number") return header.trim() !== "" && Number(header) === value;
  if (typeof value === "boolean") return header === String(value);
  return header === value;
}

/**
 * Checks the `Mcp-Param-*` headers of a `tools/call` against its arguments.
 * @param inputSchema the tool's input schema, whose top-level properties may carry `x-mcp-header`.
 * @param headers the request's headers, lower-case names; none (stdio) means nothing to check.
 * @throws ProtocolError -32020 (HeaderMismatch) when an annotated argument has no header, a header
 *   is malformed, or it says something else than the body.
 */
export function checkParamHeaders(
  inputSchema: unknown,
  args: Record<string, unknown> | undefined,
  headers: Record<string, string> | undefined,
): void {
  if (headers === undefined || typeof inputSchema !== "object" || inputSchema === null) return;
  const properties = (inputSchema as { properties?: Record<string, Record<string, unknown>> }).properties ?? {};
  for (const [parameter, schema] of Object.entries(properties)) {
    const name = schema?.["x-mcp-header"];
    if (typeof name !== "string") continue;
    const value = args?.[parameter];
    const header = headers[`mcp-param-${name.toLowerCase()}`];
    if (value === undefined || value === null) continue;
    const decoded = header === undefined ? undefined : decodeHeaderValue(header);
    if (header === undefined || decoded === undefined || !sameValue(decoded, value)) {
      const why =
        header === undefined ? "is missing" : decoded === undefined ? "is malformed" : "differs from the body";
      throw new ProtocolError(StatelessErrorCode.HeaderMismatch, `Header mismatch: Mcp-Param-${name} ${why}`);
    }
  }
}
