/**
 * What a retry of a multi round-trip request (revision 2026-07-28) says about the pages the
 * previous round asked the user to open. Each answer is recorded on its interaction; an `accept`
 * for an interaction that is still open is held until the user finishes the page, up to a limit
 * (spec 2026-07-28: client/elicitation § URL Mode Flow: the server "may need to block until the
 * request is fulfilled"). `accept` means the user consented, so a client that retries at once
 * (as the official SDK's does) gets the result when the page is done instead of the same page
 * again in a loop. Over Streamable HTTP the held answer turns into an SSE stream, which carries
 * `: keep-alive` comments while it waits, so that no proxy times the response out.
 */
import { SdkError } from "../../jsonrpc/errors.js";
import type { Result } from "../../jsonrpc/session.js";
import type { InteractionService } from "../handler-types.js";
import { handoffRefusal } from "../session-interactions.js";
import type { HandoffAnswer, InputRound } from "./input-round.js";

/** ms a retry that accepted a page still open waits for its completion by default: 25,000. */
export const DEFAULT_HANDOFF_HOLD_MS = 25_000;

/**
 * Records the user's answers to the previous round's pages (`pending` → `accepted`, `declined`
 * or `cancelled`; an interaction past that keeps its status), then, when any accepted one is still
 * open, waits until each completes, is given up, `holdMs` pass, or the request ends.
 * @returns the answers, in asking order.
 * @throws the request's abort reason (SdkError "REQUEST_CANCELLED" when it has none) once the
 *   client has gone away: nothing is left to answer.
 */
export async function settleHandoffs(
  round: InputRound,
  service: InteractionService,
  holdMs: number,
): Promise<readonly HandoffAnswer[]> {
  const answers = round.handoffAnswers;
  for (const { interaction, action } of answers) await service.recordAnswer(interaction, action);
  const accepted = answers.filter((answer) => answer.action === "accept").map((answer) => answer.interaction);
  const open: string[] = [];
  for (const id of accepted) {
    const status = (await service.get(id))?.status;
    if (status === "pending" || status === "accepted") open.push(id);
  }
  if (open.length === 0 || holdMs <= 0) return answers;
  const { signal } = round.inbound;
  // The answer may be a while: over Streamable HTTP it becomes an SSE stream with keep-alives.
  round.inbound.extra?.openSseStream?.();
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(), holdMs);
  const leave = () => stop.abort(signal.reason);
  signal.addEventListener("abort", leave, { once: true });
  try {
    // Expired, declined or unknown meanwhile: the round reads the store again and answers that.
    await Promise.allSettled(open.map((id) => service.waitForCompletion(id, stop.signal)));
  } finally {
    clearTimeout(timer);
    signal.removeEventListener("abort", leave);
    stop.abort();
  }
  if (signal.aborted) throw signal.reason ?? new SdkError("REQUEST_CANCELLED", "The client went away");
  return answers;
}

/**
 * The answer to a request whose handler needs a page (it threw `InteractionRequired`) that the
 * user declined or cancelled: the handler is not run again, since it would only ask for the page
 * again. The answer says so (never the URL), as when no hand-off is possible (`handoffRefusal`).
 * @throws ProtocolError -32603 unless `asResult`.
 */
export function refusedHandoffAnswer(asResult: boolean, answer: HandoffAnswer, message: string | undefined): Result {
  const what = answer.action === "cancel" ? "cancelled" : "declined";
  const page = message === undefined || message === "" ? "" : ` (${message})`;
  const text = `The user ${what} the page this request needs${page}; the request was not run.`;
  return handoffRefusal(text, asResult);
}
