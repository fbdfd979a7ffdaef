/**
 * What a retried request (revision 2025-11-25, after error -32042) learns of a page the user
 * declined: the session that owns the interaction hears of the decline (the manager's
 * `watchSession`) before its client is told to retry (`notifications/elicitation/complete`); it is
 * noted here, and the next `ctx.credentials.require` for the same provider on that session that
 * would hand the user off again ends declined instead. Each decline is taken once, and only until
 * its interaction's deadline (`expiresAt`): a call after it is a new request, and may ask again.
 * At most `MAX_NOTED` sessions and providers are kept, and as many declines of each, the oldest
 * dropped first.
 */
import type { UserInteraction } from "../model/interaction.js";

/** Declines kept at most (of sessions whose client has not retried yet): 1,000. */
export const MAX_NOTED = 1000;

export class PageDeclines {
  /** `[session id, provider]` as JSON → the deadlines (ms since the epoch) of the declines waiting for that retry. */
  readonly #noted = new Map<string, number[]>();
  readonly #now: () => number;

  /** @param now ms since the epoch, the clock of the interactions' `expiresAt`; default `Date.now`. */
  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** Notes `interaction` when the user declined it on the page and it asked for a credential. */
  note(interaction: UserInteraction | undefined): void {
    const provider = interaction?.purpose?.provider;
    if (interaction?.status !== "declined" || typeof provider !== "string") return;
    const key = JSON.stringify([interaction.sessionId, provider]);
    const now = this.#now();
    // Those past their deadline go, and one session and provider keeps at most MAX_NOTED too.
    const deadlines = (this.#noted.get(key) ?? []).filter((deadline) => now < deadline).slice(1 - MAX_NOTED);
    deadlines.push(interaction.expiresAt);
    this.#noted.set(key, deadlines);
    if (this.#noted.size > MAX_NOTED) this.#noted.delete(this.#noted.keys().next().value as string);
  }

  /** Whether a decline of `provider` on `sessionId` whose deadline has not passed is waiting; takes it. */
  take(sessionId: string, provider: string): boolean {
    const key = JSON.stringify([sessionId, provider]);
    const now = this.#now();
    const open = (this.#noted.get(key) ?? []).filter((deadline) => now < deadline);
    const taken = open.shift() !== undefined;
    if (open.length > 0) this.#noted.set(key, open);
    else this.#noted.delete(key);
    return taken;
  }
}
