/**
 * A response with the credential it was fetched with taken out: an API that echoes the
 * `Authorization` header it received, a debug body quoting the request, a cookie holding the
 * token. Each spelling `secretForms` lists (as it is, JSON-escaped, percent-encoded, hex, base64)
 * becomes `[redacted]` in the status text, every header and the body, binary bodies included.
 */
import { MIN_REDACTED_LENGTH, REDACTED } from "../server/redaction.js";
import { secretForms } from "../server/secret-forms.js";

/** Statuses whose response has no body (Fetch standard: null body status). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/**
 * Replaces every spelling of each of `secrets` in a string of bytes (one character per byte,
 * `latin1`): the form HTTP header values arrive in, and the body is read in, so that no bytes are
 * reinterpreted and a binary body stays intact around what is cut out.
 */
export function byteScrubber(secrets: readonly string[]): (bytes: string) => string {
  const forms = secrets
    .filter((secret) => secret.length >= MIN_REDACTED_LENGTH)
    .flatMap(secretForms)
    .map((form) => ({ literal: Buffer.from(form.literal, "utf8").toString("latin1"), pattern: form.pattern }))
    .sort((a, b) => b.literal.length - a.literal.length);
  return (bytes) => {
    let out = bytes;
    for (const { literal, pattern } of forms) {
      if (!out.includes(literal)) continue;
      out = pattern === undefined ? out.replaceAll(literal, REDACTED) : out.replace(pattern, REDACTED);
    }
    return out;
  };
}

/** A string as UTF-8 text, with every spelling of `secrets` replaced (for error texts). */
export function textScrubber(secrets: readonly string[]): (text: string) => string {
  const bytes = byteScrubber(secrets);
  return (text) => Buffer.from(bytes(Buffer.from(text, "utf8").toString("latin1")), "latin1").toString("utf8");
}

/**
 * `response` read in full and rebuilt without any spelling of `secrets`. `Content-Length` and
 * `Content-Encoding` are dropped, since the body is the decoded one and may have changed length;
 * a header whose name spelled a secret is dropped. The copy's `url` is empty, as for any
 * constructed `Response`.
 */
export async function scrubResponse(response: Response, secrets: readonly string[]): Promise<Response> {
  const scrub = byteScrubber(secrets);
  const headers = new Headers();
  response.headers.forEach((value, name) => {
    if (name === "set-cookie" || name === "content-length" || name === "content-encoding") return;
    if (scrub(name) === name) headers.append(name, scrub(value));
  });
  for (const cookie of response.headers.getSetCookie()) headers.append("set-cookie", scrub(cookie));
  if (NULL_BODY.has(response.status)) await response.body?.cancel();
  const body = NULL_BODY.has(response.status)
    ? null
    : Buffer.from(scrub(Buffer.from(await response.arrayBuffer()).toString("latin1")), "latin1");
  return new Response(body, { status: response.status, statusText: scrub(response.statusText), headers });
}
