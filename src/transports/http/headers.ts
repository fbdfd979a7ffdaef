/**
 * Plain checks of the `Accept` and `Content-Type` request headers. `Accept` is read as HTTP
 * defines it (RFC 9110 § 12.5.1): media ranges with wildcards and a quality, the most specific
 * range that matches deciding, and `q=0` meaning "not acceptable".
 */

/**
 * Whether `accept` allows `mediaType` (a lower-case `type/subtype`): the most specific range that
 * matches it (`type/subtype`, then `type/*`, then `*` + `/*`) has a non-zero quality. A missing
 * header allows nothing here, since MCP clients must send one.
 */
export function acceptsMediaType(accept: string | null, mediaType: string): boolean {
  if (accept === null) return false;
  if (listsPlainly(accept, mediaType)) return true;
  const type = mediaType.slice(0, mediaType.indexOf("/"));
  // Specificity of the best match so far: 3 exact, 2 type/*, 1 */*; its quality decides.
  let specificity = 0;
  let quality = 0;
  for (const range of accept.split(",")) {
    const [name = "", ...params] = range.split(";");
    const value = name.trim().toLowerCase();
    const rank = value === mediaType ? 3 : value === `${type}/*` ? 2 : value === "*/*" ? 1 : 0;
    if (rank === 0 || rank < specificity) continue;
    const q = params.map((p) => p.trim().toLowerCase()).find((p) => p.startsWith("q="));
    const parsed = q === undefined ? 1 : Number(q.slice(2));
    const rangeQuality = Number.isFinite(parsed) ? parsed : 0;
    // Among equally specific ranges (a header listing one twice) the better quality counts.
    quality = rank > specificity ? rangeQuality : Math.max(quality, rangeQuality);
    specificity = rank;
  }
  return quality > 0;
}

/**
 * Whether `accept` lists `mediaType` exactly as written, alone between commas (spaces or tabs
 * around it) and without parameters: the common case, answered without splitting the header.
 * `false` only means the full parse has to decide.
 */
function listsPlainly(accept: string, mediaType: string): boolean {
  const at = accept.indexOf(mediaType);
  if (at < 0) return false;
  let before = at - 1;
  while (before >= 0 && isBlank(accept.charCodeAt(before))) before--;
  if (before >= 0 && accept.charCodeAt(before) !== COMMA) return false;
  let after = at + mediaType.length;
  while (after < accept.length && isBlank(accept.charCodeAt(after))) after++;
  return after === accept.length || accept.charCodeAt(after) === COMMA;
}

const COMMA = 0x2c;

function isBlank(code: number): boolean {
  return code === 0x20 || code === 0x09;
}

/** The media type of a `Content-Type` header, lower-cased, without parameters. */
export function mediaTypeOf(contentType: string | null): string | undefined {
  if (contentType === null) return undefined;
  if (contentType === "application/json") return contentType;
  const [type = ""] = contentType.split(";");
  return type.trim().toLowerCase() || undefined;
}

/** Request headers as a plain record with lower-case names, for `MessageExtra.headers`. */
export function headersRecord(headers: Headers): Record<string, string> {
  const record: Record<string, string> = {};
  headers.forEach((value, name) => {
    record[name] = value;
  });
  return record;
}

/** Session ids must be visible ASCII (0x21–0x7E), spec: basic/transports § Session Management. */
export function isValidSessionId(id: string): boolean {
  return /^[\x21-\x7e]+$/.test(id);
}
