/**
 * The one shape in which every hand-off reaches the client's user, whatever wire form carried it:
 * a URL-mode `elicitation/create` or a -32042 error (spec 2025-11-25: client/elicitation), or the
 * user-interaction proposal's `interaction/create` or -32003 error.
 */
import { messageContainsUrl } from "../../revisions/index.js";
import { inspectUrl, namesPublicHost, type UrlRefusal, type UrlWarning } from "../url-safety.js";
import { withoutInvisible } from "./printable.js";

/** Which family of wire forms carried the hand-off. */
export type HandoffKind = "elicitation" | "interaction";

/**
 * A hand-off as a wire form delivers it, before any check: the server's id (`elicitationId` or
 * the interaction `id`), the URL and the message, both untrusted text.
 */
export interface ReceivedHandoff {
  kind: HandoffKind;
  id: string;
  url: string;
  message: string;
}

/** The requesting server as it introduced itself in `initialize` (`serverInfo`). */
export interface HandoffServer {
  name: string;
  title?: string;
  version: string;
}

/** A hand-off ready to show the user: who asks, where to, and what to look at twice. */
export interface UrlInteraction {
  kind: HandoffKind;
  /** The server's id for it; pass it to `HandoffClient.userDone`. */
  id: string;
  server: HandoffServer;
  /** The full URL as the browser will get it (WHATWG-normalized). Never fetched by the client. */
  url: string;
  origin: string;
  /** Host and port, ASCII (punycode) form. */
  host: string;
  /** What to highlight: the part of the host one party controls (see `inspectUrl`). */
  registrableDomain: string;
  /**
   * The registrable domain of the MCP server's own URL (`HandoffClient`'s `serverUrl`); absent
   * when it is not known, as for a server over stdio.
   */
  serverDomain?: string;
  /** The server's explanation; untrusted text, escape it before showing it on a terminal. */
  message: string;
  /** `inspectUrl`'s warnings about the URL, then `message-url` when the message carries a web address. */
  warnings: UrlWarning[];
  /** `request`: the server asked during a request; `error`: a request failed until this is done. */
  source: "request" | "error";
}

/** The user's answer: `accept` opens the page (consent given), `decline` refuses, `cancel` dismisses. */
export type InteractionAnswer = "accept" | "decline" | "cancel";

/** What the handler gets besides the interaction. */
export interface InteractionContext {
  /**
   * Aborted once the user is no longer needed: the server withdrew its request, the server reported
   * completion, the user said they are done, the wait timed out, or the caller gave up. A handler
   * that keeps a "done?" question open after answering `accept` closes it on abort.
   */
  signal: AbortSignal;
  /** The user says they finished in the browser; a waiting request is retried now. */
  userDone(): void;
}

/** The one handler every hand-off reaches. Never given a refused URL (those are declined unasked). */
export type InteractionHandler = (interaction: UrlInteraction, ctx: InteractionContext) => Promise<InteractionAnswer>;

/** A hand-off whose URL is never shown to the handler: not http(s), or not a URL. */
export interface RefusedHandoff extends UrlRefusal {
  kind: HandoffKind;
  id: string;
  server: HandoffServer;
  message: string;
  source: "request" | "error";
}

/** The warning for a message that carries a web address, which only the `url` field may. */
const MESSAGE_URL: UrlWarning = {
  code: "message-url",
  message:
    "The server's message contains a web address, which it must not. The page that opens is the URL above; do not visit one from the message.",
};

/**
 * Builds the interaction to show for a received hand-off, or the refusal when its URL must not be
 * opened. `serverUrl` (the MCP server's own URL, when known) enables the `other-domain` warning.
 * A message with a web address in it adds `message-url`: also one split by invisible characters,
 * spelt in fullwidth letters or with ideographic dots, or a bare host on any public suffix.
 */
export function toUrlInteraction(
  handoff: ReceivedHandoff,
  server: HandoffServer,
  source: "request" | "error",
  serverUrl?: string | URL,
): UrlInteraction | RefusedHandoff {
  const info = inspectUrl(handoff.url, serverUrl === undefined ? {} : { serverUrl });
  const common = { kind: handoff.kind, id: handoff.id, server, message: handoff.message, source };
  if (!info.ok) return { ...info, ...common };
  const { url, origin, host, registrableDomain, serverDomain, warnings } = info;
  const flagged = containsUrl(handoff.message) ? [...warnings, MESSAGE_URL] : warnings;
  const interaction: UrlInteraction = { ...common, url, origin, host, registrableDomain, warnings: flagged };
  if (serverDomain !== undefined) interaction.serverDomain = serverDomain;
  return interaction;
}

function containsUrl(message: string): boolean {
  const seen = withoutInvisible(message);
  // As a reader and a browser take it: fullwidth letters and dots as ASCII (NFKC), and the
  // ideographic full stops that a host name reads as dots (UTS #46).
  const read = seen.normalize("NFKC").replace(/[\u3002\uff61]/g, ".");
  return [message, seen, read].some(messageContainsUrl) || namesPublicHost(read);
}
