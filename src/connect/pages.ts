/**
 * The connect flow's pages: small, static HTML with every dynamic text escaped, and the headers
 * every response carries (never cached, never framed, no script, forms only to this origin and to
 * where the form's answer redirects).
 */

import { secretName } from "./purpose.js";

/** Who is signed in at the browser, as the pages name them. */
export interface Account {
  /** From the ID token: a verified email, preferred_username or name, else the subject (see `displayName`). */
  name: string;
  subject: string;
  issuer: string;
}

/**
 * A form of a page: `action` (the button's value) and its CSRF token, posted back to the same URL.
 * `redirectsTo` lists the origins its answer may redirect to, which the page's CSP must allow.
 */
export interface FormSpec {
  csrf: string;
  redirectsTo?: readonly string[];
}

function securityHeaders(formTargets: readonly string[]): Record<string, string> {
  const formAction = ["'self'", ...new Set(formTargets)].join(" ");
  return {
    "Cache-Control": "no-store",
    "Content-Security-Policy": `default-src 'none'; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    // Not `no-referrer`: a browser then sends `Origin: null` with the pages' own form posts, which
    // the same-origin check needs. Other sites still get no Referer (the URL holds the link's id).
    "Referrer-Policy": "same-origin",
  };
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function headers(
  extra: Record<string, string> = {},
  cookies: readonly string[] = [],
  formTargets: readonly string[] = [],
): Headers {
  const result = new Headers({ ...securityHeaders(formTargets), ...extra });
  for (const cookie of cookies) result.append("Set-Cookie", cookie);
  return result;
}

/** An HTML page; `bodyHtml` must already be escaped. */
export function page(
  status: number,
  title: string,
  bodyHtml: string,
  cookies: readonly string[] = [],
  formTargets: readonly string[] = [],
): Response {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body><h1>${escapeHtml(title)}</h1>${bodyHtml}</body></html>`;
  return new Response(html, {
    status,
    headers: headers({ "Content-Type": "text/html; charset=utf-8" }, cookies, formTargets),
  });
}

/** A plain page with one paragraph of text. */
export function notice(status: number, title: string, text: string, cookies: readonly string[] = []): Response {
  return page(status, title, `<p>${escapeHtml(text)}</p>`, cookies);
}

/** A 303 to `location`, with the same headers as every page. */
export function redirect(location: string, cookies: readonly string[] = []): Response {
  return new Response(null, { status: 303, headers: headers({ Location: location }, cookies) });
}

/** Who is signed in, and how to sign in as someone else, for the foot of a page. */
function accountHtml(account: Account, switchForm: FormSpec): string {
  return `<p>You are signed in here as <strong>${escapeHtml(account.name)}</strong> (account ${escapeHtml(JSON.stringify(account.subject))} at ${escapeHtml(account.issuer)}). Not your account? Do not continue: sign in as yourself, or close this page.</p>
<form method="post"><input type="hidden" name="csrf" value="${escapeHtml(switchForm.csrf)}"><button type="submit" name="action" value="switch">Sign in as someone else</button></form>`;
}

function targets(...forms: FormSpec[]): string[] {
  return forms.flatMap((form) => form.redirectsTo ?? []);
}

/**
 * The question asked before leaving for a third party: "Connect GitHub to alice@example.com?",
 * answered by a POST (`action=connect`) carrying `connect.csrf`.
 */
export function confirmPage(provider: string, account: Account, connect: FormSpec, switchForm: FormSpec): Response {
  const body = `<p>Continuing takes you to ${escapeHtml(provider)}, and the access you allow there is kept by this server for <strong>${escapeHtml(account.name)}</strong>, never shown to your app.</p>
<form method="post"><input type="hidden" name="csrf" value="${escapeHtml(connect.csrf)}"><button type="submit" name="action" value="connect">Connect ${escapeHtml(provider)}</button></form>
${accountHtml(account, switchForm)}`;
  return page(200, `Connect ${provider} to ${account.name}?`, body, [], targets(connect, switchForm));
}

/** The form where the user enters a secret for `account`; posted back to the same URL. */
export function secretForm(
  provider: string,
  label: string,
  account: Account,
  save: FormSpec,
  switchForm: FormSpec,
): Response {
  const name = secretName(provider, label);
  const body = `<p>Enter your ${escapeHtml(name)}. It is kept by this server for <strong>${escapeHtml(account.name)}</strong> and never shown to your app.</p>
<form method="post"><input type="hidden" name="csrf" value="${escapeHtml(save.csrf)}"><label>${escapeHtml(label)} <input type="password" name="secret" autocomplete="off" required></label> <button type="submit">Save</button></form>
${accountHtml(account, switchForm)}`;
  return page(200, `Save your ${name} for ${account.name}`, body, [], targets(save, switchForm));
}

/**
 * The answer to a link that is unknown, no longer valid, or another account's: the same bytes for
 * each, so a link tells nothing to anyone but its user. Signed in, it says as whom and offers to
 * sign in as someone else.
 */
export function linkNotFound(signedIn?: { account: Account; switchForm: FormSpec }): Response {
  const text = "This link is unknown or no longer valid, or it was made for another account.";
  if (signedIn === undefined) return notice(404, "Link not found", text);
  const body = `<p>${escapeHtml(text)}</p>\n${accountHtml(signedIn.account, signedIn.switchForm)}`;
  return page(404, "Link not found", body, [], targets(signedIn.switchForm));
}
