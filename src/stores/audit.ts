/**
 * Writing to an audit log from the places where things happen (hand-off steps, grants, credential
 * uses): one append per record, checked so that no secret-shaped field slips in, and a log that
 * fails is reported, never allowed to fail the step it records.
 */
import { SdkError } from "../jsonrpc/errors.js";
import type { Logger } from "../jsonrpc/logger.js";
import type { AuditEntry, AuditLog } from "./types.js";

const EVENTS = new Set<AuditEntry["event"]>([
  "handoff.created",
  "handoff.opened",
  "handoff.completed",
  "handoff.declined",
  "handoff.expired",
  "grant.stored",
  "grant.refreshed",
  "grant.revoked",
  "credential.used",
]);

const OUTCOMES = new Set<AuditEntry["outcome"]>(["ok", "refused", "failed"]);

/**
 * Checks the shape of an entry before it is stored.
 * @throws SdkError "INVALID_ARGUMENT" naming the field (never its value).
 */
export function checkAuditEntry(entry: AuditEntry): void {
  const invalid = (field: string) => new SdkError("INVALID_ARGUMENT", `Audit entry field ${field} is invalid.`);
  if (!Number.isFinite(entry?.at)) throw invalid("at");
  if (!EVENTS.has(entry.event)) throw invalid("event");
  if (!OUTCOMES.has(entry.outcome)) throw invalid("outcome");
  if (typeof entry.user?.issuer !== "string" || typeof entry.user.subject !== "string") throw invalid("user");
  for (const field of ["sessionId", "interactionId", "provider"] as const) {
    if (entry[field] !== undefined && typeof entry[field] !== "string") throw invalid(field);
  }
}

/**
 * A function that appends to `log` (when there is one) and reports a failure to `logger` instead of
 * throwing: the step it records has happened either way.
 */
export function auditTo(log: AuditLog | undefined, logger: Logger): (entry: AuditEntry) => Promise<void> {
  if (log === undefined) return async () => {};
  return async (entry) => {
    try {
      await log.append(entry);
    } catch (error) {
      try {
        logger.error({ err: error, event: entry.event }, "Could not write an audit record");
      } catch {
        // A logger that throws must not fail the step either.
      }
    }
  };
}
