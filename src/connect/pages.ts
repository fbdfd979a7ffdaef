/**
 * The connect flow's pages: small, static HTML with every dynamic text escaped, and the headers
 * every response carries (never cached, never framed, no script, forms only to this origin).
 */

const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "Cache-Control": "no-store",
  "Content-Security-Policy": "default-src 'none'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  "X-Frame-Options": "DENY",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function headers(extra: Record<string, string> = {}, cookies: readonly string[] = []): Headers {
  const result = new Headers({ ...SECURITY_HEADERS, ...extra });
  for (const cookie of cookies) result.append("Set-Cookie", cookie);
  return result;
}

/** An HTML page; `bodyHtml` must already be escaped. */
export function page(status: number, title: string, bodyHtml: string, cookies: readonly string[] = []): Response {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body><h1>${escapeHtml(title)}</h1>${bodyHtml}</body></html>`;
  return new Response(html, { status, headers: headers({ "Content-Type": "text/html; charset=utf-8" }, cookies) });
}

/** A plain page with one paragraph of text. */
export function notice(status: number, title: string, text: string, cookies: readonly string[] = []): Response {
  return page(status, title, `<p>${escapeHtml(text)}</p>`, cookies);
}

/** A 303 to `location`, with the same headers as every page. */
export function redirect(location: string, cookies: readonly string[] = []): Response {
  return new Response(null, { status: 303, headers: headers({ Location: location }, cookies) });
}

/** The form where the user enters a secret; posted back to the same URL. */
export function secretForm(provider: string, label: string, csrf: string): Response {
  const body = `<p>Enter your ${escapeHtml(label)} for ${escapeHtml(provider)}. It is kept by this server and never shown to your app.</p>
<form method="post"><input type="hidden" name="csrf" value="${escapeHtml(csrf)}"><label>${escapeHtml(label)} <input type="password" name="secret" autocomplete="off" required></label> <button type="submit">Save</button></form>`;
  return page(200, `Connect ${provider}`, body);
}
