/** The audit records the connect pages write about an interaction: for its user, with its session and client. */
import type { UserInteraction } from "../model/interaction.js";
import type { AuditEntry } from "../stores/types.js";

/**
 * The record of `event` about `interaction` at `at` (ms since the epoch). The provider is the one
 * given, else the one its purpose names; `detail` holds no secret (the caller passes scopes and a
 * fixed reason only).
 */
export function interactionRecord(
  interaction: UserInteraction,
  event: AuditEntry["event"],
  outcome: AuditEntry["outcome"],
  at: number,
  extra: { provider?: string; detail?: AuditEntry["detail"] } = {},
): AuditEntry {
  const named = interaction.purpose?.provider;
  const provider = extra.provider ?? (typeof named === "string" ? named : undefined);
  return {
    at,
    event,
    user: { issuer: interaction.user.issuer, subject: interaction.user.subject },
    ...(interaction.clientName === undefined ? {} : { client: { name: interaction.clientName } }),
    sessionId: interaction.sessionId,
    interactionId: interaction.id,
    ...(provider === undefined ? {} : { provider }),
    outcome,
    ...(extra.detail === undefined ? {} : { detail: extra.detail }),
  };
}
