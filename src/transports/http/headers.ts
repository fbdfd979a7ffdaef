/**
 * Plain checks of the `Accept` and `Content-Type` request headers. Only exact media types
 * count: the spec asks the client to list `application/json` and `text/event-stream`.
 */

/** Whether `accept` lists `mediaType` with a non-zero quality. */
export function acceptsMediaType(accept: string | null, mediaType: string): boolean {
  if (accept === null) return false;
  if (listsPlainly(accept, mediaType)) return true;
  return accept.split(",").some((range) => {
    const [type = "", ...params] = range.split(";");
    if (type.trim().toLowerCase() !== mediaType) return false;
    const quality = params.map((p) => p.trim().toLowerCase()).find((p) => p.startsWith("q="));
    return quality === undefined || Number(quality.slice(2)) > 0;
  });
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
