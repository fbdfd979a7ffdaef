/**
 * How the command answers what a server asks of the user: form and URL elicitations during a
 * request, and the URL elicitations a -32042 error says must happen before a retry. Questions
 * are asked one at a time, and whether the user declined anything is remembered for the exit code.
 */
import type { ElicitationParams, ElicitResult, Implementation, ServerRequestContext } from "../client/types.js";
import { ErrorCode, ProtocolError, type UrlElicitation } from "../jsonrpc/errors.js";
import type { ClientSetup } from "./client.js";
import { askUrlConsent, type ConsentIo } from "./consent.js";
import { CliError, ExitCode } from "./exit-codes.js";
import { FormSchemaError } from "./form-fields.js";
import { promptForm } from "./form-prompt.js";
import type { CliIo } from "./io.js";
import { CANCELLED, type Prompter } from "./prompter.js";
import { printable, serverLabel } from "./text.js";

export class Interactions {
  /** Whether the user declined or cancelled anything a server asked for. */
  declined = false;
  private readonly completed = new Set<string>();
  private readonly waiters = new Map<string, (() => void)[]>();
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly io: CliIo,
    private readonly noBrowser: boolean,
    /** The server's URL when it is reached over HTTP: pages on other domains are flagged. */
    private readonly serverUrl?: URL,
  ) {}

  /** The handlers to give the client. */
  setup(): ClientSetup {
    return {
      elicitationHandler: (params, ctx) => this.oneAtATime(() => this.answer(params, ctx)),
      onElicitationComplete: (id) => this.complete(id),
    };
  }

  /** Records that the server finished a URL-mode elicitation, waking whoever waits for it. */
  complete(elicitationId: string): void {
    this.completed.add(elicitationId);
    for (const wake of this.waiters.get(elicitationId) ?? []) wake();
    this.waiters.delete(elicitationId);
  }

  /**
   * Takes the user through the URL-mode elicitations of a -32042 error, one by one: consent,
   * browser, then waiting until the server reports completion or the user says they are done.
   * @throws CliError with exit code 5 when the user declines, cancels or gives up, or cannot be asked.
   */
  satisfy(elicitations: readonly UrlElicitation[], server: Implementation | undefined): Promise<void> {
    return this.oneAtATime(async () => {
      for (const elicitation of elicitations) {
        if (this.completed.has(elicitation.elicitationId)) continue;
        const { message, url } = elicitation;
        if (!this.io.interactive) {
          this.declined = true;
          throw new CliError(
            ExitCode.Declined,
            `${serverLabel(server)} needs you to open a page first, but stdin is not a terminal:\n  ${printable(message)}\n  ${printable(url)}`,
          );
        }
        const answer = await askUrlConsent(
          { server, message, url, id: elicitation.elicitationId, source: "error", ...this.where() },
          this.consentIo(this.io.prompter),
        );
        if (answer !== "accept") {
          this.declined = true;
          throw new CliError(ExitCode.Declined, answer === "cancel" ? "Cancelled." : "Declined.");
        }
        await this.untilDone(elicitation.elicitationId);
      }
    });
  }

  private async answer(params: ElicitationParams, ctx: ServerRequestContext): Promise<ElicitResult> {
    const server = ctx.serverInfo;
    if (!this.io.interactive) {
      this.declined = true;
      const what = params.mode === "url" ? "you to open a page" : "information";
      this.io.stderr(
        `${serverLabel(server)} asked for ${what}, but stdin is not a terminal, so it was declined:\n  ${printable(params.message)}\n`,
      );
      return { action: "decline" };
    }
    const prompter = withSignal(this.io.prompter, ctx.signal);
    let result: ElicitResult;
    if (params.mode === "url") {
      const action = await askUrlConsent(
        { server, message: params.message, url: params.url, id: params.elicitationId, ...this.where() },
        this.consentIo(prompter),
      );
      if (action === "accept") {
        this.io.stderr(`Waiting for ${serverLabel(server)} to finish…\n`);
        void this.waitFor(params.elicitationId).then(() =>
          this.io.stderr(`${serverLabel(server)} reports the page is done.\n`),
        );
      }
      result = { action };
    } else {
      try {
        result = await promptForm(params, server, { prompter, write: this.io.stderr });
      } catch (error) {
        if (error instanceof FormSchemaError) throw new ProtocolError(ErrorCode.InvalidParams, error.message);
        throw error;
      }
    }
    // A prompt closed because the server withdrew its request is not the user's refusal.
    if (result.action !== "accept" && !ctx.signal.aborted) this.declined = true;
    return result;
  }

  /** Resolves once the server completes `elicitationId`, or the user confirms they are done. */
  private async untilDone(elicitationId: string): Promise<void> {
    const stop = new AbortController();
    const completed = this.waitFor(elicitationId).then(() => "completed" as const);
    const confirmed = this.io.prompter.confirm({
      message: "Done in the browser? Yes retries now; it also retries by itself when the server says so",
      initialValue: true,
      signal: stop.signal,
    });
    const outcome = await Promise.race([completed, confirmed]);
    stop.abort();
    if (outcome === "completed") {
      this.io.stderr("The server reports the page is done; retrying.\n");
      return;
    }
    if (outcome === CANCELLED || !outcome) {
      this.declined = true;
      throw new CliError(ExitCode.Declined, "Gave up waiting for the page.");
    }
  }

  private waitFor(elicitationId: string): Promise<void> {
    if (this.completed.has(elicitationId)) return Promise.resolve();
    return new Promise((resolve) => {
      this.waiters.set(elicitationId, [...(this.waiters.get(elicitationId) ?? []), resolve]);
    });
  }

  private consentIo(prompter: Prompter): ConsentIo {
    return {
      confirm: (message) => prompter.confirm({ message, initialValue: false }),
      open: this.io.open,
      write: this.io.stderr,
      noBrowser: this.noBrowser,
      tty: this.io.tty === true,
    };
  }

  private where(): { serverUrl?: URL } {
    return this.serverUrl === undefined ? {} : { serverUrl: this.serverUrl };
  }

  /** Runs `task` after every earlier one has settled, so two questions never share the terminal. */
  private oneAtATime<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
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
