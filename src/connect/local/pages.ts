/**
 * The local connect pages' own texts, rendered through the connect flow's page functions (same
 * headers, escaping and layout). There is no login here: the page says where the secret goes
 * instead of naming an account.
 */
import { escapeHtml, type FormSpec, notice, page } from "../pages.js";

/** The form where the user enters a secret for the server on this computer; posted back to the same URL. */
export function localSecretForm(label: string, message: string, save: FormSpec): Response {
  const body = `<p>${escapeHtml(message)}</p>
<p>What you enter here is kept by the server running on this computer and never shown to your app.</p>
<form method="post"><input type="hidden" name="csrf" value="${escapeHtml(save.csrf)}"><label>${escapeHtml(label)} <input type="password" name="secret" autocomplete="off" required></label> <button type="submit">Save</button></form>`;
  return page(200, `Enter your ${label}`, body);
}

/** A `Host` that is not this machine's loopback at the pages' port (DNS rebinding, a proxy). */
export const wrongHost = () =>
  notice(421, "Wrong address", "This page is served only on this computer, at the address your app opened.");

/** The link is real, but it was opened before: only the tab it was first opened in can use it. */
export const otherBrowser = () =>
  notice(
    403,
    "Opened in another browser",
    "This link was already opened in another browser or tab, and only the page it opened there can be used. Nothing was changed. Go back to that page; if you did not open it, do not continue there: ask your app again for a new link.",
  );

export const linkExpired = () => notice(410, "Link expired", "This link has expired. Ask your app again.");

export const alreadyUsed = () => notice(409, "Already done", "This link has already been used.");

export const formExpired = () => notice(403, "Form expired", "This form is no longer valid. Open the link again.");

export const crossSite = () => notice(403, "Not allowed", "This form was sent from another site. Nothing was changed.");

export const done = () => notice(200, "Done", "Done. Return to your app; you can close this tab.");
