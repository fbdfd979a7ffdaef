/**
 * The default terminal handler for hand-offs: show the consent text, ask, and only after a yes
 * open the system browser (or print the URL). The URL is never fetched here.
 */
import { renderInteraction } from "./consent-text.js";
import type { InteractionAnswer, InteractionHandler, UrlInteraction } from "./interaction.js";
import { printableLine } from "./printable.js";

export interface ConsentPolicyOptions {
  /**
   * Asks a yes/no question; `"cancel"` when the user dismissed it (Ctrl-C, Escape) or `signal`
   * aborted. Default: a terminal prompt on stderr (`@clack/prompts`).
   */
  confirm?: (
    question: string,
    ctx: { signal: AbortSignal; interaction: UrlInteraction },
  ) => Promise<boolean | "cancel">;
  /** Opens a URL in the system browser; rejects when it cannot. Default: the `open` package. */
  open?: (url: string) => Promise<void>;
  /** Shows text to the user. Default: stderr. */
  print?: (text: string) => void;
  /** Print the URL for the user to open instead of opening a browser. */
  noBrowser?: boolean;
  /**
   * Whether `print` writes to a terminal, so the registrable domain may be set in ANSI bold.
   * Default: `process.stderr.isTTY` when `print` is the default, `false` otherwise.
   */
  tty?: boolean;
}

/**
 * A handler for `HandoffClient` that asks at the terminal: it prints the server, the full URL with
 * its registrable domain highlighted, and every warning; asks for consent; on yes opens the
 * browser, or prints the URL with `noBrowser` or when no browser opens, and answers `accept`.
 * No answers `decline`, a dismissed question `cancel`; nothing is opened then.
 */
export function createConsentPolicy(options: ConsentPolicyOptions = {}): InteractionHandler {
  const print = options.print ?? ((text: string) => void process.stderr.write(text));
  const tty = options.tty ?? (options.print === undefined && process.stderr.isTTY === true);
  const confirm = options.confirm ?? terminalConfirm;
  const open = options.open ?? openInBrowser;
  const noBrowser = options.noBrowser === true;

  return async (interaction, ctx): Promise<InteractionAnswer> => {
    print(`\n${renderInteraction(interaction, { bold: tty })}\n`);
    const question = noBrowser ? "Continue? You will open the page yourself" : "Open it in your browser?";
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

async function terminalConfirm(question: string, ctx: { signal: AbortSignal }): Promise<boolean | "cancel"> {
  const clack = await import("@clack/prompts");
  const answer = await clack.confirm({
    message: question,
    initialValue: false,
    output: process.stderr,
    signal: ctx.signal,
  });
  return clack.isCancel(answer) ? "cancel" : answer;
}

async function openInBrowser(url: string): Promise<void> {
  const { default: open } = await import("open");
  await open(url);
}
