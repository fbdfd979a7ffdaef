/**
 * The default terminal handler for hand-offs: show the consent text, ask, and only after a yes
 * open the system browser (or print the URL). The URL is never fetched here. Its defaults use Node
 * alone: the CLI's prompt and browser-opening packages are passed in by the CLI, never imported here.
 */
import { createInterface } from "node:readline/promises";
import { type RenderOptions, renderInteraction, renderRefusal } from "./consent-text.js";
import type { InteractionAnswer, InteractionHandler, UrlInteraction } from "./interaction.js";
import { printableLine } from "./printable.js";

export interface ConsentPolicyOptions {
  /**
   * Asks a yes/no question; `"cancel"` when the user dismissed it (Ctrl-C, Escape) or `signal`
   * aborted. Default: a `[y/N]` question on stderr, answered by a line on stdin (`node:readline`);
   * stdin ending unanswered, or ended before the question, is `"cancel"`.
   */
  confirm?: (
    question: string,
    ctx: { signal: AbortSignal; interaction: UrlInteraction },
  ) => Promise<boolean | "cancel">;
  /**
   * Opens a URL in the system browser; rejects when it cannot. Without it the URL is printed for the
   * user to open, as with `noBrowser`; pass, for example, `(url) => open(url).then(() => {})` with
   * the `open` package to open the browser.
   */
  open?: (url: string) => Promise<void>;
  /** Shows text to the user. Default: stderr. */
  print?: (text: string) => void;
  /** Print the URL for the user to open instead of opening a browser. */
  noBrowser?: boolean;
  /**
   * Whether `print` writes to a terminal, so the client's labels, the host and the registrable
   * domain may be set in ANSI bold. Default: `process.stderr.isTTY` when `print` is the default,
   * `false` otherwise.
   */
  tty?: boolean;
  /**
   * The width of the terminal `print` writes to, in columns: the server's text is wrapped to it so
   * that no row the terminal wraps starts at the left edge. Default: `process.stderr.columns` when
   * `print` is the default and stderr a terminal, else 80.
   */
  columns?: number;
  /**
   * A page whose registrable domain differs from the MCP server's (spec 2025-11-25:
   * client/elicitation § Safe URL Handling; the `other-domain` warning of `inspectUrl`):
   * - `"warn"` (default): shown with that warning, and the user is asked;
   * - `"refuse"`: declined without asking, the screen saying why. The server's domain is the
   *   registrable domain of `HandoffClient`'s `serverUrl` (IP literals and `localhost` compare as
   *   the whole host, so `localhost` and `127.0.0.1` differ). Without a server URL (a server over
   *   stdio, or `serverUrl` not given) nothing can be compared, and every page is refused.
   */
  otherDomain?: "warn" | "refuse";
}

/**
 * A handler for `HandoffClient` that asks at the terminal: it prints the server, the full URL with
 * its registrable domain highlighted, and every warning; asks for consent, the question naming the
 * page's host; on yes opens the
 * browser, or prints the URL with `noBrowser` or when no browser opens, and answers `accept`.
 * No answers `decline`, a dismissed question `cancel`; nothing is opened then. With
 * `otherDomain: "refuse"` a page off the server's registrable domain is declined unasked.
 */
export function createConsentPolicy(options: ConsentPolicyOptions = {}): InteractionHandler {
  const print = options.print ?? ((text: string) => void process.stderr.write(text));
  const tty = options.tty ?? (options.print === undefined && process.stderr.isTTY === true);
  const confirm = options.confirm ?? lineConfirm;
  const open = options.open;
  const noBrowser = options.noBrowser === true || open === undefined;

  const otherDomain = options.otherDomain ?? "warn";
  // Read at each hand-off: the terminal may have been resized since.
  const layout = (): RenderOptions => {
    const columns = options.columns ?? (options.print === undefined ? process.stderr.columns : undefined);
    return columns === undefined ? { bold: tty } : { bold: tty, columns };
  };

  return async (interaction, ctx): Promise<InteractionAnswer> => {
    const refusal = otherDomain === "refuse" ? domainRefusal(interaction) : undefined;
    if (refusal !== undefined) {
      print(`\n${renderRefusal({ ...interaction, ok: false, reason: refusal }, layout())}\n`);
      return "decline";
    }
    print(`\n${renderInteraction(interaction, layout())}\n`);
    // The host again, in the question: a URL long enough to scroll the Host row off the screen
    // leaves only its own end there, which the server may fill with look-alike names.
    const host = printableLine(interaction.host);
    const question = noBrowser
      ? `Continue? You will open the page yourself (on ${host})`
      : `Open the page on ${host} in your browser?`;
    const answer = await confirm(question, { signal: ctx.signal, interaction });
    if (answer === "cancel") return "cancel";
    if (answer !== true) return "decline";
    if (noBrowser) {
      print(`Open this page in your browser:\n  ${interaction.url}\n`);
      return "accept";
    }
    try {
      await open(interaction.url);
      print("Opening the page in your browser. If nothing opens, visit the URL above.\n");
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      print(`Could not open a browser (${printableLine(reason)}). Open this page yourself:\n  ${interaction.url}\n`);
    }
    return "accept";
  };
}

/** Why a page is not on the server's registrable domain, or `undefined` when it is. */
function domainRefusal(interaction: UrlInteraction): string | undefined {
  const { serverDomain, registrableDomain } = interaction;
  if (serverDomain === undefined) {
    return "The server's own domain is not known (it is not reached over HTTP), so the page's domain cannot be compared with it.";
  }
  if (serverDomain === registrableDomain) return undefined;
  return `The page is on ${registrableDomain}, not on the server's own domain ${serverDomain}, and this client opens only pages on the server's domain.`;
}

/** A `[y/N]` question on stderr, read from stdin: `y` or `yes` is yes, anything else no. */
async function lineConfirm(question: string, ctx: { signal: AbortSignal }): Promise<boolean | "cancel"> {
  if (ctx.signal.aborted) return "cancel";
  const input = process.stdin;
  // Ended before: readline would wait for an end that has already been reported.
  if (input.readableEnded || input.destroyed) return "cancel";
  const lines = createInterface({ input, output: process.stderr });
  const ended = new Promise<"cancel">((resolve) => lines.once("close", () => resolve("cancel")));
  try {
    const answer = await Promise.race([lines.question(`${question} [y/N] `, { signal: ctx.signal }), ended]);
    if (answer === "cancel") return "cancel";
    return /^\s*y(es)?\s*$/i.test(answer);
  } catch (error) {
    if (ctx.signal.aborted) return "cancel";
    throw error;
  } finally {
    lines.close();
  }
}
