/**
 * `/connect/connections`: where a signed-in user sees the connections the server keeps for them
 * (provider, account, scopes, created, last used, expiry) and takes one back. Behind the same
 * login as the connect pages; a Disconnect is a POST from this origin with a CSRF token bound to
 * the browser's session and the provider, and it only ever acts for the session's own user.
 * With an audit log, the page also shows that user's own recent records.
 */
import { sameUser } from "../model/identity.js";
import type { AuditLog, AuditRecord } from "../stores/types.js";
import { accountOf, switchForm } from "./connect-page.js";
import type { Connection, DisconnectedBy, DisconnectResult } from "./connections.js";
import { type BrowserSession, endSession, type LoginDeps, readSession, startLogin } from "./login.js";
import type { AuthorizationServerConfig } from "./oauth-server.js";
import { notice, redirect } from "./pages.js";
import { isSameOriginPost } from "./same-origin.js";
import type { CookieSealer } from "./sealed-cookie.js";
import { type EntrySection, type PageEntry, type PageTheme, renderPage } from "./templates/index.js";

/** The page's path under the connect pages' prefix; also what the login returns to. */
export const CONNECTIONS_PATH = "connections";

/** What the connections page lists and takes back: `CredentialBroker` has both. */
export interface ConnectionsSource {
  connections(user: BrowserSession["user"]): Promise<Connection[]>;
  disconnect(user: BrowserSession["user"], provider: string, by?: DisconnectedBy): Promise<DisconnectResult>;
}

export interface ConnectionsPageDeps {
  login: LoginDeps;
  sealer: CookieSealer;
  theme: PageTheme;
  source: ConnectionsSource;
  providers: Readonly<Record<string, AuthorizationServerConfig>>;
  audit?: AuditLog | undefined;
  /** Told why the audit log or the source failed; the page then says so without detail. */
  report(message: string, error: unknown): void;
}

const AUDIT_ROWS = 20;

const disconnectText = (session: BrowserSession, provider: string) => `disconnect\n${session.sid}\n${provider}`;

/** A time as the page shows it: `2026-12-03 08:40 UTC`. */
export function shownTime(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

async function readForm(request: Request): Promise<Record<string, string>> {
  const form = await request.formData().catch(() => undefined);
  const fields: Record<string, string> = {};
  for (const name of ["action", "csrf", "provider"]) {
    const value = form?.get(name);
    if (typeof value === "string") fields[name] = value;
  }
  return fields;
}

/** `GET` lists, `POST action=disconnect` takes one back, `POST action=switch` signs in as someone else. */
export async function connectionsPage(deps: ConnectionsPageDeps, request: Request): Promise<Response> {
  const { login, sealer, theme } = deps;
  const post = request.method === "POST";
  // Before anything else, so a cross-site post learns nothing, not even whether it is signed in.
  if (post && !isSameOriginPost(request, login.baseUrl.origin)) return notice("cross-site", { theme });
  const session = readSession(login, request);
  if (session === undefined) {
    if (post) return notice("sign-in-again", { theme });
    const started = await startLogin(login, CONNECTIONS_PATH);
    return redirect(started.location, [started.cookie]);
  }
  const switching = await switchForm(deps, session);
  const signedIn = { theme, account: accountOf(session), switchAccount: switching };
  if (!post) return listPage(deps, session, []);
  const form = await readForm(request);
  if (form.action === "switch") {
    if (!sealer.verify(`switch\n${session.sid}`, form.csrf ?? "")) return notice("form-expired", signedIn);
    const started = await startLogin(login, CONNECTIONS_PATH, { prompt: "login" });
    return redirect(started.location, [endSession(login), started.cookie]);
  }
  const provider = form.provider ?? "";
  // Any name a token was made for: a typed secret's provider may be any non-empty string.
  if (form.action !== "disconnect" || provider === "") return notice("form-expired", signedIn);
  if (!sealer.verify(disconnectText(session, provider), form.csrf ?? "")) return notice("form-expired", signedIn);
  // Always the session's own user: a provider name is all the form can choose.
  const result = await deps.source.disconnect(session.user, provider);
  return listPage(deps, session, [outcomeText(providerName(deps, provider), result)]);
}

function providerName(deps: Pick<ConnectionsPageDeps, "providers">, provider: string): string {
  const config = Object.hasOwn(deps.providers, provider) ? deps.providers[provider] : undefined;
  return config?.displayName ?? provider;
}

/** What the page says after a Disconnect, in the user's terms. */
export function outcomeText(name: string, result: DisconnectResult): string {
  switch (result.upstream) {
    case "revoked":
      return `Disconnected ${name}: ${name} revoked the access, and this server deleted its copy.`;
    case "unsupported":
      return `Disconnected ${name}: this server deleted its copy. ${name} offers no way to revoke it from here; to end the access there too, remove it in your ${name} account settings.`;
    case "failed":
      return `Disconnected ${name} here: this server deleted its copy, but ${name} did not confirm that it revoked the access. Remove it in your ${name} account settings too.`;
    default:
      return `Nothing to disconnect: no connection to ${name} is stored for you.`;
  }
}

async function listPage(deps: ConnectionsPageDeps, session: BrowserSession, lead: string[]): Promise<Response> {
  const { theme, sealer } = deps;
  const sections: EntrySection[] = [];
  let connections: Connection[] | undefined;
  try {
    connections = await deps.source.connections(session.user);
  } catch (error) {
    deps.report("Could not list the user's connections", error);
  }
  sections.push({
    heading: "Connected accounts",
    empty:
      connections === undefined
        ? "Your connections cannot be shown right now. Try again later."
        : "You have no connections. A tool that needs one will ask you to connect.",
    entries: (connections ?? []).map((connection) =>
      entryOf(deps, connection, { csrf: sealer.tag(disconnectText(session, connection.provider)) }),
    ),
  });
  if (deps.audit !== undefined) sections.push(await auditSection(deps, deps.audit, session));
  return renderPage({
    kind: "entries",
    theme,
    title: "Your connections",
    lead,
    sections,
    account: accountOf(session),
    switchAccount: await switchForm(deps, session),
  });
}

function entryOf(deps: ConnectionsPageDeps, connection: Connection, form: { csrf: string }): PageEntry {
  const name = providerName(deps, connection.provider);
  const facts: [string, string][] = [
    ["Account", connection.account ?? "(not known)"],
    ["Scopes", connection.scopes.length === 0 ? "(none recorded)" : connection.scopes.join(" ")],
    ["Connected", connection.createdAt === undefined ? "(not known)" : shownTime(connection.createdAt)],
    ["Last used", connection.lastUsedAt === undefined ? "never" : shownTime(connection.lastUsedAt)],
  ];
  if (connection.expiresAt !== undefined) facts.push(["Access expires", shownTime(connection.expiresAt)]);
  return {
    heading: name,
    facts,
    button: { label: `Disconnect ${name}`, form, fields: { action: "disconnect", provider: connection.provider } },
  };
}

async function auditSection(deps: ConnectionsPageDeps, audit: AuditLog, session: BrowserSession) {
  let records: AuditRecord[] | undefined;
  try {
    // Filtered again here: whatever the log returns, a page shows its own user's records only.
    records = (await audit.forUser(session.user, { limit: AUDIT_ROWS })).filter((record) =>
      sameUser(record.user, session.user),
    );
  } catch (error) {
    deps.report("Could not read the user's audit records", error);
  }
  return {
    heading: "Recent activity",
    empty: records === undefined ? "Your recent activity cannot be shown right now." : "No activity recorded yet.",
    table: {
      columns: ["Time", "Event", "Provider", "Outcome", "Client"],
      rows: (records ?? []).map((record) => [
        shownTime(record.at),
        record.event,
        record.provider ?? "",
        record.outcome,
        record.client?.name ?? "",
      ]),
    },
  } satisfies EntrySection;
}
