/**
 * Who is at the browser: an OpenID Connect login at the MCP authorization server (authorization
 * code + PKCE + nonce). Its result, the verified issuer and subject, lives in a sealed session
 * cookie; the values needed to finish the login live in a second sealed cookie until then.
 */
import { randomBytes } from "node:crypto";
import { domainToASCII } from "node:url";
import * as oauth from "oauth4webapi";
import type { UserRef } from "../model/identity.js";
import type { AuthorizationServerConfig, OAuthServers } from "./oauth-server.js";
import { type CookieScope, type CookieSealer, cookieHeader, readCookie } from "./sealed-cookie.js";

/** The cookies' names, after `CookieScope.prefix`. */
export const SESSION_COOKIE = "mcp_connect_session";
const LOGIN_COOKIE = "mcp_connect_login";
const LOGIN_MS = 600_000;

/** The logged-in browser: the user, how the pages name them, and a random id that CSRF tokens are bound to. */
export interface BrowserSession {
  user: UserRef;
  /** See `displayName`. */
  name: string;
  sid: string;
}

const LONGEST_NAME = 128;

/**
 * How the pages name the signed-in user: the ID token's `email` when `email_verified` is `true`
 * (or `"true"`; its domain in ASCII, `xn--` labels for an international one, so a look-alike domain shows as
 * such), else `preferred_username`, else `name`, else the subject. Anything that reads as an
 * e-mail address but is not a verified one is passed over: any account may type another person's
 * address as its unverified e-mail, user name or full name, and the page would then name the
 * victim. Control and format characters (bidi overrides among them) are dropped, so a name cannot
 * disguise itself as another on the page.
 */
export function displayName(claims: Readonly<Record<string, unknown>>, subject: string): string {
  // Some servers send the flag as a string.
  const isVerified = claims.email_verified === true || claims.email_verified === "true";
  const verified = isVerified && typeof claims.email === "string" ? claims.email : undefined;
  const candidates = [
    verified === undefined ? undefined : asciiDomain(clean(verified)),
    ...[claims.preferred_username, claims.name].map((value) =>
      typeof value === "string" && !readsAsAddress(value) ? clean(value) : undefined,
    ),
    clean(subject),
  ];
  for (const name of candidates) {
    if (name !== undefined && name !== "") return [...name].slice(0, LONGEST_NAME).join("");
  }
  return "(an account without a name)";
}

function clean(value: string): string {
  return value
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, "")
    .replace(/\s+/g, " ")
    .trim();
}

/** With an at sign, also a fullwidth or small one (NFKC). */
function readsAsAddress(value: string): boolean {
  return value.normalize("NFKC").includes("@");
}

/** The address with its domain as a browser shows a host; `undefined` when the domain is not one. */
function asciiDomain(address: string): string | undefined {
  const at = address.lastIndexOf("@");
  if (at === -1) return address;
  const domain = domainToASCII(address.slice(at + 1));
  return domain === "" ? undefined : `${address.slice(0, at + 1)}${domain}`;
}

interface PendingLogin {
  state: string;
  nonce: string;
  verifier: string;
  /** The interaction id to go back to. */
  returnTo: string;
}

export interface LoginConfig extends AuthorizationServerConfig {
  /**
   * Path of this handler where the authorization server sends the browser back, e.g.
   * `/connect/login`; under a path prefix `/app`, `/app/connect/login`. It must lie under the
   * connect pages' path, the only path the login cookie is sent to.
   */
  redirectPath: string;
  /**
   * Scopes asked for at login; default `["openid", "email", "profile"]`, so that the ID token can
   * name the user on the pages. `openid` is always asked for.
   */
  scopes?: readonly string[];
}

export interface LoginDeps {
  config: LoginConfig;
  servers: OAuthServers;
  sealer: CookieSealer;
  baseUrl: URL;
  /** Names, path and Secure flag of both cookies. */
  cookies: CookieScope;
  now: () => number;
  /** ms a login lasts. */
  sessionMs: number;
}

export function readSession(deps: LoginDeps, request: Request): BrowserSession | undefined {
  const value = deps.sealer.open("session", readCookie(request, deps.cookies.prefix + SESSION_COOKIE), deps.now()) as
    | Partial<BrowserSession>
    | undefined;
  const user = value?.user;
  if (typeof user?.issuer !== "string" || typeof user.subject !== "string" || typeof value?.sid !== "string") {
    return undefined;
  }
  const name = typeof value.name === "string" ? value.name : displayName({}, user.subject);
  return { user: { issuer: user.issuer, subject: user.subject }, name, sid: value.sid };
}

/** The `Set-Cookie` that ends the browser's session. */
export function endSession(deps: LoginDeps): string {
  return setCookie(deps, SESSION_COOKIE, "", 0);
}

function setCookie(deps: LoginDeps, name: string, value: string, maxAgeS: number): string {
  const { prefix, path, secure } = deps.cookies;
  return cookieHeader(prefix + name, value, { secure, maxAgeS, path });
}

function redirectUri(deps: LoginDeps): string {
  return new URL(deps.config.redirectPath, deps.baseUrl).href;
}

/**
 * The URL to send the browser to, and the cookie that remembers what to check when it returns.
 * @param options.prompt `login` makes the authorization server ask who the user is, even with a
 *   session there (OpenID Connect Core § 3.1.2.1).
 */
export async function startLogin(
  deps: LoginDeps,
  returnTo: string,
  options: { prompt?: "login" } = {},
): Promise<{ location: string; cookie: string }> {
  const server = await deps.servers.get(deps.config);
  const pending: PendingLogin = {
    state: oauth.generateRandomState(),
    nonce: oauth.generateRandomNonce(),
    verifier: oauth.generateRandomCodeVerifier(),
    returnTo,
  };
  const endpoint = server.as.authorization_endpoint;
  if (endpoint === undefined) throw new Error("The authorization server has no authorization endpoint");
  const url = new URL(endpoint);
  url.searchParams.set("client_id", deps.config.clientId);
  url.searchParams.set("redirect_uri", redirectUri(deps));
  url.searchParams.set("response_type", "code");
  const scopes = new Set(["openid", ...(deps.config.scopes ?? ["email", "profile"])]);
  url.searchParams.set("scope", [...scopes].join(" "));
  if (options.prompt !== undefined) url.searchParams.set("prompt", options.prompt);
  url.searchParams.set("state", pending.state);
  url.searchParams.set("nonce", pending.nonce);
  url.searchParams.set("code_challenge", await oauth.calculatePKCECodeChallenge(pending.verifier));
  url.searchParams.set("code_challenge_method", "S256");
  const sealed = deps.sealer.seal("login", pending, deps.now() + LOGIN_MS);
  return {
    location: url.href,
    cookie: setCookie(deps, LOGIN_COOKIE, sealed, LOGIN_MS / 1000),
  };
}

/**
 * Finishes the login: checks state, exchanges the code, validates the ID token and its nonce.
 * @returns the interaction id to go back to and the cookies to set, or `undefined` when anything
 *   does not check out (the caller shows a refusal).
 */
export async function finishLogin(
  deps: LoginDeps,
  request: Request,
): Promise<{ returnTo: string; cookies: string[] } | undefined> {
  const pending = deps.sealer.open("login", readCookie(request, deps.cookies.prefix + LOGIN_COOKIE), deps.now()) as
    | Partial<PendingLogin>
    | undefined;
  if (
    typeof pending?.state !== "string" ||
    typeof pending.nonce !== "string" ||
    typeof pending.verifier !== "string" ||
    typeof pending.returnTo !== "string"
  ) {
    return undefined;
  }
  const server = await deps.servers.get(deps.config);
  try {
    const params = oauth.validateAuthResponse(server.as, server.client, new URL(request.url), pending.state);
    const response = await oauth.authorizationCodeGrantRequest(
      server.as,
      server.client,
      server.auth,
      params,
      redirectUri(deps),
      pending.verifier,
      server.options,
    );
    const result = await oauth.processAuthorizationCodeResponse(server.as, server.client, response, {
      expectedNonce: pending.nonce,
      requireIdToken: true,
    });
    const claims = oauth.getValidatedIdTokenClaims(result);
    if (claims === undefined) return undefined;
    const session: BrowserSession = {
      user: { issuer: claims.iss, subject: claims.sub },
      name: displayName(claims, claims.sub),
      sid: randomBytes(16).toString("base64url"),
    };
    const sealed = deps.sealer.seal("session", session, deps.now() + deps.sessionMs);
    return {
      returnTo: pending.returnTo,
      cookies: [
        setCookie(deps, SESSION_COOKIE, sealed, Math.floor(deps.sessionMs / 1000)),
        setCookie(deps, LOGIN_COOKIE, "", 0),
      ],
    };
  } catch {
    return undefined;
  }
}
