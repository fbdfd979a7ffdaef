/**
 * Plain checks of the `Accept` and `Content-Type` request headers. Only exact media types
 * count: the spec asks the client to list `application/json` and `text/event-stream`.
 */

/** Whether `accept` lists `mediaType` with a non-zero quality. */
export function acceptsMediaType(accept: string | null, mediaType: string): boolean {
  if (accept === null) return false;
  return accept.split(",").some((range) => {
    const [type = "", ...params] = range.split(";");
    if (type.trim().toLowerCase() !== mediaType) return false;
    const quality = params.map((p) => p.trim().toLowerCase()).find((p) => p.startsWith("q="));
    return quality === undefined || Number(quality.slice(2)) > 0;
  });
}

/** The media type of a `Content-Type` header, lower-cased, without parameters. */
export function mediaTypeOf(contentType: string | null): string | undefined {
  if (contentType === null) return undefined;
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
