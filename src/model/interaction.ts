/**
 * The neutral model of an out-of-band user interaction (a hand-off): the server sends the user to
 * a URL it controls, the user finishes something there that must not pass through the MCP client
 * (a third-party OAuth grant, an API key, a payment), and the original request can then succeed.
 * Every wire form (2025-11-25 URL-mode elicitation, the user-interaction proposal, 2026-07-28
 * multi round-trip requests) is mapped onto this one shape by the revision codecs.
 */
import type { UserRef } from "./identity.js";

/**
 * pending → accepted | declined | cancelled (the client's answer) → completed (the web side
 * finished) | expired (the deadline passed first). `completed` and `expired` are final, except that
 * a completion not yet announced is withdrawn when storing its result fails (`InteractionManager.complete`).
 */
export type InteractionStatus = "pending" | "accepted" | "declined" | "cancelled" | "completed" | "expired";

export interface UserInteraction {
  /** Unique, unguessable (at least 128 random bits); doubles as `elicitationId` on the wire. */
  id: string;
  /** The page the user is sent to; served by this server (the connect URL), never a third party directly. */
  url: string;
  /** Why the user should go there; plain text, never containing a URL. */
  message: string;
  /** The user the interaction was created for; only this user may complete it. */
  user: UserRef;
  /** The MCP session that asked; completion is delivered there. */
  sessionId: string;
  status: InteractionStatus;
  /** ms since the epoch. */
  createdAt: number;
  /** ms since the epoch; an interaction past it cannot complete. */
  expiresAt: number;
  /**
   * The requesting client's name as the client itself declares it (`clientInfo` of `initialize`,
   * or of the request's `_meta` on 2026-07-28; its `title`, else its `name`). Unverified: the pages
   * show it marked as such, never as proof of who asks.
   */
  clientName?: string;
  /** What the web side must do, e.g. `{ kind: "oauth", provider: "github", scopes: [...] }`; opaque to the store. */
  purpose?: Record<string, unknown>;
  /**
   * The W3C trace context (`traceparent`, 55 characters: version, trace id, span id, flags) of the
   * request that created the interaction, when it was traced: the connect pages and the retry,
   * on whichever instance they run, continue that trace. Holds no secret.
   */
  traceparent?: string;
  /** The W3C `tracestate` that came with `traceparent`, when there was one. */
  tracestate?: string;
}

/** What creating an interaction needs; the store fills `status`, `createdAt`. */
export type NewInteraction = Omit<UserInteraction, "status" | "createdAt">;

/** A credential obtained through a hand-off and kept by the server, never sent to the client. */
export interface StoredCredential {
  /** e.g. `"github"` or `"forecast-api-key"`. */
  provider: string;
  /** OAuth access token or the secret the user entered. */
  secret: string;
  /** OAuth refresh token, when there is one. */
  refreshToken?: string;
  scopes?: string[];
  /** ms since the epoch, when the secret stops working (OAuth `expires_in`). */
  expiresAt?: number;
  /** ms since the epoch. */
  updatedAt: number;
  /**
   * The account at the provider the grant belongs to, as the provider names it (its userinfo's
   * `preferred_username` or `email`, else the ID token's or the secret's label); shown to the user
   * on the connections page. Holds no secret.
   */
  account?: string;
  /** ms since the epoch, when the user first connected this provider (kept across renewals). */
  createdAt?: number;
  /** ms since the epoch, when a tool last used the credential (`CredentialVault.markUsed`). */
  lastUsedAt?: number;
}
