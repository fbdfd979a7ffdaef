/**
 * Who a Streamable HTTP session belongs to. A session id names a connection, not a user, so a
 * server behind authorization binds each session to the verified caller that opened it and
 * serves it to that caller only (spec 2025-11-25: basic/security_best_practices § Session
 * Hijacking: bind session ids to user-specific information).
 */
import type { AuthInfo } from "../../model/identity.js";

/**
 * The owner key for a request's verified `authInfo`: the user (issuer and `sub`) when the token
 * names one, so a refreshed token keeps its session; else the token itself, as a SHA-256 digest
 * so that the server's session table holds no bearer token. `undefined` without a verified token.
 * A token without `sub` (token introspection may answer so, RFC 7662 § 2.2) is not bound to its
 * OAuth client: every user of one client app would share that key. Such a session ends for its
 * client when the token is replaced (404; the client initializes again).
 */
export async function sessionOwner(authInfo: AuthInfo | undefined): Promise<string | undefined> {
  if (authInfo === undefined) return undefined;
  if (typeof authInfo.subject === "string" && authInfo.subject !== "") {
    return JSON.stringify(["user", authInfo.issuer ?? null, authInfo.subject]);
  }
  return JSON.stringify(["token", await digest(authInfo.token)]);
}

/** The SHA-256 digest of `text` (as UTF-8), in lower-case hex. */
async function digest(text: string): Promise<string> {
  const hash = await globalThis.crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(hash), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/**
 * Whether a request with owner key `caller` may use a session opened by `owner`: only the same
 * caller. A session opened without a token serves only requests without one, so a user's
 * requests never join a session that anyone holding its id may also use.
 */
export function mayUseSession(owner: string | undefined, caller: string | undefined): boolean {
  return owner === caller;
}
