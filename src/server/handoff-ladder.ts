/**
 * Which wire form a hand-off takes with one client: the fallback ladder, chosen by what the client
 * declared, with the server's say over it. Top rung first:
 *
 * 1. URL-mode elicitation (`elicitation: { url: {} }`): `elicitation/create` of mode url where the
 *    request can ask in-band (`ctx.interact`), error -32042 where it cannot (`InteractionRequired`),
 *    an `InputRequiredResult` on 2026-07-28;
 * 2. the user-interaction proposal (`userInteraction` with type `ua`): `interaction/create`, -32003;
 * 3. opt-in (`handoffs.inbox`): the inbox. The client is asked nothing; the interaction is kept for
 *    its user, and the tool's error names the server's fixed inbox page, which holds no id and no
 *    token, where the signed-in user finds the request and completes it, then retries;
 * 4. none: the tool's error says the client cannot open the page, and names no URL.
 *
 * The revision says what the client declared (`Revision.interactionWire`); this file only decides
 * among the forms, so it compares no versions.
 */
import type { InteractionForm, InteractionWire, Revision } from "../revisions/index.js";
import { INBOX_WIRE } from "../revisions/index.js";

/** Who the client says it is (`clientInfo`), as the server's choice reads it. Unverified. */
export interface LadderClientInfo {
  name: string;
  version: string;
  title?: string;
}

/** Options of McpServer's `handoffs`: the last rung and the server's override of the ladder. */
export interface HandoffLadderOptions {
  /**
   * Turns on the inbox rung for clients that declared neither URL-mode elicitation nor
   * `userInteraction` (`elicitation: {}`, which means form only, or no elicitation at all). `url`
   * is the connect handler's fixed inbox page, `${baseUrl}/connect/inbox` (`inboxUrlFor` in
   * `mcp-handoff/connect`): an absolute http(s) URL without query or fragment, so it can carry no
   * id or token. Such a client's request gets a tool result with `isError: true` naming this URL;
   * other requests -32603 with the same text.
   */
  inbox?: { url: string };
  /**
   * The server's choice of form for a client, before the ladder: return `"url-elicitation"` or
   * `"user-interaction"` to prefer that form (taken only when the client declared it),
   * `"inbox"` to send it to the inbox (needs `inbox`), `"none"` for no hand-off at all, or
   * `undefined` to let the ladder choose. `client` is `clientInfo` as the client declared it
   * (`undefined` before any), `capabilities` what it declared for this request. E.g. a client
   * that declares URL elicitation but never opens the page:
   * `(client) => (client?.name === "example-desktop" ? "inbox" : undefined)`.
   * Precedence: this choice, when the client can take it; then the ladder; then the inbox when
   * on; then none. A choice of `"inbox"` without `inbox` counts as `"none"`.
   */
  formFor?: (client: LadderClientInfo | undefined, capabilities: unknown) => InteractionForm | undefined;
}

/**
 * The constant inbox URL, checked once.
 * @throws TypeError for a URL that is not absolute http(s), or has a query or a fragment.
 */
export function checkInboxUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TypeError("handoffs.inbox.url must be an absolute http(s) URL");
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") {
    throw new TypeError("handoffs.inbox.url must be an absolute http(s) URL");
  }
  if (parsed.search !== "" || parsed.hash !== "" || url.includes("?") || url.includes("#")) {
    throw new TypeError("handoffs.inbox.url must have no query and no fragment: it is the same for every request");
  }
  return parsed.href;
}

/**
 * The wire form for this client and request: the server's choice (`formFor`) where the client can
 * take it, else the revision's ladder, then the inbox when it is on, else none. A `formFor` that
 * throws is reported and left out.
 */
export function chooseWire(
  revision: Pick<Revision, "interactionWire">,
  capabilities: unknown,
  client: LadderClientInfo | undefined,
  options: HandoffLadderOptions | undefined,
  report: (message: string, error: unknown) => void,
): InteractionWire {
  let chosen: InteractionForm | undefined;
  try {
    chosen = options?.formFor?.(client, capabilities);
  } catch (error) {
    // The server's own function failed: its error goes to the log, and the ladder chooses.
    report("handoffs.formFor threw; the client's declared capabilities choose the wire form", error);
  }
  const declared = revision.interactionWire(capabilities, chosen);
  if (chosen === "none") return declared.form === "none" ? declared : revision.interactionWire(undefined);
  if (chosen === "inbox" || declared.form === "none") {
    return options?.inbox === undefined ? revision.interactionWire(undefined) : INBOX_WIRE;
  }
  return declared;
}

/**
 * What a client on the inbox rung is told: the handler's message, then the fixed inbox URL and
 * what to do there. Holds no interaction id and no token: the same text for every request.
 */
export function inboxText(message: string, inboxUrl: string): string {
  const why = message.trim() === "" ? "" : `${message.trim()} `;
  return `${why}This app cannot open the page for that itself. Open ${inboxUrl} in your browser, sign in, and finish the request waiting there; then ask again.`;
}
