/**
 * How the command answers what a server asks of the user: forms, and hand-offs to a web page in
 * whatever wire form `HandoffClient` received them. Questions are asked one at a time, and
 * whether the user declined anything is remembered for the exit code.
 */
import type { ElicitationParams, ElicitResult, ServerRequestContext } from "../client/types.js";
import type {
  InteractionAnswer,
  InteractionContext,
  RefusedHandoff,
  RenderOptions,
  UrlInteraction,
} from "../interaction/client/index.js";
import { renderInteraction, renderRefusal } from "../interaction/client/index.js";
import { ErrorCode, ProtocolError } from "../jsonrpc/errors.js";
import type { InteractionStatus } from "../model/interaction.js";
import { type Activity, lineActivity } from "./activity.js";
import type { ClientSetup } from "./client.js";
import { askInteractionConsent, type ConsentIo } from "./consent.js";
import { CliError, ExitCode } from "./exit-codes.js";
import { FormSchemaError } from "./form-fields.js";
import { promptForm } from "./form-prompt.js";
import type { CliIo } from "./io.js";
import type { Prompter } from "./prompter.js";
import { printable, serverLabel } from "./text.js";

export class Interactions {
  /** Whether the user declined or cancelled anything a server asked for. */
  declined = false;
  /**
   * Whether the server speaks 2026-07-28, where a hand-off comes in an `InputRequiredResult` and
   * the client's retry is how the server learns the page is done: the user is asked whether they
   * are done, as for a hand-off error. Set once connected.
   */
  inputRounds = false;
  /** Aborted when the user gives up waiting for a page, or interrupts the command. */
  private readonly stop = new AbortController();
  /** Aborted once the command is over: a "done?" question still open is closed. */
  private readonly ended = new AbortController();
  private queue: Promise<unknown> = Promise.resolve();
  /** Settles once the latest "done?" question has closed. */
  private asking: Promise<unknown> = Promise.resolve();
  /** Ends the wait shown for each page the server will report on. */
  private readonly waits = new Map<UrlInteraction, (outcome: string) => void>();

  constructor(
    private readonly io: CliIo,
    private readonly noBrowser: boolean,
    /** The server's URL when it is reached over HTTP: pages on other domains are flagged. */
    private readonly serverUrl?: URL,
    /** Where the wait for a page is shown; cleared before each question. */
    private readonly activity: Activity = lineActivity(io.stderr, false),
  ) {
    io.signal?.addEventListener("abort", () => this.stop.abort(new CliError(ExitCode.Declined, "Interrupted.")), {
      once: true,
    });
  }

  /** The handlers to give the client. */
  setup(): ClientSetup {
    return {
      onInteraction: (interaction, ctx) => this.oneAtATime(() => this.present(interaction, ctx)),
      formHandler: (params, ctx) => this.oneAtATime(() => this.answerForm(params, ctx)),
      onstatus: (interaction, status) => this.status(interaction, status),
      onrefused: (refused) => this.refused(refused),
      onElicitationRefused: (_reason, ctx) => this.formRefused(ctx.serverInfo),
      ...(this.serverUrl === undefined ? {} : { serverUrl: this.serverUrl }),
    };
  }

  /**
   * The command is over: closes a question still waiting for the user, and resolves once it has
   * been taken off the terminal.
   */
  async finish(): Promise<void> {
    this.ended.abort();
    await this.asking;
  }

  /**
   * The signal for `callWithHandoff`: aborted (with a CliError, exit code 5) when the user gives up
   * waiting for a page or interrupts the command.
   */
  get signal(): AbortSignal {
    return this.stop.signal;
  }

  private async present(interaction: UrlInteraction, ctx: InteractionContext): Promise<InteractionAnswer> {
    const server = serverLabel(interaction.server);
    if (!this.io.interactive) {
      this.declined = true;
      this.io.stderr(
        `\n${renderInteraction(interaction, this.layout())}\n  Declined: stdin is not a terminal, so you could not be asked.\n`,
      );
      return "decline";
    }
    const answer = await askInteractionConsent(
      interaction,
      this.consentIo(withSignal(this.io.prompter, ctx.signal)),
      ctx.signal,
    );
    if (answer !== "accept") {
      // A prompt closed because the server withdrew its request is not the user's refusal.
      if (!ctx.signal.aborted) this.declined = true;
      return answer;
    }
    if (interaction.source === "error" || this.inputRounds) this.askWhenDone(ctx);
    else this.waitFor(interaction, ctx, server);
    return "accept";
  }

  /**
   * While a request waits for a page, asks whether the user is done: yes retries at once, no gives
   * up. The question closes by itself when the server reports completion.
   */
  private askWhenDone(ctx: InteractionContext): void {
    const signal = AbortSignal.any([ctx.signal, this.ended.signal]);
    const by = this.inputRounds ? "every few seconds" : "when the server says so";
    // Asked once the current turn is over: by then the wait that `userDone` ends has begun, so a
    // quick yes is not lost.
    const asked = new Promise((resolve) => setImmediate(resolve))
      .then(() =>
        // Over before it was asked (the retry answered at once): nothing to ask.
        signal.aborted
          ? undefined
          : this.io.prompter.confirm({
              message: `Done in the browser? Yes retries now; it also retries by itself ${by}`,
              initialValue: true,
              signal,
            }),
      )
      .then((done) => {
        if (signal.aborted) return;
        if (done === true) {
          ctx.userDone();
          return;
        }
        this.declined = true;
        this.stop.abort(new CliError(ExitCode.Declined, "Gave up waiting for the page."));
      });
    this.asking = asked.catch(() => {});
  }

  /**
   * The server will say when the page is done: a spinner with the time spent, ended by its word,
   * by the server withdrawing the request, or by the end of the command.
   */
  private waitFor(interaction: UrlInteraction, ctx: InteractionContext, server: string): void {
    const stop = this.activity.waiting(`Waiting for ${server} to finish in the browser`);
    let ended = false;
    const end = (outcome: string) => {
      if (ended) return;
      ended = true;
      this.waits.delete(interaction);
      stop(outcome);
    };
    this.waits.set(interaction, end);
    // No longer needed (withdrawn, done, given up) or the command is over: the spinner goes quietly.
    ctx.signal.addEventListener("abort", () => end(""), { once: true });
    this.ended.signal.addEventListener("abort", () => end(""), { once: true });
  }

  private status(interaction: UrlInteraction, status: InteractionStatus): void {
    if (status !== "completed") return;
    const said =
      interaction.source === "error"
        ? "The server reports the page is done; retrying."
        : `${serverLabel(interaction.server)} reports the page is done.`;
    const wait = this.waits.get(interaction);
    if (wait !== undefined) wait(said);
    else this.io.stderr(`${said}\n`);
  }

  private refused(refused: RefusedHandoff): void {
    this.declined = true;
    this.io.stderr(`\n${renderRefusal(refused, this.layout())}\n`);
  }

  /**
   * The client refused a form that carried a link (-32602, nothing asked): a link in a form is how
   * a server would lure the user to a page without the consent screen.
   */
  private formRefused(server: ServerRequestContext["serverInfo"]): void {
    this.declined = true;
    this.io.stderr(
      `${serverLabel(server)} put a link into a request for information; a form must not carry one, so it was refused unasked.\n`,
    );
  }

  private async answerForm(params: ElicitationParams, ctx: ServerRequestContext): Promise<ElicitResult> {
    const server = ctx.serverInfo;
    if (!this.io.interactive) {
      this.declined = true;
      this.io.stderr(
        `${serverLabel(server)} asked for information, but stdin is not a terminal, so it was declined:\n  ${printable(params.message)}\n`,
      );
      return { action: "decline" };
    }
    if (params.mode === "url") return { action: "decline" };
    let result: ElicitResult;
    try {
      result = await promptForm(params, server, {
        prompter: withSignal(this.io.prompter, ctx.signal),
        write: this.io.stderr,
      });
    } catch (error) {
      if (error instanceof FormSchemaError) throw new ProtocolError(ErrorCode.InvalidParams, error.message);
      throw error;
    }
    if (result.action !== "accept" && !ctx.signal.aborted) this.declined = true;
    return result;
  }

  private consentIo(prompter: Prompter): ConsentIo {
    const columns = this.io.columns;
    return {
      confirm: (message) => prompter.confirm({ message, initialValue: false }),
      open: this.io.open,
      write: this.io.stderr,
      noBrowser: this.noBrowser,
      tty: this.io.tty === true,
      ...(columns === undefined ? {} : { columns }),
    };
  }

  /** The consent screen's layout for stderr: its width when it is a terminal. */
  private layout(): RenderOptions {
    const columns = this.io.columns?.();
    return columns === undefined ? {} : { columns };
  }

  /** Runs `task` after every earlier one has settled, so two questions never share the terminal. */
  private oneAtATime<T>(task: () => Promise<T>): Promise<T> {
    const asked = () => {
      this.activity.pause();
      return task();
    };
    const run = this.queue.then(asked, asked);
    this.queue = run.catch(() => {});
    return run;
  }
}

/** A prompter whose prompts close when `signal` aborts (the server cancelled its request). */
function withSignal(prompter: Prompter, signal: AbortSignal): Prompter {
  return {
    text: (prompt) => prompter.text({ ...prompt, signal }),
    confirm: (prompt) => prompter.confirm({ ...prompt, signal }),
    select: (prompt) => prompter.select({ ...prompt, signal }),
    multiselect: (prompt) => prompter.multiselect({ ...prompt, signal }),
  };
}
