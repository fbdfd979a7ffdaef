/**
 * The connect flow's pages, as the OIDC connect handler serves them: each renders through
 * `renderPage` (templates/), with every dynamic text escaped and the headers every response
 * carries (never cached, never framed, no script, forms only to this origin and to where the
 * form's answer redirects).
 */
import { type NoticeKind, type PageAccount, type PageForm, type PageTheme, renderPage } from "./templates/index.js";

export { escapeHtml } from "./templates/index.js";

/** Who is signed in at the browser, as the pages name them. */
export interface Account extends PageAccount {
  /** From the ID token: a verified email, preferred_username or name, else the subject (see `displayName`). */
  name: string;
  subject: string;
  issuer: string;
}

/** A form of a page: its CSRF token, posted back to the same URL (see `PageForm`). */
export type FormSpec = PageForm;

/** What the pages of one interaction show beside their own part. */
export interface PageFrame {
  theme: PageTheme;
  account?: Account | undefined;
  switchAccount?: FormSpec | undefined;
  message?: string | undefined;
  client?: string | undefined;
  /** A page of a server on the user's own machine (see `PageCommon.local`). */
  local?: boolean | undefined;
}

/** A page that tells what happened, framed. */
export function notice(kind: NoticeKind, frame: PageFrame, extra: { status?: number; cookies?: string[] } = {}) {
  return renderPage({ kind, ...frame, ...extra });
}

/** A 303 to `location`, with the same security headers as every page. */
export function redirect(location: string, cookies: readonly string[] = []): Response {
  const headers = new Headers({
    Location: location,
    "Cache-Control": "no-store",
    "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'; base-uri 'none'",
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
  });
  for (const cookie of cookies) headers.append("Set-Cookie", cookie);
  return new Response(null, { status: 303, headers });
}

/**
 * The answer to a link that is unknown, no longer valid, or another account's: the same bytes for
 * each, so a link tells nothing to anyone but its user. Signed in, it says as whom and offers to
 * sign in as someone else; it never names the interaction's message or client.
 */
export function linkNotFound(theme: PageTheme, signedIn?: { account: Account; switchForm: FormSpec }): Response {
  if (signedIn === undefined) return renderPage({ kind: "not-found", theme });
  return renderPage({ kind: "not-found", theme, account: signedIn.account, switchAccount: signedIn.switchForm });
}
