/**
 * The shapes of a hand-off of a user to a web page (an out-of-band user interaction), as a handler
 * asks for it (`ctx.interact`, `InteractionRequired`) and as the interaction service stores it.
 */

import type { UserRef } from "../model/identity.js";
import type { UserInteraction } from "../model/interaction.js";
import type { InteractionAction } from "../revisions/index.js";

export type { InteractionAction };

/** What creating an interaction needs. */
export interface InteractionInput {
  /** The page the user is sent to: an absolute http(s) URL served by this server. */
  url: string;
  /** Why the user should go there: plain text without a URL. */
  message: string;
  user: UserRef;
  /** The MCP session that asks; completion is delivered there only. */
  sessionId: string;
  /** What the web side must do; opaque here. */
  purpose?: Record<string, unknown>;
  /** The requesting client's self-declared name (`clientInfo`), shown on the page marked as unverified. */
  clientName?: string;
  /** The requesting client's self-declared version (`clientInfo.version`), for the audit log. */
  clientVersion?: string;
}

/** What `ctx.interact` asks for. */
export interface InteractParams {
  /** The page: an absolute http(s) URL served by this server (the connect URL). */
  url: string;
  /** Why the user should go there: plain text without a URL. */
  message: string;
  /** What the web side must do, stored with the interaction, e.g. `{ kind: "oauth", provider: "github" }`. */
  purpose?: Record<string, unknown>;
}

export interface InteractOptions {
  /** ms to wait for the client's answer; default: until the interaction expires (a person answers). */
  timeoutMs?: number;
  /** Aborting cancels the request to the client. The handler's own signal always does. */
  signal?: AbortSignal;
}

/** The client's answer to `ctx.interact`. */
export interface InteractionOutcome {
  /** `accept`: the client opened the page (the interaction is not finished yet); `decline`, `cancel`: it did not. */
  action: InteractionAction;
  /**
   * The interaction as stored after the answer (`accepted`, `declined` or `cancelled`), or
   * `completed` when the user finished the page before the client's answer arrived.
   */
  interaction: UserInteraction;
}
