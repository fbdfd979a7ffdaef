/**
 * Who the caller is, for binding interactions and stored credentials: the authorization server
 * that vouched for them and their `sub` there. A session id is not an identity (it names a
 * connection, not a user), so nothing user-owned is keyed by it alone.
 */
import type { UserRef } from "../interaction/model.js";
import type { AuthInfo } from "../transports/transport.js";

/**
 * The verified user behind `authInfo`, or `undefined` when there is no verified token or it
 * names no user (no issuer, or no `sub`, as with some client-credentials tokens).
 */
export function userOf(authInfo: AuthInfo | undefined): UserRef | undefined {
  const issuer = authInfo?.issuer;
  const subject = authInfo?.subject;
  if (typeof issuer !== "string" || issuer === "" || typeof subject !== "string" || subject === "") return undefined;
  return { issuer, subject };
}

/** Whether two references name the same user: same issuer and same subject, compared exactly. */
export function sameUser(a: UserRef, b: UserRef): boolean {
  return a.issuer === b.issuer && a.subject === b.subject;
}
