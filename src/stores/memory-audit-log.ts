/** `AuditLog` within one process: for tests and for a server that keeps no records past its life. */
import { sameUser, type UserRef } from "../model/identity.js";
import { auditJsonLine, auditPage, auditRecordOf, checkAuditEntry } from "./audit.js";
import type { AuditEntry, AuditLog, AuditRecord } from "./types.js";

export class MemoryAuditLog implements AuditLog {
  readonly #records: AuditRecord[] = [];

  /** @throws SdkError "INVALID_ARGUMENT" for a malformed entry (see `checkAuditEntry`); nothing is appended. */
  async append(entry: AuditEntry): Promise<void> {
    checkAuditEntry(entry);
    this.#records.push(auditRecordOf(entry, this.#records.length + 1));
  }

  /** @throws SdkError "INVALID_ARGUMENT" for a limit outside 1 to 1000 or a cursor that is not an integer. */
  async forUser(user: UserRef, options: { limit?: number; before?: number } = {}): Promise<AuditRecord[]> {
    const { limit, before = Number.POSITIVE_INFINITY } = auditPage(options);
    const found: AuditRecord[] = [];
    for (let i = this.#records.length - 1; i >= 0 && found.length < limit; i--) {
      const record = this.#records[i] as AuditRecord;
      if (record.seq < before && sameUser(record.user, user)) found.push(structuredClone(record));
    }
    return found;
  }

  async *exportJsonLines(options: { user?: UserRef } = {}): AsyncIterable<string> {
    const { user } = options;
    for (const record of this.#records) {
      if (user === undefined || sameUser(record.user, user)) yield auditJsonLine(record);
    }
  }
}
