/**
 * What `McpServer` needs to hand a user off to a web page (an out-of-band user interaction): the
 * service that keeps interactions (`InteractionManager` in `mcp-handoff/interaction` implements
 * it), and `InteractionRequired`, which a handler throws when a request cannot go on until the
 * user has been to a page.
 */
import type { InteractParams } from "./handoff-types.js";

export type {
  CredentialFetchInit,
  CredentialInfo,
  CredentialRequest,
  CredentialSource,
  InteractionService,
} from "./handler-types.js";
export type {
  InteractionAction,
  InteractionInput,
  InteractionOutcome,
  InteractOptions,
  InteractParams,
} from "./handoff-types.js";

/**
 * Thrown by a tool, resource or prompt handler: the request needs the user to visit `url` first.
 * The server stores an interaction for the request's user and answers with the error the client
 * understands: -32042 with `data.elicitations` (URL-mode elicitation), -32003
 * `interaction_required` (the user-interaction proposal); a client that can do neither gets a tool
 * result with `isError: true` that says so and carries no URL (other requests: -32603).
 * The client retries the request once the interaction completes.
 */
export class InteractionRequired extends Error {
  override readonly name = "InteractionRequired";
  readonly url: string;
  readonly purpose: Record<string, unknown> | undefined;

  /** @param params `message` is shown to the user and must not contain a URL. */
  constructor(params: InteractParams) {
    // The message never carries the URL: only the wire form's `url` field may.
    super(params.message);
    this.url = params.url;
    this.purpose = params.purpose;
  }
}
