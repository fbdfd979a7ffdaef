/**
 * The connect pages of a server on the user's own machine, where no login can say who the browser
 * is. A hand-off link `http://127.0.0.1:<port>/connect/<id>?token=<token>` is bound to one
 * interaction, and so to its MCP session, by the token in that interaction's `url`. The first
 * browser that opens it claims it: it gets a cookie (random, kept here only as a digest) and is sent
 * on to `/connect/<id>/<page>`, without the token, where `<page>` is random too and the cookie's
 * path: browsers do not keep cookies apart by port, so another server on 127.0.0.1 that knows the
 * interaction id still never receives the cookie. Every later request must carry that cookie at
 * that path, so the token opens the page once, and a second browser, or another process that
 * learnt the link, is refused. Once the interaction is completed or expired, nothing more is stored through it. Only loopback `Host` names
 * with the pages' port are answered (DNS rebinding), and a POST must come from the page's own
 * origin and carry its CSRF token.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { UserInteraction } from "../../interaction/model.js";
import { InteractionError, type InteractionManager } from "../../interaction/server/index.js";
import type { CredentialVault } from "../../stores/types.js";
import { ID } from "../connect-page.js";
import { linkNotFound, notice, redirect } from "../pages.js";
import { readPurpose } from "../purpose.js";
import { isSameOriginPost } from "../same-origin.js";
import { CookieSealer, cookieHeader, readCookie } from "../sealed-cookie.js";
import { TOKEN_PARAM } from "./credentials.js";
import { isLoopbackHost, requestHost } from "./host.js";
import {
  alreadyUsed,
  crossSite,
  done,
  formExpired,
  linkExpired,
  localSecretForm,
  otherBrowser,
  wrongHost,
} from "./pages.js";

export interface LocalConnectHandlerOptions {
  /** Reads the interactions and completes them (the vault write runs inside the claim). */
  manager: Pick<InteractionManager, "get" | "complete">;
  vault: CredentialVault;
  /** The port the pages are served at: a `Host` must name it. */
  port: number;
  /** ms since the epoch; default `Date.now`. Give the manager the same clock. */
  now?: () => number;
  /** Told why a step failed (the store or the vault); the page says nothing specific. Default `console.error` (stderr). */
  report?: (message: string, error: unknown) => void;
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

function plain(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : "a value that is not an Error was thrown";
}

/**
 * A web-standard handler for `GET /connect/<id>?token=...` (claims the link and redirects),
 * `GET /connect/<id>/<page>` (the secret form, to the browser that claimed it) and `POST
 * /connect/<id>/<page>` (stores the secret and completes the interaction). Anything else is 404; a `Host` other than
 * `127.0.0.1`, `[::1]` or `localhost` at `port` is 421. Every response has `Cache-Control:
 * no-store`, a strict CSP and `X-Frame-Options: DENY`.
 */
export function createLocalConnectHandler(
  options: LocalConnectHandlerOptions,
): (request: Request) => Promise<Response> {
  const now = options.now ?? Date.now;
  const report = options.report ?? ((message, error) => console.error(`${message}: ${plain(error)}`));
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

  async function save(request: Request, interaction: UserInteraction, held: Claim): Promise<Response> {
    const purpose = readPurpose(interaction.purpose);
    if (purpose?.kind !== "secret") return notice(400, "Nothing to do", "This link does not ask for anything here.");
    const csrfText = `local-secret\n${interaction.id}\n${held.value}`;
    if (request.method === "GET") {
      return localSecretForm(purpose.label, interaction.message, { csrf: sealer.tag(csrfText) });
    }
    const form = await request.formData().catch(() => undefined);
    const csrf = form?.get("csrf");
    if (typeof csrf !== "string" || !sealer.verify(csrfText, csrf)) return formExpired();
    const secret = form?.get("secret");
    if (typeof secret !== "string" || secret === "") return notice(400, "Nothing entered", "Enter a value.");
    let saving: unknown;
    try {
      await options.manager.complete(interaction.id, {
        user: interaction.user,
        commit: async () => {
          try {
            await options.vault.put(interaction.user, { provider: purpose.provider, secret, updatedAt: now() });
          } catch (error) {
            saving = error ?? new Error("The vault failed");
            throw error;
          }
        },
      });
    } catch (error) {
      if (saving !== undefined) {
        report("Could not store the credential", saving);
        return notice(503, "Not saved", "What you gave could not be saved, and nothing was stored. Try again.");
      }
      if (error instanceof InteractionError && error.code === "EXPIRED") return linkExpired();
      if (error instanceof InteractionError) return alreadyUsed();
      throw error;
    }
    return done();
  }

  async function serve(request: Request): Promise<Response> {
    // Before anything else: a rebound name learns nothing, not even whether an id exists.
    const host = requestHost(request);
    if (!isLoopbackHost(host, options.port)) return wrongHost();
    const url = new URL(request.url);
    const [id = "", page, ...rest] = url.pathname.startsWith("/connect/")
      ? url.pathname.slice("/connect/".length).split("/")
      : [];
    const shaped = ID.test(id) && rest.length === 0 && (page === undefined || PAGE.test(page));
    if (!shaped || (request.method !== "GET" && request.method !== "POST")) {
      return notice(404, "Not found", "There is nothing here.");
    }
    if (request.method === "POST" && !isSameOriginPost(request, `http://${host}`)) return crossSite();
    forget();
    const interaction = await options.manager.get(id);
    const expected = interaction === undefined ? undefined : tokenOf(interaction);
    if (interaction === undefined || expected === undefined) return linkNotFound();
    const token = request.method === "GET" && page === undefined ? url.searchParams.get(TOKEN_PARAM) : null;
    if (token !== null && !sameText(token, expected)) return linkNotFound();
    const held = page === undefined ? undefined : heldBy(request, id, url.pathname);
    // Without the token or the claimed page's cookie a request proves nothing, and learns nothing.
    if (token === null && held === undefined) return linkNotFound();
    if (interaction.status === "expired") return linkExpired();
    if (interaction.status !== "pending" && interaction.status !== "accepted") return alreadyUsed();
    if (held === undefined) return claims.has(id) ? otherBrowser() : claim(interaction);
    return save(request, interaction, held);
  }

  return async (request) => {
    try {
      return await serve(request);
    } catch (error) {
      report("A local connect page failed", error);
      return notice(500, "Something went wrong", "The server could not complete this step.");
    }
  };
}
