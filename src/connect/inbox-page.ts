/**
 * `/connect/inbox`, the fixed page of the hand-off ladder's last rung: a client that can open no
 * page gets this one URL in a tool's error text, the same for every request, holding no id and no
 * token. Behind the same login as the connect pages, it lists the signed-in user's open requests
 * (what is asked, the server, the client as it names itself, when) and links each to its own
 * connect page, `/connect/<id>`, which checks the same user again before anything happens (a
 * request for a page of the server's own, to that page). It lists nobody else's: the list is
 * read for the session's issuer and subject only.
 */
import type { UserInteraction } from "../model/interaction.js";
import { type BrowserSession, type LoginDeps, readSession, startLogin } from "./login.js";
import { notice, redirect } from "./pages.js";
import { readPurpose, secretName } from "./purpose.js";
import { escapeHtml, type PageTheme } from "./templates/index.js";
import { styleHash } from "./templates/style.js";

/** The path segment of the inbox under the connect pages' prefix. */
export const INBOX_PATH = "inbox";

/** At most this many requests are listed, newest first. */
const LISTED = 50;

/**
 * The inbox URL of a connect handler served at `baseUrl` (as given to `createConnectHandler`):
 * `${baseUrl}/connect/inbox`. Give it to McpServer as `handoffs: { inbox: { url } }`.
 * @throws TypeError for a `baseUrl` that is not an absolute URL.
 */
export function inboxUrlFor(baseUrl: string): string {
  const base = new URL(baseUrl.endsWith("/") ? baseUrl : `${baseUrl}/`);
  return new URL(`connect/${INBOX_PATH}`, base).href;
}

export interface InboxDeps {
  login: LoginDeps;
  theme: PageTheme;
  /** The connect pages' path, ending in `/`: each request links to `${prefix}<id>`. */
  prefix: string;
  /** A provider's name as the pages show it (its `displayName`), e.g. "GitHub" for `github`. */
  providerName(provider: string): string;
  /** The user's open interactions, newest first (`InteractionManager.openFor`). */
  openFor(user: BrowserSession["user"], options: { limit: number }): Promise<UserInteraction[]>;
}

/** The inbox's own few rules, beside the connect pages' stylesheet; allowed by their hash. */
const INBOX_CSS =
  ".inbox{list-style:none;margin:0 0 1rem;padding:0}.inbox li{margin:0 0 1rem}.inbox h2{font-size:1.125rem;margin:0 0 .5rem}.inbox dl{margin:.5rem 0;padding:.5rem 0 0}a.open{display:inline-block;font-weight:600;padding:.5rem 1.25rem;border-radius:8px;background:var(--accent);color:#fff;text-decoration:none}";
const INBOX_STYLE = styleHash(INBOX_CSS);

/** What an interaction asks, in a few words, from its purpose: "Connect GitHub", "Save your weather API key". */
function askedFor(deps: InboxDeps, interaction: UserInteraction): string | undefined {
  const purpose = readPurpose(interaction.purpose);
  if (purpose?.kind === "oauth") return `Connect ${deps.providerName(purpose.provider)}`;
  if (purpose?.kind === "secret") return `Save your ${secretName(purpose.provider, purpose.label)}`;
  return undefined;
}

/** ms since the epoch as the page shows it: `2026-12-03 08:40 UTC`. */
function shownTime(at: number): string {
  const iso = new Date(at).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

/**
 * Where a request is answered: a connect request (a grant, a secret) on its connect page, which
 * checks the user again; any other (`ctx.interact` with a page of the server's own, such as a
 * checkout) on that page, its `url`, the one the client would have opened on a higher rung.
 */
function pageOf(deps: InboxDeps, interaction: UserInteraction): string {
  return readPurpose(interaction.purpose) === undefined ? interaction.url : `${deps.prefix}${interaction.id}`;
}

function itemHtml(deps: InboxDeps, interaction: UserInteraction): string {
  const title = askedFor(deps, interaction);
  const rows = [
    `<dt>Asked</dt><dd><time datetime="${new Date(interaction.createdAt).toISOString()}">${shownTime(interaction.createdAt)}</time></dd>`,
  ];
  if (interaction.clientName !== undefined && interaction.clientName !== "") {
    rows.unshift(
      `<dt>Requested by</dt><dd>“${escapeHtml(interaction.clientName)}” <span class="note">(as the client names itself)</span></dd>`,
    );
  }
  const heading = title === undefined ? "" : `<h2>${escapeHtml(title)}</h2>`;
  return `<li><section class="ask" aria-label="A request waiting for you">${heading}<p class="server"><span>${escapeHtml(deps.theme.serverName)} asks:</span></p><p>${escapeHtml(interaction.message)}</p>
<dl>${rows.join("")}</dl>
<a class="open" href="${escapeHtml(pageOf(deps, interaction))}">Open this request</a></section></li>`;
}

function inboxHtml(deps: InboxDeps, session: BrowserSession, open: readonly UserInteraction[]): string {
  const { theme } = deps;
  const logo = theme.logo ?? theme.serverIcon;
  const image = logo === undefined ? "" : `<img src="${escapeHtml(logo)}" alt="">`;
  const account = `<strong>${escapeHtml(session.name)}</strong> <span class="note">(account ${escapeHtml(JSON.stringify(session.user.subject))} at ${escapeHtml(session.user.issuer)})</span>`;
  const list =
    open.length === 0
      ? "<p>Nothing is waiting for you. When an app tells you to come here, ask it again first if this stays empty.</p>"
      : `<p>Open a request to see what it asks and to answer it. Afterwards, ask your app again.</p>
<ul class="inbox">${open.map((interaction) => itemHtml(deps, interaction)).join("\n")}</ul>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Requests waiting for you · ${escapeHtml(theme.brandName)}</title><style>${theme.css}</style><style>${INBOX_CSS}</style></head><body>
<header class="brand">${image}<span>${escapeHtml(theme.brandName)}</span></header>
<main>
<h1>Requests waiting for you</h1>
<dl><dt>Account</dt><dd>${account}</dd></dl>
${list}
<p class="note">Only requests made for this account are listed. If this is not your account, close this page.</p>
</main>
<footer>Served by ${escapeHtml(theme.serverName)}. This page loads nothing from elsewhere and runs no script.</footer>
</body></html>`;
}

/**
 * `GET /connect/inbox`: without a session, to the login (which comes back here); signed in, the
 * user's open requests. Never cached, never framed; the page runs no script and posts nothing.
 */
export async function inboxPage(deps: InboxDeps, request: Request): Promise<Response> {
  if (request.method !== "GET") return notice("nothing-here", { theme: deps.theme }, { status: 405 });
  const session = readSession(deps.login, request);
  if (session === undefined) {
    const started = await startLogin(deps.login, INBOX_PATH);
    return redirect(started.location, [started.cookie]);
  }
  const open = await deps.openFor(session.user, { limit: LISTED });
  const { theme } = deps;
  const images = theme.logo !== undefined || theme.serverIcon !== undefined ? "; img-src data:" : "";
  return new Response(inboxHtml(deps, session, open), {
    status: 200,
    headers: {
      "Cache-Control": "no-store",
      "Content-Security-Policy": `default-src 'none'; style-src ${theme.styleSource} ${INBOX_STYLE}${images}; form-action 'none'; frame-ancestors 'none'; base-uri 'none'`,
      "X-Frame-Options": "DENY",
      "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "same-origin",
      "Content-Type": "text/html; charset=utf-8",
    },
  });
}
