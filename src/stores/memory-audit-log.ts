/** `AuditLog` within one process: for tests and for a server that keeps no records past its life. */
import { sameUser, type UserRef } from "../model/identity.js";
import { checkAuditEntry } from "./audit.js";
import type { AuditEntry, AuditLog, AuditRecord } from "./types.js";

export class MemoryAuditLog implements AuditLog {
  readonly #records: AuditRecord[] = [];

  async append(entry: AuditEntry): Promise<void> {
    checkAuditEntry(entry);
    this.#records.push(structuredClone({ ...entry, seq: this.#records.length + 1 }));
  }

  async forUser(user: UserRef, options: { limit?: number; before?: number } = {}): Promise<AuditRecord[]> {
    const limit = options.limit ?? 50;
    const before = options.before ?? Number.POSITIVE_INFINITY;
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
      if (user === undefined || sameUser(record.user, user)) yield `${JSON.stringify(record)}\n`;
    }
  }
}
