/**
 * Reading what a stateless request says about itself in `params._meta` (spec 2026-07-28:
 * basic/index § _meta, basic/versioning § Protocol Version Negotiation).
 */
import { ErrorCode, ProtocolError } from "../../jsonrpc/errors.js";
import { STATEFUL_VERSIONS, STATELESS_VERSIONS, type StatelessVersion } from "../versions.js";
import { META, type RequestMeta, StatelessErrorCode } from "./wire.js";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Whether `version` (e.g. an `MCP-Protocol-Version` header) names a stateless-era revision. */
export function isStatelessVersion(version: string | null | undefined): boolean {
  return typeof version === "string" && (STATELESS_VERSIONS as readonly string[]).includes(version);
}

/** The protocol version a request names in `_meta`, if any. */
export function requestedVersion(params: unknown): string | undefined {
  if (!isRecord(params) || !isRecord(params._meta)) return undefined;
  const version = params._meta[META.protocolVersion];
  return typeof version === "string" ? version : undefined;
}

/**
 * Whether a request is written in the stateless era: it names a protocol version in `_meta`, or
 * it is `server/discover` (which exists only there). The version itself is checked later.
 */
export function isStatelessRequest(method: string, params: unknown): boolean {
  if (method === "server/discover") return true;
  return isRecord(params) && isRecord(params._meta) && META.protocolVersion in params._meta;
}

/**
 * The request's `_meta` facts.
 * @param supported every version the server speaks, listed in the -32022 error; only stateless ones
 *   among them are accepted here.
 * @throws ProtocolError -32022 (UnsupportedProtocolVersion, `data: { requested, supported }`) for a
 *   version that is not a stateless one in `supported`; -32602 when `_meta`, its version or its capabilities are missing or
 *   of the wrong type.
 */
export function readRequestMeta(
  params: unknown,
  supported: readonly string[] = [...STATELESS_VERSIONS, ...STATEFUL_VERSIONS],
): RequestMeta & { protocolVersion: StatelessVersion } {
  const meta = isRecord(params) && isRecord(params._meta) ? params._meta : undefined;
  if (meta === undefined) {
    throw new ProtocolError(ErrorCode.InvalidParams, "Invalid params: the request carries no _meta");
  }
  const version = meta[META.protocolVersion];
  if (typeof version !== "string") {
    throw new ProtocolError(ErrorCode.InvalidParams, `Invalid params: _meta needs "${META.protocolVersion}"`);
  }
  if (!supported.includes(version) || !(STATELESS_VERSIONS as readonly string[]).includes(version)) {
    throw new ProtocolError(StatelessErrorCode.UnsupportedProtocolVersion, "Unsupported protocol version", {
      requested: version,
      supported: [...supported],
    });
  }
  const capabilities = meta[META.clientCapabilities];
  if (!isRecord(capabilities)) {
    throw new ProtocolError(
      ErrorCode.InvalidParams,
      `Invalid params: _meta needs "${META.clientCapabilities}" (an object, {} when none)`,
    );
  }
  const out: RequestMeta & { protocolVersion: StatelessVersion } = {
    protocolVersion: version as StatelessVersion,
    clientCapabilities: capabilities,
  };
  const info = meta[META.clientInfo];
  if (isRecord(info) && typeof info.name === "string" && typeof info.version === "string") {
    out.clientInfo = info as RequestMeta["clientInfo"] & object;
  }
  const level = meta[META.logLevel];
  if (typeof level === "string") out.logLevel = level;
  return out;
}
