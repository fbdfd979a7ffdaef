/**
 * `/connect/<id>`, the page a hand-off URL opens. Without a session it sends the browser to log in
 * at the MCP authorization server. Signed in, it names the account and asks before anything
 * happens: "Connect GitHub to alice@example.com?" for an OAuth grant, a form naming the account
 * for a secret, each with Decline beside it. Only a POST from this origin with the session's CSRF
 * token goes on, so neither a session planted by another site (cookie tossing) nor a login that an
 * SSO session made silent can link an account unseen, or decline for someone else.
 */
import type { StoredCredential, UserInteraction } from "../model/interaction.js";
import { type BrowserSession, endSession, type LoginDeps, readSession, startLogin } from "./login.js";
import { type Account, type FormSpec, notice, type PageFrame, redirect } from "./pages.js";
import { type ProviderFlowDeps, startGrant } from "./provider-flow.js";
import { readPurpose } from "./purpose.js";
import { isSameOriginPost } from "./same-origin.js";
import type { CookieSealer } from "./sealed-cookie.js";
import { type PageTheme, renderPage } from "./templates/index.js";

export interface ConnectPageDeps {
  login: LoginDeps;
  flow: ProviderFlowDeps;
  sealer: CookieSealer;
  now: () => number;
  /** How the pages look and whom they name as their server. */
  theme: PageTheme;
  /** The interaction when this browser's user may act on it, else the page that says why not. */
  open(id: string, session: BrowserSession): Promise<UserInteraction | Response>;
  /** Stores the credential for the session's user and completes the interaction. */
  store(id: string, session: BrowserSession, credential: StoredCredential): Promise<Response>;
  /** Ends the interaction as declined by the session's user; the page that says so, or why not. */
  decline(id: string, session: BrowserSession): Promise<Response>;
}

/** Interaction ids as the manager makes them; anything else is not worth a login. */
export const ID = /^[A-Za-z0-9_-]{16,64}$/;

/** What the pages of `interaction` show around their own part. */
export function frameOf(theme: PageTheme, interaction: UserInteraction | undefined, account?: Account): PageFrame {
  return { theme, account, message: interaction?.message, client: interaction?.clientName };
}

export function accountOf(session: BrowserSession): Account {
  return { name: session.name, subject: session.user.subject, issuer: session.user.issuer };
}

/** The "sign in as someone else" form, bound to the session only, so every page of it carries the same one. */
export async function switchForm(deps: Pick<ConnectPageDeps, "login" | "sealer">, session: BrowserSession) {
  return { csrf: deps.sealer.tag(`switch\n${session.sid}`), redirectsTo: [await authorizationOrigin(deps.login)] };
}

async function authorizationOrigin(login: LoginDeps): Promise<string> {
  const server = await login.servers.get(login.config);
  return new URL(server.as.authorization_endpoint ?? login.config.issuer).origin;
}

async function readForm(request: Request): Promise<Record<string, string>> {
  const form = await request.formData().catch(() => undefined);
  const fields: Record<string, string> = {};
  for (const name of ["action", "csrf", "secret"]) {
    const value = form?.get(name);
    if (typeof value === "string") fields[name] = value;
  }
  return fields;
}

export async function connectPage(deps: ConnectPageDeps, request: Request, id: string): Promise<Response> {
  const { login, sealer } = deps;
  const post = request.method === "POST";
  // Before anything else, so a cross-site post learns nothing, not even whether it is signed in.
  if (post && !isSameOriginPost(request, login.baseUrl.origin)) return notice("cross-site", { theme: deps.theme });
  const session = readSession(login, request);
  if (session === undefined) {
    if (post) return notice("sign-in-again", { theme: deps.theme });
    const started = await startLogin(login, id);
    return redirect(started.location, [started.cookie]);
  }
  const form = post ? await readForm(request) : {};
  const switching = await switchForm(deps, session);
  const signedIn: PageFrame = { theme: deps.theme, account: accountOf(session), switchAccount: switching };
  const formExpired = () => notice("form-expired", signedIn);
  if (post && form.action === "switch") {
    if (!sealer.verify(`switch\n${session.sid}`, form.csrf ?? "")) return formExpired();
    const started = await startLogin(login, id, { prompt: "login" });
    return redirect(started.location, [endSession(login), started.cookie]);
  }
  const interaction = await deps.open(id, session);
  if (interaction instanceof Response) return interaction;
  const account = accountOf(session);
  const frame = { ...frameOf(deps.theme, interaction, account), switchAccount: switching };
  const declineText = `decline\n${session.sid}\n${interaction.id}`;
  if (post && form.action === "decline") {
    if (!sealer.verify(declineText, form.csrf ?? "")) return formExpired();
    return deps.decline(interaction.id, session);
  }
  const purpose = readPurpose(interaction.purpose);
  if (purpose === undefined) return notice("nothing-to-do", frame);
  const decline: FormSpec = { csrf: sealer.tag(declineText) };

  if (purpose.kind === "secret") {
    const text = `secret\n${session.sid}\n${interaction.id}`;
    if (!post) {
      const { provider, label } = purpose;
      return renderPage({ kind: "secret", ...frame, provider, label, form: { csrf: sealer.tag(text) }, decline });
    }
    if (!sealer.verify(text, form.csrf ?? "")) return formExpired();
    const secret = form.secret;
    if (secret === undefined || secret === "") return notice("nothing-entered", frame);
    return deps.store(interaction.id, session, { provider: purpose.provider, secret, updatedAt: deps.now() });
  }

  const config = Object.hasOwn(deps.flow.providers, purpose.provider)
    ? deps.flow.providers[purpose.provider]
    : undefined;
  if (config === undefined) return notice("nothing-to-do", frame);
  const text = `connect\n${session.sid}\n${interaction.id}`;
  if (!post) {
    const server = await deps.flow.servers.get(config);
    const connect: FormSpec = {
      csrf: sealer.tag(text),
      redirectsTo: [new URL(server.as.authorization_endpoint ?? config.issuer).origin],
    };
    return renderPage({
      kind: "confirm",
      ...frame,
      provider: config.displayName ?? purpose.provider,
      form: connect,
      decline,
    });
  }
  if (form.action !== "connect" || !sealer.verify(text, form.csrf ?? "")) return formExpired();
  const location = await startGrant(deps.flow, {
    interactionId: interaction.id,
    user: session.user,
    provider: purpose.provider,
    scopes: purpose.scopes,
    expiresAt: interaction.expiresAt,
  });
  return redirect(location);
}
