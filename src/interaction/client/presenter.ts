/**
 * The user-facing half of `HandoffClient`: turning received hand-offs into `UrlInteraction`s (or
 * refusals), asking the one handler one hand-off at a time, and waiting for each accepted one to
 * finish, with status changes reported as they happen.
 */
import type { McpClient } from "../../client/index.js";
import type { InteractionStatus } from "../../model/interaction.js";
import { CompletionBoard, type WaitOutcome } from "./completions.js";
import {
  type InteractionAnswer,
  type InteractionHandler,
  type ReceivedHandoff,
  type RefusedHandoff,
  toUrlInteraction,
  type UrlInteraction,
} from "./interaction.js";
import type { HandoffHost, HandoffSource } from "./sources.js";

export interface PresenterOptions {
  client: McpClient;
  onInteraction: InteractionHandler;
  serverUrl: string | URL | undefined;
  /** ms to wait for completion after consent. */
  timeoutMs: number;
  onstatus: (interaction: UrlInteraction, status: InteractionStatus) => void;
  onrefused: (refused: RefusedHandoff) => void;
  /** Also told of the user's "done" (besides the waits here): a paced retry then goes now. */
  onUserDone?: (id: string) => void;
}

export class HandoffPresenter {
  readonly board = new CompletionBoard();
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: PresenterOptions) {}

  /** The interaction to show, or the refusal (reported to `onrefused`) when its URL is never opened. */
  prepare(handoff: ReceivedHandoff, source: "request" | "error"): UrlInteraction | RefusedHandoff {
    const info = this.options.client.serverInfo;
    const server = info ? { ...info } : { name: "", version: "" };
    const result = toUrlInteraction(handoff, server, source, this.options.serverUrl);
    if (isRefusal(result)) this.guard(() => this.options.onrefused(result));
    return result;
  }

  /** Asks the handler, one hand-off at a time, so that two questions never compete for the user. */
  ask(interaction: UrlInteraction, signal: AbortSignal): Promise<InteractionAnswer> {
    const run = async (): Promise<InteractionAnswer> => {
      if (signal.aborted) return "cancel";
      this.report(interaction, "pending");
      const userDone = () => {
        this.board.userDone(interaction.id);
        this.options.onUserDone?.(interaction.id);
      };
      const answer = await this.options.onInteraction(interaction, { signal, userDone });
      const final = answer === "accept" || answer === "cancel" ? answer : "decline";
      this.report(interaction, final === "accept" ? "accepted" : final === "cancel" ? "cancelled" : "declined");
      return final;
    };
    const result = this.queue.then(run, run);
    this.queue = result.catch(() => {});
    return result;
  }

  /**
   * Waits for an accepted hand-off: completion, the user's "done", the timeout or `signal`. The
   * source follows it meanwhile if it needs to; `stop` is aborted at the end, which tells the
   * handler the user is no longer needed. A `background` wait (nobody awaits it but the status
   * hook) does not keep the process alive.
   */
  async waitFor(
    source: HandoffSource,
    host: HandoffHost,
    handoff: ReceivedHandoff,
    interaction: UrlInteraction,
    stop: AbortController,
    options: { signal?: AbortSignal; background?: boolean } = {},
  ): Promise<WaitOutcome> {
    const waiting = this.board.wait(handoff.id, this.options.timeoutMs, options.signal, options.background);
    source.follow?.(handoff, host, stop.signal);
    const outcome = await waiting;
    stop.abort();
    if (outcome === "completed") this.report(interaction, "completed");
    if (outcome === "timeout") this.report(interaction, "expired");
    return outcome;
  }

  private report(interaction: UrlInteraction, status: InteractionStatus): void {
    this.guard(() => this.options.onstatus(interaction, status));
  }

  /** A failing hook must not break the hand-off; it is reported to the client's `onerror`. */
  private guard(hook: () => void): void {
    try {
      hook();
    } catch (error) {
      this.options.client.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
  }
}

export function isRefusal(prepared: UrlInteraction | RefusedHandoff): prepared is RefusedHandoff {
  return "ok" in prepared;
}
