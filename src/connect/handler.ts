/**
 * The connect pages: where a hand-off URL (`${baseUrl}/connect/<id>`) leads. The browser's user is
 * established by a login at the MCP authorization server and must be the interaction's user;
 * then, per the interaction's purpose, the user confirms the account being linked and grants
 * access at a third party (OAuth), or enters a secret in a form that names the account; the result
 * goes into the vault for that user, and the interaction completes. Nothing secret is written to a
 * page, a log or an error text.
 */

import { interactionRecord } from "../interaction/server/audit-records.js";
import { InteractionError, type InteractionManager } from "../interaction/server/index.js";
import { consoleLogger, type Logger } from "../jsonrpc/logger.js";
import { sameUser } from "../model/identity.js";
import type { StoredCredential, UserInteraction } from "../model/interaction.js";
import { auditScopes, auditTo } from "../stores/audit.js";
import { tracedGrantStates, tracedVault } from "../stores/traced.js";
import type { AuditEntry, AuditLog, CredentialVault } from "../stores/types.js";
import { Tracing, type TracingOption } from "../tracing/index.js";
import { accountOf, type ConnectPageDeps, connectPage, frameOf, ID, switchForm } from "./connect-page.js";
import { CONNECTIONS_PATH, type ConnectionsSource, connectionsPage } from "./connections-page.js";
import { INBOX_PATH, inboxPage } from "./inbox-page.js";
import { type BrowserSession, finishLogin, type LoginConfig, type LoginDeps, readSession } from "./login.js";
import { type AuthorizationServerConfig, isLoopback, OAuthServers } from "./oauth-server.js";
import { linkNotFound, notice, type PageFrame, redirect } from "./pages.js";
import { finishGrant, PROVIDER_NAME, type ProviderFlowDeps, redirectUriFor } from "./provider-flow.js";
import { CookieSealer, cookieScope } from "./sealed-cookie.js";
import { type GrantStateStore, MemoryGrantStateStore } from "./state-store.js";
import { completeWithCredential } from "./store-credential.js";
import { createPageTheme, type PageBranding, type PageServerInfo, type PageTheme } from "./templates/index.js";
import { tracedCallback, tracedPage } from "./traced-pages.js";

export interface ConnectHandlerOptions {
  /**
   * Reads the interactions and completes them: `complete` claims the interaction, runs the vault
   * write as its `commit`, and announces the completion only once the credential is stored;
   * `decline` ends one as declined when the user presses Decline; `openFor` lists a user's open
   * ones on the inbox page (`/connect/inbox`), which is served only when it is there.
   */
  manager: Pick<InteractionManager, "get" | "complete" | "decline"> & Partial<Pick<InteractionManager, "openFor">>;
  /**
   * The MCP server the pages speak for, as its `serverInfo` names it (the same object given to
   * `McpServer`): its `title` or `name` is on every page, and its first `data:` image icon beside
   * what it asks. Default "This server".
   */
  serverInfo?: PageServerInfo;
  /**
   * The operator's branding: `name` and `logo` (a `data:` image URI) at the top of every page,
   * `accentColor` (`#rrggbb`, at least 4.5:1 against white) for buttons, links and focus rings.
   */
  branding?: PageBranding;
  vault: CredentialVault;
  /**
   * Origin (and optional path prefix) the pages are served at, e.g. `https://mcp.example.com`:
   * https, or plain http on loopback for development. The cookies follow it (`__Host-` names at an
   * https origin's root, `__Secure-` under a path, plain names on http loopback).
   */
  baseUrl: string;
  /** The MCP authorization server, where the browser's user logs in (OpenID Connect). */
  login: LoginConfig;
  /**
   * Third-party authorization servers by provider name. Each has its own redirect URI,
   * `${baseUrl}/connect/callback/<provider>` (`redirectUriFor`), to register with that provider:
   * an answer that comes back to another provider's URI than the one its grant was started with
   * is refused before any token request (mix-up, RFC 9700 § 4.4.2). Names are 1-64 letters,
   * digits, `.`, `_` or `-`.
   */
  providers: Readonly<Record<string, AuthorizationServerConfig>>;
  /** At least 32 bytes; seals the session cookie and signs CSRF tokens. */
  cookieSecret: string | Uint8Array;
  /** Where third-party `state` values are kept; default in memory (one instance). */
  states?: GrantStateStore;
  /** ms a browser login lasts; default 3,600,000 (1 hour). */
  sessionMs?: number;
  /** ms since the epoch; default `Date.now`. */
  now?: () => number;
  /**
   * Told why a step failed (an authorization server refusing or unreachable, a store failing, a
   * page that threw), as `logger.error({ err }, message)`; the page itself says nothing specific.
   * The error is reduced to its name, message, code and stack (no `cause`, no attached answer), so
   * it carries no secret. A pino logger can be passed as it is; pass the MCP server's
   * `server.logger` to report where it does (stderr for a stdio server). Default: `consoleLogger()`.
   */
  logger?: Logger;
  /**
   * OpenTelemetry tracing (`docs/tracing.md`): a span for each page of an interaction, each
   * third-party answer and each vault write, in the trace of the request that created the
   * interaction, and a span for each call to the vault and the grant states. Default: the global
   * tracer provider when `@opentelemetry/api` is installed, else none; `false`: none. With `true`
   * or `{ tracer }` and the API missing, the pages answer with an error page and report
   * SdkError "DEPENDENCY_MISSING".
   */
  tracing?: TracingOption;
  /**
   * The connections `/connect/connections` lists and disconnects for the signed-in user (the
   * `CredentialBroker` of the MCP server); without it that page is not served (404).
   */
  connections?: ConnectionsSource;
  /**
   * Where the pages' steps are recorded (`docs/audit.md`): `handoff.opened` when the
   * interaction's user opens its page (`refused` when someone else signed in opens it, recorded
   * for the interaction's user), `grant.stored` with the provider and scopes when a credential is
   * stored (`failed` when the provider did not grant or the vault failed, `refused` for an answer
   * at another provider's redirect URI). Never a secret, a code or a token. A log that fails goes to
   * `logger`; the page goes on. The connections page shows the signed-in user their own recent
   * records from it (`forUser`, 20 of them).
   */
  audit?: AuditLog;
}

/**
 * The error's kind, message and code only: OAuth libraries attach the server's whole answer (a
 * token response with its tokens, request headers) as `cause` and further fields.
 */
function withoutDetails(error: unknown): Error {
  if (!(error instanceof Error)) return new Error("A value that is not an Error was thrown");
  const plain = new Error(error.message);
  plain.name = error.name;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string" || typeof code === "number") Object.assign(plain, { code });
  if (error.stack !== undefined) plain.stack = error.stack;
  return plain;
}

/** Tells the logger why a step failed, with the error reduced by `withoutDetails`. */
type Report = (message: string, error: unknown) => void;

function reporterOf(logger: Logger): Report {
  return (message, error) => {
    try {
      logger.error({ err: withoutDetails(error) }, message);
    } catch {
      // A logger that throws must not turn the page's answer into a second failure.
    }
  };
}

/** What every page of the handler reads: the options, resolved and checked once. */
interface ConnectSite {
  manager: ConnectHandlerOptions["manager"];
  vault: CredentialVault;
  providers: ConnectHandlerOptions["providers"];
  /** `baseUrl`, ending in `/`. */
  baseUrl: URL;
  /** The connect pages' path, `${baseUrl.pathname}connect/`. */
  prefix: string;
  /** The path of `login.redirectPath`, under `prefix`. */
  loginPath: string;
  login: LoginDeps;
  flow: ProviderFlowDeps;
  sealer: CookieSealer;
  theme: PageTheme;
  now: () => number;
  report: Report;
  tracing: Tracing;
  audit: (entry: AuditEntry) => Promise<void>;
  /** The log itself, where the connections page reads the signed-in user's own recent records. */
  auditLog: AuditLog | undefined;
  connections: ConnectionsSource | undefined;
}

/** @throws RangeError as `createConnectHandler` says. */
function siteOf(options: ConnectHandlerOptions): ConnectSite {
  const now = options.now ?? Date.now;
  const tracing = Tracing.from(options.tracing);
  const baseUrl = new URL(options.baseUrl.endsWith("/") ? options.baseUrl : `${options.baseUrl}/`);
  const prefix = `${baseUrl.pathname}connect/`;
  const servers = new OAuthServers();
  const sealer = new CookieSealer(options.cookieSecret);
  const theme = createPageTheme({
    ...(options.serverInfo === undefined ? {} : { server: options.serverInfo }),
    ...(options.branding === undefined ? {} : { branding: options.branding }),
  });
  const login: LoginDeps = {
    config: options.login,
    servers,
    sealer,
    baseUrl,
    cookies: cookieScope(baseUrl, isLoopback(baseUrl)),
    now,
    sessionMs: options.sessionMs ?? 3_600_000,
  };
  const logger = options.logger ?? consoleLogger();
  const report = reporterOf(logger);
  const flow: ProviderFlowDeps = {
    providers: options.providers,
    servers,
    states: tracedGrantStates(options.states ?? new MemoryGrantStateStore(now), tracing),
    baseUrl,
    now,
    report,
  };
  for (const name of Object.keys(options.providers)) redirectUriFor(baseUrl, name);
  const loginPath = new URL(options.login.redirectPath, baseUrl).pathname;
  if (!loginPath.startsWith(prefix)) {
    throw new RangeError(`login.redirectPath must lie under ${prefix}, where the login cookie is sent`);
  }
  const audit = auditTo(options.audit, logger);
  const { manager, providers } = options;
  const vault = tracedVault(options.vault, tracing);
  return {
    manager,
    vault,
    providers,
    baseUrl,
    prefix,
    loginPath,
    login,
    flow,
    sealer,
    theme,
    now,
    report,
    tracing,
    audit,
    auditLog: options.audit,
    connections: options.connections,
  };
}

/** A record about `interaction`, for its user, with its session and client. */
function record(
  site: ConnectSite,
  interaction: UserInteraction,
  event: AuditEntry["event"],
  outcome: AuditEntry["outcome"],
  extra: { provider?: string; detail?: AuditEntry["detail"] } = {},
): Promise<void> {
  return site.audit(interactionRecord(interaction, event, outcome, site.now(), extra));
}

/**
 * The interaction when this browser's user may act on it, else the page that says why not.
 * Another user's interaction gets the very page an unknown id gets, whatever its state.
 */
async function openInteraction(
  site: ConnectSite,
  id: string,
  session: BrowserSession,
): Promise<UserInteraction | Response> {
  const interaction = ID.test(id) ? await site.manager.get(id) : undefined;
  if (interaction === undefined || !sameUser(interaction.user, session.user)) {
    // Told to the interaction's user, who may want to know; the other user learns nothing.
    if (interaction !== undefined) {
      await record(site, interaction, "handoff.opened", "refused", { detail: { reason: "signed in as another user" } });
    }
    return linkNotFound(site.theme, { account: accountOf(session), switchForm: await switchForm(site, session) });
  }
  const frame = frameOf(site.theme, interaction, accountOf(session));
  if (interaction.status === "expired") return notice("expired", frame);
  if (interaction.status === "declined") return notice("declined", frame);
  if (interaction.status !== "pending" && interaction.status !== "accepted") return notice("used", frame);
  return interaction;
}

/** The page for the manager's refusal to complete or decline (its deadline passed, or it is over); other errors go on. */
function refusalPage(error: unknown, frame: PageFrame): Response {
  if (error instanceof InteractionError && error.code === "EXPIRED") return notice("expired", frame);
  if (error instanceof InteractionError) return notice("used", frame);
  throw error;
}

/**
 * Completes the interaction with what the user gave, if it is still open (exchanging a code or
 * reading a form takes time): the manager claims it, the vault write runs inside the claim, and
 * only then is the completion announced. Of two callbacks of one interaction only the one that
 * wins the claim writes; a claim made before the deadline stands. A failed write withdraws the
 * claim: the user gets a 503 page saying nothing was stored, the error is reported, and the link
 * stays open for another try.
 */
async function storeCredential(
  site: ConnectSite,
  id: string,
  session: BrowserSession,
  credential: StoredCredential,
): Promise<Response> {
  const interaction = await openInteraction(site, id, session);
  if (interaction instanceof Response) return interaction;
  const frame = frameOf(site.theme, interaction, accountOf(session));
  const scopes = credential.scopes === undefined ? {} : { scopes: auditScopes(credential.scopes) };
  try {
    const outcome = await completeWithCredential(
      site.manager,
      site.vault,
      interaction.id,
      session.user,
      credential,
      site.tracing,
      () => record(site, interaction, "grant.stored", "ok", { provider: credential.provider, detail: scopes }),
    );
    if (!outcome.stored) {
      site.report("Could not store the credential", outcome.error);
      await record(site, interaction, "grant.stored", "failed", {
        provider: credential.provider,
        detail: { ...scopes, reason: "the vault failed" },
      });
      return notice("not-saved", frame);
    }
  } catch (error) {
    return refusalPage(error, frame);
  }
  return notice("done", frame);
}

/** Ends the interaction as declined (the session's user pressed Decline); the waiting request hears of it. */
async function declineInteraction(site: ConnectSite, id: string, session: BrowserSession): Promise<Response> {
  const interaction = await openInteraction(site, id, session);
  if (interaction instanceof Response) return interaction;
  const frame = frameOf(site.theme, interaction, accountOf(session));
  try {
    await site.manager.decline(interaction.id, { user: session.user });
  } catch (error) {
    return refusalPage(error, frame);
  }
  return notice("declined", frame);
}

/**
 * `pageDeps` for one request: a GET that finds the interaction open for its user is the user
 * opening the hand-off, and is recorded (`handoff.opened`).
 */
function pageDepsFor(site: ConnectSite, pageDeps: ConnectPageDeps, request: Request): ConnectPageDeps {
  if (request.method !== "GET") return pageDeps;
  return {
    ...pageDeps,
    open: async (id, session) => {
      const opened = await pageDeps.open(id, session);
      if (!(opened instanceof Response)) await record(site, opened, "handoff.opened", "ok");
      return opened;
    },
  };
}

/** What `connectPage` needs, with this site's interactions. */
function pageDepsOf(site: ConnectSite): ConnectPageDeps {
  const { login, flow, sealer, now, theme } = site;
  return {
    login,
    flow,
    sealer,
    now,
    theme,
    open: (id, session) => openInteraction(site, id, session),
    store: (id, session, credential) => storeCredential(site, id, session, credential),
    decline: (id, session) => declineInteraction(site, id, session),
  };
}

/**
 * `GET /connect/callback/<provider>`: a third party's answer. Its `state` is taken (good for one
 * answer only), must be this session's user's and have been started with this provider; then
 * the code is exchanged and the credential stored.
 */
async function providerCallback(site: ConnectSite, request: Request, provider: string): Promise<Response> {
  const url = new URL(request.url);
  const state = url.searchParams.get("state");
  const refused = () => notice("answer-refused", { theme: site.theme });
  const session = readSession(site.login, request);
  if (state === null || session === undefined) return refused();
  // Taken even when refused below: a state is good for one answer only.
  const grant = await site.flow.states.take(state);
  if (grant === undefined || !sameUser(grant.user, session.user)) return refused();
  if (grant.provider !== provider) {
    // Mix-up (RFC 9700 § 4.4): the grant was started with one provider, and another answered.
    const started = await site.manager.get(grant.interactionId);
    if (started !== undefined) {
      await record(site, started, "grant.stored", "refused", {
        provider: grant.provider,
        detail: { reason: "answered at another provider's redirect URI" },
      });
    }
    site.report(
      "A third-party answer came back to another provider's redirect URI",
      new Error(
        `A grant started for ${JSON.stringify(grant.provider)} was answered at the redirect URI of ${JSON.stringify(provider)}`,
      ),
    );
    return refused();
  }
  return tracedCallback(
    site.tracing,
    (id) => site.manager.get(id),
    grant.interactionId,
    provider,
    async () => {
      const interaction = await openInteraction(site, grant.interactionId, session);
      if (interaction instanceof Response) return interaction;
      let credential: Awaited<ReturnType<typeof finishGrant>>;
      try {
        credential = await finishGrant(site.flow, grant, url, state);
      } catch (error) {
        site.report("The provider did not grant access", error);
        await record(site, interaction, "grant.stored", "failed", {
          provider,
          detail: { scopes: auditScopes(grant.scopes), reason: "the provider did not grant access" },
        });
        return notice("not-connected", frameOf(site.theme, interaction, accountOf(session)));
      }
      return storeCredential(site, interaction.id, session, credential);
    },
  );
}

/** `GET <login.redirectPath>`: the MCP authorization server's answer to a login; back to the page it started from. */
async function loginCallback(site: ConnectSite, request: Request): Promise<Response> {
  const finished = await finishLogin(site.login, request);
  if (finished === undefined) return notice("sign-in-failed", { theme: site.theme });
  return redirect(new URL(`connect/${finished.returnTo}`, site.baseUrl).href, finished.cookies);
}

/** `${prefix}callback`, served by earlier versions for every provider: refused, and the operator told what to register. */
function retiredCallback(site: ConnectSite): Response {
  const { prefix } = site;
  const advice = `register ${prefix}callback/<provider> with each provider instead of ${prefix}callback`;
  site.report(
    `A third-party answer came to ${prefix}callback, which is no longer served: ${advice}`,
    new Error(advice),
  );
  return notice("answer-refused", { theme: site.theme }, { status: 404 });
}

/** `GET /connect/inbox`: the signed-in user's open requests; nothing here when the manager cannot list them. */
function inbox(site: ConnectSite, request: Request): Promise<Response> {
  const { manager, login, theme, prefix, providers } = site;
  if (manager.openFor === undefined) return Promise.resolve(notice("nothing-here", { theme }));
  const openFor = manager.openFor.bind(manager);
  const providerName = (name: string) =>
    (Object.hasOwn(providers, name) ? providers[name]?.displayName : undefined) ?? name;
  return inboxPage({ login, theme, prefix, openFor, providerName }, request);
}

/** The page for `request`, by its path and method; a page that throws is reported and answered with a plain error page. */
async function route(site: ConnectSite, pageDeps: ConnectPageDeps, request: Request): Promise<Response> {
  const { prefix, theme } = site;
  const path = new URL(request.url).pathname;
  try {
    if (!site.tracing.settled) await site.tracing.ready();
    if (path === site.loginPath && request.method === "GET") return await loginCallback(site, request);
    if (path.startsWith(`${prefix}callback/`) && request.method === "GET") {
      const provider = path.slice(`${prefix}callback/`.length);
      if (PROVIDER_NAME.test(provider) && Object.hasOwn(site.providers, provider)) {
        return await providerCallback(site, request, provider);
      }
      return notice("nothing-here", { theme });
    }
    if (path === `${prefix}callback`) return retiredCallback(site);
    if (path === `${prefix}${CONNECTIONS_PATH}` && (request.method === "GET" || request.method === "POST")) {
      const source = site.connections;
      if (source === undefined) return notice("nothing-here", { theme });
      const { login, sealer, providers, auditLog: audit, report } = site;
      return await connectionsPage({ login, sealer, theme, source, providers, audit, report }, request);
    }
    if (path === `${prefix}${INBOX_PATH}`) return await inbox(site, request);
    if (path.startsWith(prefix) && (request.method === "GET" || request.method === "POST")) {
      const id = path.slice(prefix.length);
      // Only something shaped like an id is worth a login; it is also all the login may return to.
      if (!ID.test(id)) return linkNotFound(theme);
      return await tracedPage(
        site.tracing,
        (known) => site.manager.get(known),
        id,
        request.method,
        () => connectPage(pageDepsFor(site, pageDeps, request), request, id),
      );
    }
    return notice("nothing-here", { theme });
  } catch (error) {
    site.report("A connect page failed", error);
    // Error texts of OAuth libraries may quote server answers; the page says nothing specific.
    return notice("error", { theme });
  }
}

/**
 * A web-standard handler for `GET /connect/<id>`, `POST /connect/<id>` (the confirmation, the
 * secret form, "sign in as someone else"; only from `baseUrl`'s origin, by `Sec-Fetch-Site` and
 * `Origin`, else a `Referer`, and with the session's CSRF token), `GET
 * /connect/callback/<provider>` (third-party redirects), `GET /connect/inbox` (the signed-in user's
 * open requests, at `inboxUrlFor(baseUrl)`) and `GET <login.redirectPath>`; anything
 * else is 404. Every response has `Cache-Control: no-store`, a strict CSP and `X-Frame-Options:
 * DENY`. Under a `baseUrl` with a path (`https://host/app`) the pages and their cookies live at `/app/connect`.
 * A POST with `action=decline` (same checks, its own CSRF token) ends the interaction as declined.
 * With `connections`, `GET /connect/connections` lists the signed-in user's connections and a
 * `POST` there (same checks) disconnects one of them (`connections-page.ts`).
 * @throws RangeError when `baseUrl` is plain http elsewhere than loopback, `login.redirectPath` is
 *   not under the connect pages' path, a provider's name cannot be a path segment,
 *   `cookieSecret` is shorter than 32 bytes, or `branding` is invalid (see `createPageTheme`).
 */
export function createConnectHandler(options: ConnectHandlerOptions): (request: Request) => Promise<Response> {
  const site = siteOf(options);
  const pageDeps = pageDepsOf(site);
  return (request) => route(site, pageDeps, request);
}
