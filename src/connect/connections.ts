/**
 * A user's connections as they may be shown (no secret, no refresh token), and taking one back:
 * token revocation at the provider (RFC 7009) when it offers it, then the local delete, then a
 * broadcast so every instance hears of it.
 */
import * as oauth from "oauth4webapi";
import type { UserRef } from "../model/identity.js";
import type { StoredCredential } from "../model/interaction.js";
import type { AuditEntry, CredentialVault, MessageBus } from "../stores/types.js";
import type { AuthorizationServerConfig, OAuthServers } from "./oauth-server.js";

/** One stored grant or secret as the user may see it: what, as whom, since when; never the secret. */
export interface Connection {
  provider: string;
  /** The account at the provider (ID token or userinfo), when it was known at the grant. */
  account?: string;
  /** Scopes granted; empty for a secret or a grant that recorded none. */
  scopes: string[];
  /** ms since the epoch. */
  createdAt?: number;
  /** ms since the epoch, when a tool last used it. */
  lastUsedAt?: number;
  /** ms since the epoch, when the access token expires (a refresh token may renew it). */
  expiresAt?: number;
}

/**
 * What `CredentialBroker.disconnect` did. The local copy is deleted whatever the provider said: a
 * user who disconnects expects the server to hold nothing afterwards, and a provider that is down
 * must not keep the token here. `upstream` says whether the provider also forgot it:
 * - `revoked`: the provider's `revocation_endpoint` accepted the revocation (RFC 7009 § 2.2);
 * - `unsupported`: the provider has no revocation endpoint, or the credential is a typed secret;
 *   the token stays valid at the provider until it expires or the user revokes it there;
 * - `failed`: the provider refused or did not answer; revoke it at the provider by hand;
 * - `none`: nothing was stored.
 */
export interface DisconnectResult {
  /** Whether a credential was stored and is now deleted. */
  removed: boolean;
  upstream: "revoked" | "unsupported" | "failed" | "none";
  /** Which token the revocation request named: the refresh token when there is one (it ends the grant). */
  revokedToken?: "refresh_token" | "access_token";
}

/** The shown part of `credential`. */
export function connectionOf(credential: StoredCredential): Connection {
  const connection: Connection = { provider: credential.provider, scopes: [...(credential.scopes ?? [])] };
  if (credential.account !== undefined) connection.account = credential.account;
  if (credential.createdAt !== undefined) connection.createdAt = credential.createdAt;
  if (credential.lastUsedAt !== undefined) connection.lastUsedAt = credential.lastUsedAt;
  if (credential.expiresAt !== undefined) connection.expiresAt = credential.expiresAt;
  return connection;
}

/** The bus channel of revocations; each message is the JSON of a `RevokedGrant`. */
export const REVOKED_CHANNEL = "mcp-handoff:grants:revoked";

/** What the revocation broadcast says: whose grant at which provider is gone (no token). */
export interface RevokedGrant {
  user: UserRef;
  provider: string;
}

/** Parses a message of `REVOKED_CHANNEL`; `undefined` for anything else. */
export function parseRevoked(message: string): RevokedGrant | undefined {
  try {
    const value = JSON.parse(message) as Partial<RevokedGrant>;
    const { user, provider } = value;
    if (typeof provider !== "string" || typeof user?.issuer !== "string" || typeof user.subject !== "string") {
      return undefined;
    }
    return { user: { issuer: user.issuer, subject: user.subject }, provider };
  } catch {
    return undefined;
  }
}

/** What revoking one credential needs. */
export interface RevocationDeps {
  providers: Readonly<Record<string, AuthorizationServerConfig>>;
  servers: OAuthServers;
  vault: CredentialVault;
  bus?: MessageBus | undefined;
  /** Told why the provider's revocation failed, or the broadcast; the error carries no token. */
  report(message: string, error: unknown): void;
  /** ms the provider is given to answer. */
  timeoutMs: number;
}

/**
 * Revokes `stored` at its provider (RFC 7009), when it has a `revocation_endpoint`, with the
 * client's own authentication. Never throws: a failure is reported and returned as `failed`.
 */
export async function revokeUpstream(
  deps: RevocationDeps,
  stored: StoredCredential,
): Promise<Pick<DisconnectResult, "upstream" | "revokedToken">> {
  const config = Object.hasOwn(deps.providers, stored.provider) ? deps.providers[stored.provider] : undefined;
  if (config === undefined) return { upstream: "unsupported" };
  const hint = stored.refreshToken === undefined ? "access_token" : "refresh_token";
  try {
    const server = await deps.servers.get(config);
    if (server.as.revocation_endpoint === undefined) return { upstream: "unsupported" };
    const response = await oauth.revocationRequest(
      server.as,
      server.client,
      server.auth,
      stored.refreshToken ?? stored.secret,
      {
        ...server.options,
        additionalParameters: { token_type_hint: hint },
        signal: AbortSignal.timeout(deps.timeoutMs),
      },
    );
    await oauth.processRevocationResponse(response);
    return { upstream: "revoked", revokedToken: hint };
  } catch (error) {
    deps.report(
      `The ${stored.provider} provider did not revoke the token; it is deleted here all the same`,
      plainError(error),
    );
    return { upstream: "failed", revokedToken: hint };
  }
}

/** Tells every instance on `bus` that the grant is gone; a bus that fails is reported (the vault already holds nothing). */
export async function announceRevoked(deps: Pick<RevocationDeps, "bus" | "report">, grant: RevokedGrant) {
  if (deps.bus === undefined) return;
  try {
    await deps.bus.publish(REVOKED_CHANNEL, JSON.stringify(grant));
  } catch (error) {
    deps.report("Could not announce a revoked grant on the message bus", plainError(error));
  }
}

/** The error's kind and message only: an OAuth library's error may carry the provider's whole answer. */
export function plainError(error: unknown): Error {
  if (!(error instanceof Error)) return new Error("A value that is not an Error was thrown");
  const plain = new Error(error.message);
  plain.name = error.name;
  return plain;
}

/** Who asked `CredentialBroker.disconnect`, as its audit record names them. */
export interface DisconnectedBy {
  /** The MCP client as it names itself (`clientInfo` name and version). */
  client?: AuditEntry["client"];
  /** The MCP session the request came on. */
  sessionId?: string;
}
