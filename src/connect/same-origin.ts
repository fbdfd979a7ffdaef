/**
 * Whether a form post comes from the connect pages' own origin, as the browser says it: a post
 * from another site, even a sibling subdomain that holds a valid CSRF token of its own session
 * (cookie tossing), is refused before its token is looked at.
 */

/**
 * `false` when `Sec-Fetch-Site` is present and not `same-origin`, or `Origin` is present and not
 * `origin` (`null` included). A request with neither (a browser from before Fetch Metadata that
 * sent no `Origin` with a same-origin form, or not a browser) passes only with a `Referer` on
 * `origin`, which the pages' `Referrer-Policy: same-origin` keeps on their own posts: a page
 * elsewhere can send no Referer, but then it is refused too. Without this, such a browser would
 * let a sibling site post its own session's valid token, which only the origin checks stop where
 * the cookies can be tossed (no `__Host-` prefix).
 */
export function isSameOriginPost(request: Request, origin: string): boolean {
  const site = request.headers.get("sec-fetch-site");
  if (site !== null && site !== "same-origin") return false;
  const from = request.headers.get("origin");
  if (from !== null) return from === origin;
  if (site !== null) return true;
  const referer = request.headers.get("referer");
  return referer !== null && URL.canParse(referer) && new URL(referer).origin === origin;
}
