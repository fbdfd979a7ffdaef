/**
 * Consent for a URL-mode elicitation (spec 2025-11-25: client/elicitation § Safe URL Handling),
 * through the hand-off consent policy shared with `HandoffClient`: the same URL checks, text,
 * question and browser handling, fed with the command's prompter and streams. A URL that is not
 * http(s), or has user-info, is shown escaped and declined without asking. The URL is never fetched here.
 */
import type { Implementation } from "../client/types.js";
import {
  createConsentPolicy,
  type InteractionAnswer,
  type RenderOptions,
  renderInteraction,
  renderRefusal,
  toUrlInteraction,
  type UrlInteraction,
} from "../interaction/client/index.js";
import type { Cancelled } from "./prompter.js";
import { CANCELLED } from "./prompter.js";

export interface UrlConsentRequest {
  /** The requesting server as it introduced itself. */
  server: Implementation | undefined;
  message: string;
  url: string;
  /** The `elicitationId`, when known. */
  id?: string;
  /** `request` for an `elicitation/create`, `error` for one listed in a -32042 answer. Default `request`. */
  source?: "request" | "error";
  /** The MCP server's own URL when it is reached over HTTP; pages on other domains are flagged. */
  serverUrl?: URL;
}

export type ConsentAnswer = InteractionAnswer;

export interface ConsentIo {
  /** Asks a yes/no question; Ctrl-C answers {@link CANCELLED}. */
  confirm: (message: string) => Promise<boolean | Cancelled>;
  /** Opens `url` in the system browser; rejects when it cannot. */
  open: (url: string) => Promise<void>;
  /** Shows text to the user (stderr). */
  write: (text: string) => void;
  /** Print the URL instead of opening a browser. */
  noBrowser: boolean;
  /** Whether `write` goes to a terminal, so the registrable domain may be set in bold. */
  tty?: boolean;
  /** The terminal's width in columns, read at each screen; default 80. */
  columns?: () => number | undefined;
}

function prepare(request: UrlConsentRequest) {
  const server = request.server ? { ...request.server } : { name: "", version: "" };
  return toUrlInteraction(
    { kind: "elicitation", id: request.id ?? "", url: request.url, message: request.message },
    server,
    request.source ?? "request",
    request.serverUrl,
  );
}

function isRefusal(prepared: ReturnType<typeof prepare>): prepared is Exclude<typeof prepared, UrlInteraction> {
  return "ok" in prepared;
}

/**
 * The consent text: the full URL (as it would be opened), the host and registrable domain, who
 * asks, every warning and the server's message, quoted; or, for a URL that is refused, why it is
 * not opened.
 */
export function renderConsent(request: UrlConsentRequest, options: RenderOptions = {}): string {
  const prepared = prepare(request);
  return isRefusal(prepared) ? renderRefusal(prepared, options) : renderInteraction(prepared, options);
}

/**
 * Shows the consent text and asks. On yes, opens the browser (or prints the URL with
 * `noBrowser` or when opening fails) and answers `accept`; on no `decline`; on Ctrl-C `cancel`.
 * A URL that is not http(s), or has user-info, is declined without asking.
 */
export async function askUrlConsent(request: UrlConsentRequest, io: ConsentIo): Promise<ConsentAnswer> {
  const prepared = prepare(request);
  if (isRefusal(prepared)) {
    const columns = io.columns?.();
    io.write(`\n${renderRefusal(prepared, columns === undefined ? {} : { columns })}\n`);
    return "decline";
  }
  return askInteractionConsent(prepared, io, new AbortController().signal);
}

/**
 * The same screen and question for a hand-off `HandoffClient` has already checked, whatever wire
 * form carried it; `signal` aborts when the server withdraws it.
 */
export function askInteractionConsent(
  interaction: UrlInteraction,
  io: ConsentIo,
  signal: AbortSignal,
): Promise<ConsentAnswer> {
  const columns = io.columns?.();
  const policy = createConsentPolicy({
    confirm: async (question) => {
      const answer = await io.confirm(question);
      return answer === CANCELLED ? "cancel" : answer;
    },
    open: io.open,
    print: io.write,
    noBrowser: io.noBrowser,
    tty: io.tty === true,
    ...(columns === undefined ? {} : { columns }),
  });
  return policy(interaction, { signal, userDone: () => {} });
}
