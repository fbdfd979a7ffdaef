/**
 * Waiting for a hand-off to finish: the server's completion (a notification, or progress of a
 * tracked interaction), the user saying they are done, a timeout, or the caller giving up. The
 * spec says completion may never arrive, so a wait always ends (client/elicitation § Completion).
 */

/** How a wait ended. */
export type WaitOutcome = "completed" | "done" | "timeout" | "aborted";

/** Completions nobody waited for yet are kept, this many at most, for a wait that starts late. */
const EARLY_COMPLETIONS = 256;

export class CompletionBoard {
  private readonly early = new Set<string>();
  private readonly waiting = new Map<string, (outcome: WaitOutcome) => void>();

  /** The server reports `id` finished. */
  complete(id: string): void {
    const finish = this.waiting.get(id);
    if (finish) {
      finish("completed");
      return;
    }
    this.early.add(id);
    if (this.early.size > EARLY_COMPLETIONS) {
      const oldest = this.early.values().next().value;
      if (oldest !== undefined) this.early.delete(oldest);
    }
  }

  /** Whether the server already reported `id` finished and no wait has used that yet. */
  hasCompleted(id: string): boolean {
    return this.early.has(id);
  }

  /** The user says `id` is done. @returns whether a wait was ended by it. */
  userDone(id: string): boolean {
    const finish = this.waiting.get(id);
    finish?.("done");
    return finish !== undefined;
  }

  /** Whether something waits for `id`. */
  isWaiting(id: string): boolean {
    return this.waiting.has(id);
  }

  /**
   * Waits for `id` to complete, for at most `timeoutMs` (ms). A second wait for the same id
   * replaces the first, which ends as `aborted`. With `background`, the timer does not keep the
   * process alive: nobody awaits the outcome but a status hook.
   */
  wait(id: string, timeoutMs: number, signal?: AbortSignal, background = false): Promise<WaitOutcome> {
    if (this.early.delete(id)) return Promise.resolve("completed");
    if (signal?.aborted) return Promise.resolve("aborted");
    this.waiting.get(id)?.("aborted");
    return new Promise((resolve) => {
      const onAbort = () => finish("aborted");
      const timer = setTimeout(() => finish("timeout"), timeoutMs);
      if (background) (timer as { unref?: () => void }).unref?.();
      const finish = (outcome: WaitOutcome) => {
        if (this.waiting.get(id) !== finish) return;
        this.waiting.delete(id);
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        resolve(outcome);
      };
      this.waiting.set(id, finish);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }
}
