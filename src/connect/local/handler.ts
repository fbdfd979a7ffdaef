/**
 * The connect pages of a server on the user's own machine, where no login can say who the browser
 * is. A hand-off link `http://127.0.0.1:<port>/connect/<id>?token=<token>` is bound to one
 * interaction, and so to its MCP session, by the token in that interaction's `url`. The first
 * browser that opens it claims it: it gets a cookie (random, kept here only as a digest) and is sent
 * on to `/connect/<id>/<page>`, without the token, where `<page>` is random too and the cookie's
 * path: browsers do not keep cookies apart by port, so another server on 127.0.0.1 that knows the
 * interaction id still never receives the cookie. Every later request must carry that cookie at
 * that path, so the token opens the page once, and a second browser, or another process that
 * learnt the link, is refused. Once the interaction is completed, declined or expired, nothing
 * more is stored through it. Only loopback `Host` names with the pages' port are answered (DNS
 * rebinding), and a POST (Save, or Decline) must come from the page's own origin and carry its own
 * CSRF token. Every page renders through the connect pages' templates.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { interactionRecord } from "../../interaction/server/audit-records.js";
import { InteractionError, type InteractionManager } from "../../interaction/server/index.js";
import { type Logger, stderrLogger } from "../../jsonrpc/logger.js";
import type { UserInteraction } from "../../model/interaction.js";
import { auditTo } from "../../stores/audit.js";
import type { AuditLog, CredentialVault } from "../../stores/types.js";
import { ID } from "../connect-page.js";
import { redirect } from "../pages.js";
import { readPurpose } from "../purpose.js";
import { isSameOriginPost } from "../same-origin.js";
import { CookieSealer, cookieHeader, readCookie } from "../sealed-cookie.js";
import { completeWithCredential } from "../store-credential.js";
import { createPageTheme, type PageBranding, type PageServerInfo } from "../templates/index.js";
import { TOKEN_PARAM } from "./credentials.js";
import { declaresTooLarge, readLocalForm } from "./form.js";
import { isLoopbackHost, requestHost } from "./host.js";
import { localFrame, localNotice, localSecretForm } from "./pages.js";

export interface LocalConnectHandlerOptions {
  /**
   * Reads the interactions, completes them (the vault write runs inside the claim) and declines
   * them when the user presses Decline.
   */
  manager: Pick<InteractionManager, "get" | "complete" | "decline">;
  vault: CredentialVault;
  /** The port the pages are served at: a `Host` must name it. */
  port: number;
  /** ms since the epoch; default `Date.now`. Give the manager the same clock. */
  now?: () => number;
  /**
   * The MCP server the pages speak for, as its `serverInfo` names it (the object given to
   * `McpServer`): its `title` or `name` is on every page. Default "This server".
   */
  serverInfo?: PageServerInfo;
  /** The operator's branding (name, `data:` logo, accent colour): see `createPageTheme`. */
  branding?: PageBranding;
  /**
   * Told why a step failed (the store or the vault, a page that threw), as
   * `logger.error({ err }, message)`; the page itself says nothing specific, and no secret is
   * logged. A pino logger can be passed as it is. Default `stderrLogger()`: a local server is
   * usually a stdio one, whose stdout carries JSON-RPC.
   */
  logger?: Logger;
  /**
   * Where the pages' steps are recorded (`docs/audit.md`): `handoff.opened` when the browser that
   * claimed the link opens its form, `grant.stored` (or `failed`) when the secret is saved. Never
   * the secret or the link's token. A log that fails goes to `logger`; the page goes on.
   */
  audit?: AuditLog;
}

const CLAIM_COOKIE = "handoff-claim";
/** ms a claim is kept after its interaction's deadline: 600,000 (10 minutes), as the manager keeps expired interactions. */
const KEEP_CLAIM_MS = 600_000;
/** The random last segment of a claimed page's path (128 bits, base64url). */
const PAGE = /^[A-Za-z0-9_-]{22}$/;

interface Claim {
  /** `/connect/<id>/<page>`, where the claimed page lives and the cookie's path. */
  path: string;
  /** SHA-256 of the cookie value. */
  digest: Buffer;
  /** The cookie value, to bind the form's CSRF token; never written anywhere but that cookie. */
  value: string;
  expiresAt: number;
}

const digestOf = (text: string) => createHash("sha256").update(text, "utf8").digest();

/** Constant-time equality of two texts (by their digests, so lengths leak nothing either). */
function sameText(a: string, b: string): boolean {
  return timingSafeEqual(digestOf(a), digestOf(b));
}

/** The token of a local link, when the interaction's URL is one of this page's. */
function tokenOf(interaction: UserInteraction): string | undefined {
  if (!URL.canParse(interaction.url)) return undefined;
  const url = new URL(interaction.url);
  if (url.pathname !== `/connect/${interaction.id}`) return undefined;
  return url.searchParams.get(TOKEN_PARAM) ?? undefined;
}

/** The error's name, message and stack only (no `cause` or attached fields, which may quote a value). */
function plain(error: unknown): Error {
  if (!(error instanceof Error)) return new Error("A value that is not an Error was thrown");
  const bare = new Error(error.message);
  bare.name = error.name;
  if (error.stack !== undefined) bare.stack = error.stack;
  return bare;
}

/**
 * A web-standard handler for `GET /connect/<id>?token=...` (claims the link and redirects),
 * `GET /connect/<id>/<page>` (the secret form, to the browser that claimed it) and `POST
 * /connect/<id>/<page>` (stores the secret and completes the interaction, or with
 * `action=decline` ends it as declined). Anything else is 404; a `Host` other than `127.0.0.1`,
 * `[::1]` or `localhost` at `port` is 421; a post over 65,536 bytes is 413. Every response has
 * `Cache-Control: no-store`, a strict CSP and `X-Frame-Options: DENY`.
 * @throws RangeError when `branding` is invalid (see `createPageTheme`).
 */
export function createLocalConnectHandler(
  options: LocalConnectHandlerOptions,
): (request: Request) => Promise<Response> {
  const now = options.now ?? Date.now;
  const logger = options.logger ?? stderrLogger();
  const report = (message: string, error: unknown) => {
    try {
      logger.error({ err: plain(error) }, message);
    } catch {
      // A logger that throws must not turn the page's answer into a second failure.
    }
  };
  const theme = createPageTheme({
    ...(options.serverInfo === undefined ? {} : { server: options.serverInfo }),
    ...(options.branding === undefined ? {} : { branding: options.branding }),
  });
  const refusal = (kind: Parameters<typeof localNotice>[0]) => localNotice(kind, theme);
  const audit = auditTo(options.audit, logger);
  const sealer = new CookieSealer(randomBytes(32));
  const claims = new Map<string, Claim>();

  /** Claims outlive their interaction a while, so its browser is told "expired" or "done", not "unknown". */
  function forget(): void {
    const at = now();
    for (const [id, claim] of claims) if (claim.expiresAt + KEEP_CLAIM_MS <= at) claims.delete(id);
  }

  /** The claim on `id` when this request, at `path`, is its page with its cookie. */
  function heldBy(request: Request, id: string, path: string): Claim | undefined {
    const claim = claims.get(id);
    const cookie = readCookie(request, CLAIM_COOKIE);
    if (claim === undefined || cookie === undefined || !sameText(path, claim.path)) return undefined;
    return timingSafeEqual(claim.digest, digestOf(cookie)) ? claim : undefined;
  }

  function claim(interaction: UserInteraction): Response {
    const value = randomBytes(32).toString("base64url");
    const path = `/connect/${interaction.id}/${randomBytes(16).toString("base64url")}`;
    claims.set(interaction.id, { path, digest: digestOf(value), value, expiresAt: interaction.expiresAt });
    const maxAgeS = Math.max(1, Math.ceil((interaction.expiresAt - now()) / 1000));
    return redirect(path, [cookieHeader(CLAIM_COOKIE, value, { secure: false, maxAgeS, path })]);
  }

  /** The claimed page: its form (GET), the secret saved (POST), or Decline (POST `action=decline`). */
  async function answer(request: Request, interaction: UserInteraction, held: Claim): Promise<Response> {
    const frame = localFrame(theme, interaction);
    const purpose = readPurpose(interaction.purpose);
    if (purpose?.kind !== "secret") return localNotice("nothing-to-do", frame);
    const saveText = `local-secret\n${interaction.id}\n${held.value}`;
    const declineText = `local-decline\n${interaction.id}\n${held.value}`;
    if (request.method === "GET") {
      const forms = { save: { csrf: sealer.tag(saveText) }, decline: { csrf: sealer.tag(declineText) } };
      await audit(interactionRecord(interaction, "handoff.opened", "ok", now()));
      return localSecretForm(frame, { provider: purpose.provider, label: purpose.label }, forms);
    }
    const form = await readLocalForm(request);
    if (form === "too-large") return localNotice("too-large", frame);
    if (form.action === "decline") {
      if (!sealer.verify(declineText, form.csrf ?? "")) return localNotice("form-expired", frame);
      return decline(interaction, frame);
    }
    if (!sealer.verify(saveText, form.csrf ?? "")) return localNotice("form-expired", frame);
    const secret = form.secret;
    if (secret === undefined || secret === "") return localNotice("nothing-entered", frame);
    const credential = { provider: purpose.provider, secret, updatedAt: now() };
    try {
      const outcome = await completeWithCredential(
        options.manager,
        options.vault,
        interaction.id,
        interaction.user,
        credential,
        undefined,
        () => audit(interactionRecord(interaction, "grant.stored", "ok", now(), { provider: purpose.provider })),
      );
      if (!outcome.stored) {
        report("Could not store the credential", outcome.error);
        await audit(
          interactionRecord(interaction, "grant.stored", "failed", now(), {
            provider: purpose.provider,
            detail: { reason: "the vault failed" },
          }),
        );
        return localNotice("not-saved", frame);
      }
    } catch (error) {
      return ended(error, frame);
    }
    return localNotice("done", frame);
  }

  /** Ends the interaction as declined; the request waiting for it (or the client's retry) hears so. */
  async function decline(interaction: UserInteraction, frame: ReturnType<typeof localFrame>): Promise<Response> {
    try {
      await options.manager.decline(interaction.id, { user: interaction.user });
    } catch (error) {
      return ended(error, frame);
    }
    return localNotice("declined", frame);
  }

  /** The page for an interaction that ended before this step could: expired, or already answered. */
  function ended(error: unknown, frame: ReturnType<typeof localFrame>): Response {
    if (error instanceof InteractionError && error.code === "EXPIRED") return localNotice("expired", frame);
    if (error instanceof InteractionError) return localNotice("used", frame);
    throw error;
  }

  async function serve(request: Request): Promise<Response> {
    // Before anything else: a rebound name learns nothing, not even whether an id exists.
    const host = requestHost(request);
    if (!isLoopbackHost(host, options.port)) return refusal("wrong-host");
    if (request.method === "POST" && declaresTooLarge(request)) {
      // Unread: the connection closes rather than take in the rest of the body.
      const refused = refusal("too-large");
      refused.headers.set("Connection", "close");
      return refused;
    }
    const url = new URL(request.url);
    const [id = "", page, ...rest] = url.pathname.startsWith("/connect/")
      ? url.pathname.slice("/connect/".length).split("/")
      : [];
    const shaped = ID.test(id) && rest.length === 0 && (page === undefined || PAGE.test(page));
    if (!shaped || (request.method !== "GET" && request.method !== "POST")) {
      return refusal("nothing-here");
    }
    if (request.method === "POST" && !isSameOriginPost(request, `http://${host}`)) return refusal("cross-site");
    forget();
    const interaction = await options.manager.get(id);
    const expected = interaction === undefined ? undefined : tokenOf(interaction);
    if (interaction === undefined || expected === undefined) return refusal("not-found");
    const token = request.method === "GET" && page === undefined ? url.searchParams.get(TOKEN_PARAM) : null;
    if (token !== null && !sameText(token, expected)) return refusal("not-found");
    const held = page === undefined ? undefined : heldBy(request, id, url.pathname);
    // Without the token or the claimed page's cookie a request proves nothing, and learns nothing.
    if (token === null && held === undefined) return refusal("not-found");
    const frame = localFrame(theme, interaction);
    if (interaction.status === "expired") return localNotice("expired", frame);
    if (interaction.status === "declined") return localNotice("declined", frame);
    if (interaction.status !== "pending" && interaction.status !== "accepted") return localNotice("used", frame);
    if (held === undefined) return claims.has(id) ? refusal("other-browser") : claim(interaction);
    return answer(request, interaction, held);
  }

  return async (request) => {
    try {
      return await serve(request);
    } catch (error) {
      report("A local connect page failed", error);
      return refusal("error");
    }
  };
}
