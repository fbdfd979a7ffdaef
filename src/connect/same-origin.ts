/**
 * Whether a form post comes from the connect pages' own origin, as the browser says it: a post
 * from another site, even a sibling subdomain that holds a valid CSRF token of its own session
 * (cookie tossing), is refused before its token is looked at.
 */

/**
 * `false` when `Sec-Fetch-Site` is present and not `same-origin`, or `Origin` is present and not
 * `origin` (`null` included). A request with neither header (not from a browser, or a very old
 * one) passes, and its CSRF token still decides.
 */
export function isSameOriginPost(request: Request, origin: string): boolean {
  const site = request.headers.get("sec-fetch-site");
  if (site !== null && site !== "same-origin") return false;
  const from = request.headers.get("origin");
  return from === null || from === origin;
}
