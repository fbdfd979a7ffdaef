/**
 * What a retried request (revision 2025-11-25, after error -32042) learns of a page the user
 * declined: the session that owns the interaction hears of the decline (the manager's
 * `watchSession`) before its client is told to retry (`notifications/elicitation/complete`); it is
 * noted here, and the next `ctx.credentials.require` for the same provider on that session ends
 * declined instead of handing the user off again. Each decline is taken once, so a later call may
 * ask again; at most `MAX_NOTED` are kept, the oldest dropped first.
 */
import type { UserInteraction } from "../model/interaction.js";

/** Declines kept at most (of sessions whose client has not retried yet): 1,000. */
export const MAX_NOTED = 1000;

export class PageDeclines {
  /** `[session id, provider]` as JSON → how many declines are waiting for that retry. */
  readonly #noted = new Map<string, number>();

  /** Notes `interaction` when the user declined it on the page and it asked for a credential. */
  note(interaction: UserInteraction | undefined): void {
    const provider = interaction?.purpose?.provider;
    if (interaction?.status !== "declined" || typeof provider !== "string") return;
    const key = JSON.stringify([interaction.sessionId, provider]);
    this.#noted.set(key, (this.#noted.get(key) ?? 0) + 1);
    if (this.#noted.size > MAX_NOTED) this.#noted.delete(this.#noted.keys().next().value as string);
  }

  /** Whether a decline of `provider` on `sessionId` is waiting; takes it. */
  take(sessionId: string, provider: string): boolean {
    const key = JSON.stringify([sessionId, provider]);
    const count = this.#noted.get(key);
    if (count === undefined) return false;
    if (count > 1) this.#noted.set(key, count - 1);
    else this.#noted.delete(key);
    return true;
  }
}
