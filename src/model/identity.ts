/**
 * Who the caller is, for binding interactions and stored credentials: the authorization server
 * that vouched for them and their `sub` there. A session id is not an identity (it names a
 * connection, not a user), so nothing user-owned is keyed by it alone. The ground floor: imports
 * nothing, and every floor above may name it.
 */
/** A verified user: the authorization server that vouched for them and their `sub` there. */
export interface UserRef {
  issuer: string;
  subject: string;
}

/** Verified identity of the caller, set by a resource-server layer (MCP authorization). */
export interface AuthInfo {
  /** The bearer access token as presented; never send it to anyone else. */
  token: string;
  /** The OAuth client the token was issued to. */
  clientId?: string;
  /** Scopes the token grants. */
  scopes?: string[];
  /** Seconds since the epoch. */
  expiresAt?: number;
  /** The authorization server that issued the token (`iss`). */
  issuer?: string;
  /** The user the token stands for (`sub`). */
  subject?: string;
  /** Anything else the verifier found worth keeping. */
  extra?: Record<string, unknown>;
}

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
