/**
 * `renderPage`: every page the connect handlers serve, from one layout. The page names who serves
 * it (the operator's brand, the MCP server's name and icon), what is asked and why, the account it
 * is bound to, the client that asked (as it names itself, marked so), what happens to the secret,
 * and offers Decline; a page that only tells what happened says what to do next. Every text given
 * is escaped; the page loads nothing, runs no script, and carries its own CSP.
 */
import { secretName } from "../purpose.js";
import { escapeHtml } from "./escape.js";
import { LOCAL_NOTICES, NOTICES, type Notice, type NoticeKind } from "./notices.js";
import type { PageTheme } from "./theme.js";

/** Who the page says it is bound to: the signed-in account (`subject` and `issuer` when known). */
export interface PageAccount {
  name: string;
  subject?: string;
  issuer?: string;
}

/**
 * A form of a page, posted back to the page's own URL with `csrf` as its token. `redirectsTo` lists
 * the origins its answer may redirect to, which the page's CSP (`form-action`) must allow.
 */
export interface PageForm {
  csrf: string;
  redirectsTo?: readonly string[];
}

/** What every page may show. */
export interface PageCommon {
  theme: PageTheme;
  /** What is asked and why: the interaction's message (plain text). */
  message?: string | undefined;
  account?: PageAccount | undefined;
  /**
   * Served by a server on the user's own machine, with no sign-in (`startLocalConnect`): the page
   * names this computer's server where a hosted one names the account, says the secret stays on
   * this computer, and gives the advice that fits a link that opens once.
   */
  local?: boolean | undefined;
  /** The requesting client's self-declared name; shown marked as the client's own naming. */
  client?: string | undefined;
  /** The "Sign in as someone else" form (`action=switch`). */
  switchAccount?: PageForm | undefined;
  /**
   * The Decline form (`action=decline`): ends the interaction as declined. Shown on the question
   * pages (`secret`, `confirm`).
   */
  decline?: PageForm | undefined;
  /** `Set-Cookie` values to send with the page. */
  cookies?: readonly string[];
  /** Overrides the kind's HTTP status. */
  status?: number;
}

/** The page that asks for a secret (`kind: "secret"`): a `type=password` field named `secret`. */
export interface SecretPage extends PageCommon {
  kind: "secret";
  /** Who the secret is for, e.g. "forecast". */
  provider: string;
  /** The field's label, e.g. "API key". */
  label: string;
  /** The save form. */
  form: PageForm;
}

/** The question asked before leaving for a third party (`kind: "confirm"`, `action=connect`). */
export interface ConfirmPage extends PageCommon {
  kind: "confirm";
  /** The third party's display name, e.g. "GitHub". */
  provider: string;
  form: PageForm;
}

/** A page that tells what happened (done, declined, expired, used, refused, failed). */
export interface NoticePage extends PageCommon {
  kind: NoticeKind;
}

/** A button of an entry: posts `fields` and the form's CSRF token back to the page's own URL. */
export interface EntryButton {
  label: string;
  form: PageForm;
  /** Hidden fields beside `csrf`, e.g. `{ action: "disconnect", provider: "github" }`. */
  fields: Readonly<Record<string, string>>;
}

/** One entry of a list: a heading, its facts (label, value) and at most one button. */
export interface PageEntry {
  heading: string;
  facts: readonly (readonly [string, string])[];
  button?: EntryButton;
}

/** A list of a page: its entries, or a table of plain-text cells. */
export interface EntrySection {
  heading: string;
  /** Shown instead when the section has nothing. */
  empty: string;
  entries?: readonly PageEntry[];
  table?: { columns: readonly string[]; rows: readonly (readonly string[])[] };
}

/**
 * A page of lists (`kind: "entries"`), such as the connections page: `lead` paragraphs first (the
 * outcome of what the user just did), then each section. Every text is escaped.
 */
export interface EntriesPage extends PageCommon {
  kind: "entries";
  title: string;
  lead?: readonly string[];
  sections: readonly EntrySection[];
}

export type PageSpec = SecretPage | ConfirmPage | NoticePage | EntriesPage;

function securityHeaders(theme: PageTheme, formTargets: readonly string[], images: boolean): Record<string, string> {
  const formAction = ["'self'", ...new Set(formTargets)].join(" ");
  // `img-src data:` only on a page that shows a data: image: it can fetch nothing, and nothing runs.
  const img = images ? "; img-src data:" : "";
  return {
    "Cache-Control": "no-store",
    "Content-Security-Policy": `default-src 'none'; style-src ${theme.styleSource}${img}; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    // Not `no-referrer`: a browser then sends `Origin: null` with the pages' own form posts, which
    // the same-origin check needs. Other sites still get no Referer (the URL holds the link's id).
    "Referrer-Policy": "same-origin",
    "Content-Type": "text/html; charset=utf-8",
  };
}

const image = (src: string) => `<img src="${escapeHtml(src)}" alt="">`;

function hiddenCsrf(form: PageForm): string {
  return `<input type="hidden" name="csrf" value="${escapeHtml(form.csrf)}">`;
}

function askHtml(spec: PageSpec): string {
  const { theme } = spec;
  const icon = theme.serverIcon === undefined ? "" : image(theme.serverIcon);
  // A question page asks now; every other page reports on what was asked.
  const verb = spec.kind === "secret" || spec.kind === "confirm" ? "asks" : "asked";
  const who = `<p class="server">${icon}<span>${escapeHtml(theme.serverName)} ${verb}:</span></p>`;
  if (spec.message === undefined || spec.message === "") return "";
  return `<section class="ask" aria-label="What is asked">${who}<p>${escapeHtml(spec.message)}</p></section>`;
}

function accountText(account: PageAccount): string {
  const detail =
    account.subject === undefined
      ? ""
      : ` <span class="note">(account ${escapeHtml(JSON.stringify(account.subject))}${account.issuer === undefined ? "" : ` at ${escapeHtml(account.issuer)}`})</span>`;
  return `<strong>${escapeHtml(account.name)}</strong>${detail}`;
}

const ON_THIS_COMPUTER = "Kept by the server running on this computer, and never shown to your app or to its AI model.";

function entryHtml(entry: PageEntry): string {
  const facts = entry.facts.map(([label, value]) => `<dt>${escapeHtml(label)}</dt><dd>${escapeHtml(value)}</dd>`);
  const button = entry.button;
  const form =
    button === undefined
      ? ""
      : `<form method="post">${hiddenCsrf(button.form)}${Object.entries(button.fields)
          .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
          .join("")}<button type="submit" class="secondary">${escapeHtml(button.label)}</button></form>`;
  return `<li class="entry"><h3>${escapeHtml(entry.heading)}</h3>${facts.length === 0 ? "" : `<dl>${facts.join("")}</dl>`}${form}</li>`;
}

function sectionHtml(section: EntrySection): string {
  const entries = section.entries ?? [];
  const rows = section.table?.rows ?? [];
  let body: string;
  if (entries.length === 0 && rows.length === 0) body = `<p class="note">${escapeHtml(section.empty)}</p>`;
  else if (section.table !== undefined && rows.length > 0) {
    const head = section.table.columns.map((column) => `<th scope="col">${escapeHtml(column)}</th>`).join("");
    const cells = rows.map((row) => `<tr>${row.map((cell) => `<td>${escapeHtml(cell)}</td>`).join("")}</tr>`);
    // Scrolls sideways on a narrow screen, so it takes the focus to be scrolled by keyboard.
    body = `<div class="table" tabindex="0" role="region" aria-label="${escapeHtml(section.heading)}"><table><thead><tr>${head}</tr></thead><tbody>${cells.join("")}</tbody></table></div>`;
  } else body = `<ul class="entries">${entries.map(entryHtml).join("")}</ul>`;
  return `<section><h2>${escapeHtml(section.heading)}</h2>${body}</section>`;
}

function secretFate(spec: PageSpec): string | undefined {
  if (spec.local === true && (spec.kind === "secret" || spec.kind === "done")) return ON_THIS_COMPUTER;
  switch (spec.kind) {
    case "secret":
      return "Stored encrypted on this server for this account, and used only by it. It is never shown to the app or to its AI model.";
    case "confirm":
      return `The access you allow at ${escapeHtml(spec.provider)} is stored encrypted on this server for this account. It is never shown to the app or to its AI model.`;
    case "done":
      return "Stored encrypted on this server. It is never shown to the app or to its AI model.";
    case "declined":
      return "Nothing was stored.";
    default:
      return undefined;
  }
}

function factsHtml(spec: PageSpec): string {
  const rows: string[] = [];
  if (spec.account !== undefined) rows.push(`<dt>Account</dt><dd>${accountText(spec.account)}</dd>`);
  else if (spec.local === true && spec.message !== undefined) {
    rows.push(
      '<dt>Server</dt><dd><strong>The server running on this computer</strong> <span class="note">(no account and no sign-in: this link opens only in the first browser that follows it)</span></dd>',
    );
  }
  if (spec.client !== undefined && spec.client !== "") {
    rows.push(
      `<dt>Requested by</dt><dd>“${escapeHtml(spec.client)}” <span class="note">(as the client names itself)</span></dd>`,
    );
  }
  const fate = secretFate(spec);
  if (fate !== undefined) rows.push(`<dt>${spec.kind === "confirm" ? "Access" : "Your secret"}</dt><dd>${fate}</dd>`);
  return rows.length === 0 ? "" : `<dl>${rows.join("")}</dl>`;
}

function switchHtml(spec: PageSpec): string {
  if (spec.switchAccount === undefined) return "";
  return `<p class="note">Not your account? Do not continue: sign in as yourself, or close this page.</p>
<form method="post">${hiddenCsrf(spec.switchAccount)}<button type="submit" class="link" name="action" value="switch">Sign in as someone else</button></form>`;
}

function declineHtml(spec: PageSpec): string {
  if (spec.decline === undefined) return "";
  return `<form method="post">${hiddenCsrf(spec.decline)}<button type="submit" class="secondary" name="action" value="decline">Decline</button></form>`;
}

/** The heading and the page's own part: its form, or what happened and what to do now. */
function mainHtml(spec: PageSpec): { title: string; body: string } {
  if (spec.kind === "secret") {
    const account = spec.account === undefined ? "" : ` for ${spec.account.name}`;
    const name = secretName(spec.provider, spec.label);
    return {
      title: `Save your ${name}${account}`,
      // Save sits beside Decline, outside its form (the `form` attribute ties it back), so that
      // declining never posts a key typed into the field.
      body: `<form method="post" id="save">${hiddenCsrf(spec.form)}<label for="secret">${escapeHtml(name)}</label><input type="password" id="secret" name="secret" autocomplete="off" required></form>
<div class="actions"><button type="submit" form="save" class="primary">Save</button>
${declineHtml(spec)}</div>`,
    };
  }
  if (spec.kind === "confirm") {
    const account = spec.account === undefined ? "" : ` to ${spec.account.name}`;
    return {
      title: `Connect ${spec.provider}${account}?`,
      body: `<p>Continuing takes you to ${escapeHtml(spec.provider)}, where you choose what to allow.</p>
<div class="actions"><form method="post">${hiddenCsrf(spec.form)}<button type="submit" class="primary" name="action" value="connect">Connect ${escapeHtml(spec.provider)}</button></form>
${declineHtml(spec)}</div>`,
    };
  }
  if (spec.kind === "entries") {
    const lead = (spec.lead ?? []).map((text) => `<p class="outcome" role="status">${escapeHtml(text)}</p>`);
    return { title: spec.title, body: [...lead, ...spec.sections.map(sectionHtml)].join("\n") };
  }
  const notice: Notice = { ...NOTICES[spec.kind], ...(spec.local === true ? LOCAL_NOTICES[spec.kind] : {}) };
  return { title: notice.title, body: `<p>${escapeHtml(notice.text)}</p>\n<p>${escapeHtml(notice.next)}</p>` };
}

function formTargets(spec: PageSpec): string[] {
  const entries = spec.kind === "entries" ? spec.sections.flatMap((section) => section.entries ?? []) : [];
  const forms = [
    spec.switchAccount,
    spec.decline,
    "form" in spec ? spec.form : undefined,
    ...entries.map((entry) => entry.button?.form),
  ];
  return forms.flatMap((form) => form?.redirectsTo ?? []);
}

/**
 * The page for `spec` as a `Response`: HTML with `Cache-Control: no-store`, a CSP of
 * `default-src 'none'` plus the theme's style hash (and `img-src data:` when it shows an image),
 * `X-Frame-Options: DENY`. Status: the kind's (200 for questions, done and declined; 403, 404,
 * 409, 410, 5xx for the others), or `spec.status`.
 */
export function renderPage(spec: PageSpec): Response {
  const { theme } = spec;
  const { title, body } = mainHtml(spec);
  // A question shows what is asked before its form; any other page first says what happened.
  const question = spec.kind === "secret" || spec.kind === "confirm";
  const logo = theme.logo ?? theme.serverIcon;
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)} · ${escapeHtml(theme.brandName)}</title><style>${theme.css}</style></head><body>
<header class="brand">${logo === undefined ? "" : image(logo)}<span>${escapeHtml(theme.brandName)}</span></header>
<main>
<h1>${escapeHtml(title)}</h1>
${question ? `${askHtml(spec)}\n${body}` : `${body}\n${askHtml(spec)}`}
${factsHtml(spec)}
${switchHtml(spec)}
</main>
<footer>Served by ${escapeHtml(theme.serverName)}. This page loads nothing from elsewhere and runs no script.</footer>
</body></html>`;
  const images =
    logo !== undefined || (spec.message !== undefined && spec.message !== "" && theme.serverIcon !== undefined);
  const status =
    spec.status ?? ("form" in spec || spec.kind === "entries" ? 200 : NOTICES[spec.kind as NoticeKind].status);
  const headers = new Headers(securityHeaders(theme, formTargets(spec), images));
  for (const cookie of spec.cookies ?? []) headers.append("Set-Cookie", cookie);
  return new Response(html, { status, headers });
}
