/**
 * Page declines (see `PageDeclines`) noted where every instance of a fleet reads them
 * (`ExpiringNotes`, Redis for a fleet): the user declines on the page served by one instance, and
 * the client's retry, on whichever instance it lands, ends declined instead of handing the user
 * off again. Each note lapses at its interaction's deadline (`expiresAt`) and is taken once: two
 * retries of one session racing on two instances may both end declined.
 */
import type { UserInteraction } from "../model/interaction.js";
import type { ExpiringNotes } from "../stores/types.js";

const TAKEN = "taken";

export class SharedPageDeclines {
  readonly #notes: ExpiringNotes;
  readonly #now: () => number;

  /** @param now ms since the epoch, the clock of the interactions' `expiresAt`; default `Date.now`. */
  constructor(notes: ExpiringNotes, now: () => number = Date.now) {
    this.#notes = notes;
    this.#now = now;
  }

  /**
   * Notes `interaction` when the user declined it on the page and it asked for a credential.
   * @throws what the notes throw (SdkError "STORE_UNAVAILABLE" for a shared engine that is down).
   */
  async note(interaction: UserInteraction | undefined): Promise<void> {
    const provider = interaction?.purpose?.provider;
    if (interaction?.status !== "declined" || typeof provider !== "string") return;
    const ttlMs = interaction.expiresAt - this.#now();
    if (ttlMs <= 0) return;
    await this.#notes.put(keyOf(interaction.sessionId, provider), String(interaction.expiresAt), ttlMs);
  }

  /**
   * Whether a decline of `provider` on `sessionId` whose deadline has not passed is waiting; takes it.
   * @throws what the notes throw.
   */
  async take(sessionId: string, provider: string): Promise<boolean> {
    const key = keyOf(sessionId, provider);
    const noted = await this.#notes.get(key);
    if (noted === undefined || noted === TAKEN) return false;
    const deadline = Number(noted);
    const ttlMs = deadline - this.#now();
    if (!(ttlMs > 0)) return false;
    await this.#notes.put(key, TAKEN, ttlMs);
    return true;
  }
}

function keyOf(sessionId: string, provider: string): string {
  return `page-decline:${JSON.stringify([sessionId, provider])}`;
}
