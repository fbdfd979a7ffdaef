/**
 * How the Streamable HTTP client follows redirects, on the `node:http` and `fetch` paths alike:
 * within the origin (scheme, host and port) of the request only. Every request carries the
 * session's `Mcp-Session-Id` and, often, an `Authorization`; a redirect to another origin would
 * hand them to a host the user never chose, so it is refused, naming that origin.
 */
import type { HttpRequest } from "./client-http.js";

/** Statuses followed to their `Location`, at most `MAX_REDIRECTS` in a row. */
const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);
export const MAX_REDIRECTS = 20;

/** Headers that describe a body: dropped with the body when a redirect turns the request into a GET. */
const BODY_HEADERS = ["content-type", "content-length", "content-encoding", "content-language", "content-location"];

/** A redirect to another origin than the request's: not followed. */
export class CrossOriginRedirectError extends Error {
  /**
   * @param status the redirect's HTTP status. @param from the origin of the request.
   * @param target the origin the redirect points to (only the origin: a path may hold secrets).
   */
  constructor(
    readonly status: number,
    readonly from: string,
    readonly target: string,
  ) {
    super(
      `refused a redirect (HTTP ${status}) to another origin, ${target}: redirects are followed within ${from} only, so that the session id and credentials never leave it`,
    );
    this.name = "CrossOriginRedirectError";
  }
}

/** The error for a redirect chain longer than `MAX_REDIRECTS`. */
export function tooManyRedirects(): Error {
  return new Error(`redirect count exceeded (more than ${MAX_REDIRECTS})`);
}

/**
 * The request to send next when the answer to `request` (`status`, `location`) redirects it, as
 * `fetch` does: 307 and 308 repeat it as it was, 303 (and 301 or 302 to a POST) turns it into a
 * GET without a body. `undefined` when the answer is no redirect (another status, no `Location`,
 * one that does not parse).
 * @throws CrossOriginRedirectError when the target's origin is not the request's.
 */
export function redirectRequest(
  request: HttpRequest,
  status: number,
  location: string | null,
): HttpRequest | undefined {
  if (!REDIRECT_STATUSES.has(status) || location === null) return undefined;
  let url: URL;
  try {
    url = new URL(location, request.url);
  } catch {
    return undefined;
  }
  // A scheme other than http and https has another origin (often "null"), so it is refused too.
  if (url.origin !== request.url.origin) throw new CrossOriginRedirectError(status, request.url.origin, url.origin);
  const { method, body } = request;
  const headers = { ...request.headers };
  if (status === 303 ? method !== "GET" : (status === 301 || status === 302) && method === "POST") {
    for (const name of BODY_HEADERS) delete headers[name];
    return { method: "GET", url, headers };
  }
  return body === undefined ? { method, url, headers } : { method, url, headers, body };
}
