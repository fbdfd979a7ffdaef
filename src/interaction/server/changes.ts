/** The message the manager puts on the bus when an interaction changes, and its reading. */
import type { InteractionStatus, UserInteraction } from "../../model/interaction.js";

/**
 * What the bus carries: which interaction changed and to what, `onPage` when the user declined
 * it on the page (not in the client), and `delivered` when this instance already told the
 * session's client (`deliverCompletionsWith`). Never the URL or the user.
 */
export interface Change {
  id: string;
  status: InteractionStatus;
  onPage?: true;
  delivered?: true;
}

/** The message for `interaction`'s change, as JSON. */
export function writeChange(interaction: UserInteraction, onPage: boolean, delivered: boolean): string {
  const change: Change = {
    id: interaction.id,
    status: interaction.status,
    ...(onPage ? { onPage: true } : {}),
    ...(delivered ? { delivered: true } : {}),
  };
  return JSON.stringify(change);
}

/** A message from the bus as a change; `undefined` for anything else (never throws). */
export function readChange(message: string): Change | undefined {
  try {
    const change = JSON.parse(message) as Partial<Change> | null;
    if (typeof change?.id !== "string" || typeof change.status !== "string") return undefined;
    return {
      id: change.id,
      status: change.status,
      ...(change.onPage === true ? { onPage: true } : {}),
      ...(change.delivered === true ? { delivered: true } : {}),
    };
  } catch {
    return undefined;
  }
}
