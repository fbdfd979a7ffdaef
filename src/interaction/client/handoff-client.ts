/**
 * `HandoffClient`: every hand-off a server asks of the user, whatever wire form carries it,
 * reaches one handler as a `UrlInteraction`; requests that failed until a hand-off is done are
 * retried once it is (spec 2025-11-25: client/elicitation § URL Mode, § URL Elicitation Required
 * Error). The client only shows and hands over URLs; it never fetches them.
 */
import type {
  CallOptions,
  CallToolParams,
  CallToolResult,
  ElicitationHandler,
  GetPromptParams,
  GetPromptResult,
  McpClient,
  ReadResourceParams,
  ReadResourceResult,
} from "../../client/index.js";
import { SdkError } from "../../jsonrpc/errors.js";
import type { InteractionStatus } from "../../model/interaction.js";
import { UrlElicitationSource } from "./elicitation-source.js";
import { HandoffError } from "./errors.js";
import type {
  InteractionAnswer,
  InteractionHandler,
  ReceivedHandoff,
  RefusedHandoff,
  UrlInteraction,
} from "./interaction.js";
import { HandoffPresenter, isRefusal } from "./presenter.js";
import { type PacerClock, RoundPacer } from "./round-pacer.js";
import { RoundRefusals } from "./round-refusals.js";
import type { HandoffHost, HandoffSource } from "./sources.js";
import { UserInteractionSource } from "./user-interaction-source.js";

/** ms to wait for a hand-off to complete after the user accepted: 10 minutes. */
export const DEFAULT_HANDOFF_TIMEOUT_MS = 600_000;
/** Rounds of hand-offs one request may go through before `callWithHandoff` stops. */
export const DEFAULT_MAX_ROUNDS = 5;

export interface HandoffClientOptions {
  /** The one handler every hand-off reaches, one at a time. */
  onInteraction: InteractionHandler;
  /** The MCP server's URL (Streamable HTTP), when known: hand-offs to other domains are flagged. */
  serverUrl?: string | URL;
  /** ms to wait for completion or the user's "done" after consent; default 600,000 (10 minutes). */
  timeoutMs?: number;
  /** Rounds of hand-offs and retries for one request; default 5. */
  maxRounds?: number;
  /** Answers form-mode elicitations as well; without it only URL mode is declared. */
  formHandler?: ElicitationHandler;
  /**
   * Also take hand-offs in the user-interaction proposal's form (`interaction/create`, -32003,
   * `interaction/track`), declaring `userInteraction: { types: ["ua"] }`. Servers use it only where
   * URL-mode elicitation is not available. Default `true`.
   */
  userInteraction?: boolean;
  /** Further wire forms, after URL-mode elicitation and the user-interaction proposal. */
  sources?: readonly HandoffSource[];
  /**
   * ms between retries of a request whose hand-off page is open (stateless era, where the retry
   * is how the server learns the user finished). The first retry after consent goes at once, since
   * a server may hold it until the page is done; later ones start at least this long after the
   * previous one, unless `userDone` says the user finished. Default 2,000.
   */
  pollIntervalMs?: number;
  /** The clock for that pacing; default the system's. */
  clock?: PacerClock;
}

/** Options of `callWithHandoff`. */
export interface HandoffCallOptions {
  /** Aborting stops waiting and asking; the call rejects with the signal's reason. */
  signal?: AbortSignal;
}

export class HandoffClient {
  /** Each status change of a hand-off: pending → accepted | declined | cancelled → completed | expired. */
  onstatus?: (interaction: UrlInteraction, status: InteractionStatus) => void;
  /** A hand-off declined unasked because its URL is not one to open (`javascript:`, `file:`, ...). */
  onrefused?: (refused: RefusedHandoff) => void;

  private readonly presenter: HandoffPresenter;
  private readonly sources: readonly HandoffSource[];
  private readonly timeoutMs: number;
  private readonly pacer: RoundPacer;
  /** Pages the user refused in a call's input rounds, by the signal those rounds carry. */
  private readonly refusals = new RoundRefusals();

  /**
   * Installs the hand-off handlers on `client`, replacing its elicitation handler. Wrap the client
   * before `connect`, so that `initialize` declares URL-mode elicitation (and each source's capability).
   * @throws SdkError "ALREADY_CONNECTED" when `client` is connected already.
   */
  constructor(
    readonly client: McpClient,
    private readonly options: HandoffClientOptions,
  ) {
    if (client.isConnected) {
      throw new SdkError(
        "ALREADY_CONNECTED",
        "Wrap the client before connect, so that it declares URL-mode elicitation",
      );
    }
    this.timeoutMs = options.timeoutMs ?? DEFAULT_HANDOFF_TIMEOUT_MS;
    this.pacer = new RoundPacer(this.timeoutMs, options.pollIntervalMs, options.clock);
    this.presenter = new HandoffPresenter({
      client,
      onInteraction: options.onInteraction,
      serverUrl: options.serverUrl,
      timeoutMs: this.timeoutMs,
      onstatus: (interaction, status) => this.onstatus?.(interaction, status),
      onrefused: (refused) => this.onrefused?.(refused),
      onUserDone: (id) => void this.pacer.nudge(id),
    });
    this.sources = [
      new UrlElicitationSource(options.formHandler),
      ...(options.userInteraction === false ? [] : [new UserInteractionSource()]),
      ...(options.sources ?? []),
    ];
    for (const source of this.sources) source.install(client, this.hostFor(source));
  }

  /**
   * `tools/call` through {@link callWithHandoff}. On 2026-07-28, where the user's decline of a
   * page travels to the server on the retry, a call that then fails (`isError`, an error, or the
   * same page asked for again) ends with HandoffError "declined" or "cancelled" (the server's
   * answer in `cause`), as a declined -32042 does on 2025-11-25; a result the tool produced
   * anyway is returned.
   */
  callTool(params: CallToolParams, options?: CallOptions): Promise<CallToolResult> {
    return this.refusals.run(
      options,
      (own) => this.callWithHandoff(() => this.client.callTool(params, own), signalOf(options)),
      (result) => result.isError === true,
    );
  }

  /** `resources/read` through {@link callWithHandoff}; a declined page ends it as for `callTool`. */
  readResource(params: ReadResourceParams, options?: CallOptions): Promise<ReadResourceResult> {
    return this.refusals.run(
      options,
      (own) => this.callWithHandoff(() => this.client.readResource(params, own), signalOf(options)),
      () => false,
    );
  }

  /** `prompts/get` through {@link callWithHandoff}; a declined page ends it as for `callTool`. */
  getPrompt(params: GetPromptParams, options?: CallOptions): Promise<GetPromptResult> {
    return this.refusals.run(
      options,
      (own) => this.callWithHandoff(() => this.client.getPrompt(params, own), signalOf(options)),
      () => false,
    );
  }

  /**
   * Runs `call`. When it fails because hand-offs are required (-32042, -32003, or another source's error), each
   * is put to the handler in turn and awaited (completion from the server, {@link userDone}, or
   * the timeout); then `call` runs again, once per round.
   * @throws HandoffError "declined" | "cancelled" | "refused" (SdkError code "REQUEST_CANCELLED"),
   *   "timeout" ("REQUEST_TIMEOUT"), "loop" ("INVALID_RESULT": the same URL was asked for again
   *   right after a retry, or more than `maxRounds` rounds); the abort reason of `options.signal`;
   *   anything else `call` throws.
   */
  async callWithHandoff<T>(call: () => Promise<T>, options: HandoffCallOptions = {}): Promise<T> {
    const maxRounds = this.options.maxRounds ?? DEFAULT_MAX_ROUNDS;
    let previous = new Set<string>();
    for (let round = 1; ; round++) {
      let error: unknown;
      try {
        return await call();
      } catch (caught) {
        error = caught;
      }
      const required = this.required(error);
      if (!required || required.handoffs.length === 0) throw error;
      const again = required.handoffs.find((handoff) => previous.has(handoff.url));
      if (again !== undefined) {
        throw new HandoffError(
          "loop",
          `The server asked again for the same page on ${hostOf(again.url)} right after it was done; not retrying again`,
          { cause: error },
        );
      }
      if (round > maxRounds) {
        throw new HandoffError(
          "loop",
          `The server still asks for hand-offs after ${maxRounds} rounds; not retrying again`,
          { cause: error },
        );
      }
      previous = new Set(required.handoffs.map((handoff) => handoff.url));
      for (const handoff of required.handoffs) await this.satisfy(required.source, handoff, error, options.signal);
    }
  }

  /**
   * The user says they finished hand-off `id` in the browser: its wait ends now (a waiting request
   * is retried). @returns whether anything was waiting for it.
   */
  userDone(id: string): boolean {
    const paced = this.pacer.nudge(id);
    return this.presenter.board.userDone(id) || paced;
  }

  private hostFor(source: HandoffSource): HandoffHost {
    const host: HandoffHost = {
      present: (handoff, signal) => this.presentDuringRequest(source, host, handoff, signal),
      complete: (id) => this.presenter.board.complete(id),
      presentInRound: (handoff, waiting, signal) => this.presentInRound(source, host, handoff, waiting, signal),
    };
    return host;
  }

  /** A hand-off in an `InputRequiredResult`: asked once per call and URL, then each retry paced. */
  private async presentInRound(
    source: HandoffSource,
    host: HandoffHost,
    handoff: ReceivedHandoff,
    waiting: boolean,
    signal: AbortSignal,
  ): Promise<InteractionAnswer> {
    if (!waiting) {
      const answer = await this.presentDuringRequest(source, host, handoff, signal);
      if (answer !== "accept") {
        this.refusals.note(signal, answer, handoff.url);
        return answer;
      }
      this.pacer.started(handoff.id);
    }
    return (await this.pacer.pace(handoff.id, signal)) === "expired" ? "cancel" : "accept";
  }

  private required(error: unknown): { source: HandoffSource; handoffs: ReceivedHandoff[] } | undefined {
    for (const source of this.sources) {
      const handoffs = source.required(error);
      if (handoffs) return { source, handoffs };
    }
    return undefined;
  }

  /** A hand-off the server asked for in a request: the answer goes back at once, the wait runs on. */
  private async presentDuringRequest(
    source: HandoffSource,
    host: HandoffHost,
    handoff: ReceivedHandoff,
    serverSignal: AbortSignal,
  ): Promise<InteractionAnswer> {
    const interaction = this.presenter.prepare(handoff, "request");
    if (isRefusal(interaction)) return "decline";
    const stop = new AbortController();
    const answer = await this.presenter.ask(interaction, AbortSignal.any([serverSignal, stop.signal]));
    if (answer !== "accept") {
      stop.abort();
      return answer;
    }
    void this.presenter.waitFor(source, host, handoff, interaction, stop, { background: true });
    return "accept";
  }

  /** A hand-off an error asked for: resolves once it is done; throws when it will not be. */
  private async satisfy(source: HandoffSource, handoff: ReceivedHandoff, cause: unknown, signal?: AbortSignal) {
    const { board } = this.presenter;
    if (board.hasCompleted(handoff.id)) {
      await board.wait(handoff.id, 0);
      return;
    }
    const interaction = this.presenter.prepare(handoff, "error");
    if (isRefusal(interaction)) {
      throw new HandoffError("refused", `The server asked to open a URL that is never opened: ${interaction.reason}`, {
        cause,
      });
    }
    const stop = new AbortController();
    const answer = await this.presenter.ask(interaction, signal ? AbortSignal.any([signal, stop.signal]) : stop.signal);
    if (signal?.aborted) throw signal.reason;
    if (answer !== "accept") {
      stop.abort();
      const reason = answer === "cancel" ? "cancelled" : "declined";
      const message = `The user ${reason} opening ${interaction.host}; the request was not retried`;
      throw new HandoffError(reason, message, { cause, interaction });
    }
    const outcome = await this.presenter.waitFor(source, this.hostFor(source), handoff, interaction, stop, { signal });
    if (outcome === "aborted") throw signal?.reason ?? new SdkError("REQUEST_CANCELLED", "Cancelled");
    if (outcome === "timeout") {
      const message = `The page on ${interaction.host} was not done within ${this.timeoutMs} ms; the request was not retried`;
      throw new HandoffError("timeout", message, { cause, interaction });
    }
  }
}

function signalOf(options: CallOptions | undefined): HandoffCallOptions {
  return options?.signal ? { signal: options.signal } : {};
}

function hostOf(url: string): string {
  return URL.canParse(url) ? new URL(url).host : "an unparsable URL";
}
