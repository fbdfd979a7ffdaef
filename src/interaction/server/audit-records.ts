/**
 * The audit records of a hand-off's steps, written by the manager and the connect pages: each for
 * the interaction's user, with its session and its client.
 */
import type { UserInteraction } from "../../model/interaction.js";
import { auditClient } from "../../stores/audit.js";
import type { AuditEntry } from "../../stores/types.js";

/**
 * The record of `event` about `interaction` at `at` (ms since the epoch). The provider is the one
 * given, else the one its purpose names (a name of at most 64 characters); `detail` holds no
 * secret (the caller passes scopes and a fixed reason only). `clientVersion` is the client's
 * `clientInfo.version` where the caller knows it (the interaction keeps only the name).
 */
export function interactionRecord(
  interaction: UserInteraction,
  event: AuditEntry["event"],
  outcome: AuditEntry["outcome"],
  at: number,
  extra: { provider?: string; detail?: AuditEntry["detail"]; clientVersion?: string } = {},
): AuditEntry {
  const named = interaction.purpose?.provider;
  const provider = extra.provider ?? (typeof named === "string" && named.length <= 64 ? named : undefined);
  // Cleaned and cut to fit, so that no client can name itself out of the log.
  const client = auditClient({ name: interaction.clientName, version: extra.clientVersion });
  return {
    at,
    event,
    user: { issuer: interaction.user.issuer, subject: interaction.user.subject },
    ...(client === undefined ? {} : { client }),
    sessionId: interaction.sessionId,
    interactionId: interaction.id,
    ...(provider === undefined ? {} : { provider }),
    outcome,
    ...(extra.detail === undefined ? {} : { detail: extra.detail }),
  };
}
