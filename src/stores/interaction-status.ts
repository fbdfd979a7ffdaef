/** Rules both interaction stores share, so memory and SQLite answer alike. */

import { SdkError } from "../jsonrpc/errors.js";
import type { InteractionStatus, NewInteraction, UserInteraction } from "../model/interaction.js";
import type { OpenInteractionsOptions } from "./types.js";

const STATUSES: ReadonlySet<string> = new Set<InteractionStatus>([
  "pending",
  "accepted",
  "declined",
  "cancelled",
  "completed",
  "expired",
]);

/** Whether the deadline has passed at `now` (ms): an interaction is live only while `now < expiresAt`. */
export function isPastDeadline(expiresAt: number, now: number): boolean {
  return now >= expiresAt;
}

/**
 * The status a reader sees: past its deadline an interaction reads as `expired`, unless it had
 * already completed (completion before the deadline stands).
 */
export function visibleStatus(status: InteractionStatus, expiresAt: number, now: number): InteractionStatus {
  return status !== "completed" && isPastDeadline(expiresAt, now) ? "expired" : status;
}

/** @throws SdkError "INVALID_ARGUMENT" naming the field (never its value) when a field has the wrong type. */
export function checkNewInteraction(interaction: NewInteraction): void {
  const fields: [string, unknown, string][] = [
    ["id", interaction.id, "string"],
    ["url", interaction.url, "string"],
    ["message", interaction.message, "string"],
    ["sessionId", interaction.sessionId, "string"],
    ["user.issuer", interaction.user?.issuer, "string"],
    ["user.subject", interaction.user?.subject, "string"],
    ["expiresAt", interaction.expiresAt, "number"],
  ];
  for (const [name, value, type] of fields) {
    if (typeof value !== type || (type === "number" && !Number.isFinite(value))) {
      throw new SdkError("INVALID_ARGUMENT", `Interaction field ${name} must be a ${type}.`);
    }
  }
  if (interaction.clientName !== undefined && typeof interaction.clientName !== "string") {
    throw new SdkError("INVALID_ARGUMENT", "Interaction field clientName must be a string.");
  }
  for (const [name, value] of [
    ["traceparent", interaction.traceparent],
    ["tracestate", interaction.tracestate],
  ] as const) {
    // W3C trace context: traceparent is 55 characters, tracestate at most 512.
    if (value !== undefined && (typeof value !== "string" || value.length > 512)) {
      throw new SdkError("INVALID_ARGUMENT", `Interaction field ${name} must be a string of at most 512 characters.`);
    }
  }
  if (interaction.id === "") throw new SdkError("INVALID_ARGUMENT", "Interaction id must not be empty.");
  const purpose = interaction.purpose;
  if (purpose !== undefined && (typeof purpose !== "object" || purpose === null || Array.isArray(purpose))) {
    throw new SdkError("INVALID_ARGUMENT", "Interaction field purpose must be an object.");
  }
}

/** @throws SdkError "INVALID_ARGUMENT" when `status` is not an `InteractionStatus`. */
export function checkStatus(status: InteractionStatus): void {
  if (!STATUSES.has(status)) throw new SdkError("INVALID_ARGUMENT", "Unknown interaction status.");
}

export function duplicateId(): SdkError {
  return new SdkError("INVALID_ARGUMENT", "An interaction with this id already exists.");
}

/** A fresh `pending` interaction holding only the model's fields, whatever else the caller's object carried. */
export function newPending(interaction: NewInteraction, createdAt: number): UserInteraction {
  const created: UserInteraction = {
    id: interaction.id,
    url: interaction.url,
    message: interaction.message,
    user: { issuer: interaction.user.issuer, subject: interaction.user.subject },
    sessionId: interaction.sessionId,
    status: "pending",
    createdAt,
    expiresAt: interaction.expiresAt,
  };
  if (interaction.clientName !== undefined) created.clientName = interaction.clientName;
  if (interaction.traceparent !== undefined) created.traceparent = interaction.traceparent;
  if (interaction.tracestate !== undefined) created.tracestate = interaction.tracestate;
  // A JSON copy, so the memory store keeps exactly what the SQLite store could read back.
  if (interaction.purpose !== undefined) created.purpose = JSON.parse(JSON.stringify(interaction.purpose));
  return created;
}

/** The statuses in which an interaction still waits for its user (`InteractionStore.openFor`). */
export const OPEN_STATUSES: readonly InteractionStatus[] = ["pending", "accepted"];

/**
 * The `limit` of `openFor`: default 50, at most 500.
 * @throws SdkError "INVALID_ARGUMENT" for anything but a whole number from 1 to 500.
 */
export function openLimit(options: OpenInteractionsOptions | undefined): number {
  const limit = options?.limit ?? 50;
  if (!Number.isInteger(limit) || limit < 1 || limit > 500) {
    throw new SdkError("INVALID_ARGUMENT", "limit must be a whole number from 1 to 500.");
  }
  return limit;
}
