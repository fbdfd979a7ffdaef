/**
 * What every stateless result carries besides the neutral model's fields: `resultType`, the
 * server's identity in `_meta`, and cache hints on list and read results (spec 2026-07-28:
 * basic/index § Responses, server/utilities/caching).
 */
import { CACHEABLE_METHODS } from "./methods.js";
import { META, RESULT_COMPLETE } from "./wire.js";

/** `cacheScope`: `public` results may be shared across users by intermediaries, `private` ones may not. */
export type CacheScope = "public" | "private";

/** Cache hints put on list and read results that do not set their own. */
export interface CacheHints {
  /** ms a client may reuse the result; 0 means stale at once. */
  ttlMs: number;
  cacheScope: CacheScope;
}

/**
 * The default: reuse for no time, never shared. A server whose lists change per user or often is
 * right with it; one with fixed public lists may raise both.
 */
export const DEFAULT_CACHE_HINTS: CacheHints = { ttlMs: 0, cacheScope: "private" };

export interface ResultEncoding {
  /** Sent as `_meta["io.modelcontextprotocol/serverInfo"]`; left out when undefined. */
  serverInfo?: Record<string, unknown> | undefined;
  cache?: CacheHints;
}

/** `result` of `method` as this revision carries it; the handler's own `resultType`, `ttlMs`, `cacheScope` win. */
export function encodeResult(
  method: string,
  result: Record<string, unknown>,
  encoding: ResultEncoding,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...result };
  out.resultType ??= RESULT_COMPLETE;
  if (encoding.serverInfo !== undefined) {
    const meta = typeof out._meta === "object" && out._meta !== null ? (out._meta as Record<string, unknown>) : {};
    out._meta = { ...meta, [META.serverInfo]: meta[META.serverInfo] ?? encoding.serverInfo };
  }
  if (CACHEABLE_METHODS.has(method) && out.resultType === RESULT_COMPLETE) {
    const cache = encoding.cache ?? DEFAULT_CACHE_HINTS;
    out.ttlMs ??= cache.ttlMs;
    out.cacheScope ??= cache.cacheScope;
  }
  return out;
}
