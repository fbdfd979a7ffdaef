/**
 * Waiting for one interaction to finish: subscribed to its session's bus channel first and read
 * from the store second, so a completion that lands in between is not missed; a timer at the
 * deadline notices expiry, which no one announces.
 */
import type { UserInteraction } from "../../model/interaction.js";
import { InteractionError } from "./errors.js";

export interface WaitSpec {
  id: string;
  signal: AbortSignal | undefined;
  now: () => number;
  /** The interaction as it stands. */
  read(): Promise<UserInteraction | undefined>;
  /** Calls `onChange` whenever the interaction may have changed. */
  subscribe(sessionId: string, onChange: () => void): Promise<() => Promise<void>>;
}

/** setTimeout cannot wait longer than this many ms. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/** The outcome for an interaction in this state: done, failed, or (`undefined`) still open. */
function outcomeOf(interaction: UserInteraction | undefined): UserInteraction | InteractionError | undefined {
  switch (interaction?.status) {
    case undefined:
      return new InteractionError("NOT_FOUND", "No such interaction");
    case "completed":
      return interaction;
    case "expired":
      return new InteractionError("EXPIRED", "The interaction expired before it was completed");
    case "declined":
      return new InteractionError("DECLINED", "The user declined the interaction");
    case "cancelled":
      return new InteractionError("CANCELLED", "The interaction was cancelled");
    default:
      return undefined;
  }
}

export async function waitForSettled(spec: WaitSpec): Promise<UserInteraction> {
  spec.signal?.throwIfAborted();
  const first = await spec.read();
  const early = outcomeOf(first);
  if (early instanceof InteractionError) throw early;
  if (early !== undefined || first === undefined) return first as UserInteraction;
  const { sessionId, expiresAt } = first;

  return new Promise<UserInteraction>((resolve, reject) => {
    let done = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let unsubscribe: (() => Promise<void>) | undefined;
    const finish = (outcome: UserInteraction | InteractionError | unknown, failed: boolean) => {
      if (done) return;
      done = true;
      if (timer !== undefined) clearTimeout(timer);
      spec.signal?.removeEventListener("abort", onAbort);
      void unsubscribe?.().catch(() => undefined);
      if (failed) reject(outcome);
      else resolve(outcome as UserInteraction);
    };
    const check = () => {
      spec.read().then(
        (current) => {
          const outcome = outcomeOf(current);
          if (outcome !== undefined) finish(outcome, outcome instanceof InteractionError);
        },
        (error: unknown) => finish(error, true),
      );
    };
    const arm = () => {
      const wait = Math.min(Math.max(0, expiresAt - spec.now()), LONGEST_TIMER_MS);
      timer = setTimeout(() => {
        check();
        // The clock may lag behind the timer; look again later until the deadline really passed.
        if (!done && spec.now() < expiresAt) arm();
      }, wait);
      timer.unref?.();
    };
    const onAbort = () => finish(spec.signal?.reason, true);
    spec.signal?.addEventListener("abort", onAbort, { once: true });
    spec.subscribe(sessionId, check).then(
      (stop) => {
        unsubscribe = stop;
        if (done) void stop().catch(() => undefined);
        else {
          check();
          arm();
        }
      },
      (error: unknown) => finish(error, true),
    );
  });
}
