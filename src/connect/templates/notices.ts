/**
 * The words of every page that only tells what happened: its status, heading, what happened and
 * what to do now. Never a stack trace or an error's own text, which may quote a server's answer.
 */

export type NoticeKind =
  | "done"
  | "declined"
  | "expired"
  | "used"
  | "not-found"
  | "cross-site"
  | "sign-in-again"
  | "form-expired"
  | "nothing-to-do"
  | "nothing-entered"
  | "not-saved"
  | "answer-refused"
  | "not-connected"
  | "sign-in-failed"
  | "nothing-here"
  | "error"
  | "wrong-host"
  | "other-browser"
  | "too-large";

export interface Notice {
  status: number;
  title: string;
  /** What happened. */
  text: string;
  /** What to do now. */
  next: string;
}

const AGAIN = "To try again, open the link from your app again.";

export const NOTICES: Readonly<Record<NoticeKind, Notice>> = {
  done: {
    status: 200,
    title: "Done",
    text: "Done — return to your app.",
    next: "You can close this tab.",
  },
  declined: {
    status: 200,
    title: "Declined",
    text: "You declined. Nothing was stored, and the app gets no access.",
    next: "You can close this tab and return to your app.",
  },
  expired: {
    status: 410,
    title: "Link expired",
    text: "This link has expired. Nothing was stored.",
    next: "Ask your app again: it will give you a new link.",
  },
  used: {
    status: 409,
    title: "Already done",
    text: "This link has already been used.",
    next: "Nothing more is needed here: return to your app. To connect again, ask your app for a new link.",
  },
  "not-found": {
    status: 404,
    title: "Link not found",
    text: "This link is unknown or no longer valid, or it was made for another account.",
    next: "Open the link your app gave you, signed in as yourself, or ask your app for a new one.",
  },
  "cross-site": {
    status: 403,
    title: "Not allowed",
    text: "This form was sent from another site. Nothing was changed.",
    next: "If you meant to answer, open the link from your app again.",
  },
  "sign-in-again": {
    status: 403,
    title: "Please sign in",
    text: "You are not signed in here, so nothing was changed.",
    next: "Open the link again to sign in.",
  },
  "form-expired": {
    status: 403,
    title: "Form expired",
    text: "This form is no longer valid. Nothing was changed.",
    next: "Open the link again.",
  },
  "nothing-to-do": {
    status: 400,
    title: "Nothing to do",
    text: "This link does not ask for anything here.",
    next: "Return to your app.",
  },
  "nothing-entered": {
    status: 400,
    title: "Nothing entered",
    text: "The field was empty, so nothing was stored.",
    next: "Go back and enter a value, or open the link again.",
  },
  "not-saved": {
    status: 503,
    title: "Not saved",
    text: "What you gave could not be saved, and nothing was stored.",
    next: "Open the link from your app again to try again.",
  },
  "answer-refused": {
    status: 403,
    title: "Not accepted",
    text: "This answer cannot be used. Nothing was stored.",
    next: AGAIN,
  },
  "not-connected": {
    status: 502,
    title: "Not connected",
    text: "The service did not grant access. Nothing was stored.",
    next: AGAIN,
  },
  "sign-in-failed": {
    status: 403,
    title: "Sign-in failed",
    text: "The sign-in could not be verified.",
    next: AGAIN,
  },
  "nothing-here": {
    status: 404,
    title: "Not found",
    text: "There is nothing here.",
    next: "Check the address, or open the link from your app again.",
  },
  error: {
    status: 500,
    title: "Something went wrong",
    text: "The server could not complete this step.",
    next: `${AGAIN} If it keeps failing, tell whoever runs this server.`,
  },
  "wrong-host": {
    status: 421,
    title: "Wrong address",
    text: "This page is served only on this computer, at the address your app opened, and this request named another address. Nothing was shown or changed.",
    next: "Open the link your app gave you exactly as it is. If another site sent you here, close this tab.",
  },
  "other-browser": {
    status: 403,
    title: "Opened in another browser",
    text: "This link was already opened in another browser or tab, and only the page it opened there can be used. Nothing was changed.",
    next: "Go back to that page. If you did not open it, do not continue there: ask your app again for a new link.",
  },
  "too-large": {
    status: 413,
    title: "Too large",
    text: "What was sent is larger than this form takes, so none of it was read or stored.",
    next: "Go back and enter the key alone.",
  },
};

/** Reload the claimed page, since the link itself opens once (a second opening is "other-browser"). */
const LOCAL_AGAIN = "Go back to the page in this browser, reload it and try again, or ask your app for a new link.";

/**
 * Where a page of a server on the user's own machine says otherwise (no sign-in, and a link that
 * opens once, so "open the link again" would be refused as another browser).
 */
export const LOCAL_NOTICES: Readonly<Partial<Record<NoticeKind, Partial<Notice>>>> = {
  "not-found": {
    text: "This link is unknown or no longer valid here.",
    next: "Open the link your app gave you exactly as it is, or ask your app for a new one.",
  },
  "cross-site": { next: "If you meant to answer, go back to the page your app opened and send it from there." },
  "form-expired": { next: LOCAL_AGAIN },
  "nothing-entered": { next: "Go back and enter a value." },
  "not-saved": { next: LOCAL_AGAIN },
  "nothing-to-do": { next: "Return to your app." },
  error: { next: `${LOCAL_AGAIN} If it keeps failing, the server's log (its stderr) says why.` },
};
