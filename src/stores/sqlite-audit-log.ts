import type { UserRef } from "../model/identity.js";
import { auditJsonLine, auditPage, auditRecordOf, checkAuditEntry } from "./audit.js";
import {
  assertOpen,
  openSqlite,
  prepare,
  type SqliteDatabase,
  type SqliteFileOptions,
  type SqliteStatement as Statement,
} from "./sqlite.js";
import type { AuditEntry, AuditLog, AuditRecord } from "./types.js";
import { checkUser } from "./vault-records.js";

/**
 * One row per record; `seq` is the rowid, AUTOINCREMENT so that a number is never given twice.
 * `record` holds the checked entry as JSON; the user and event are columns of their own for queries.
 */
const SCHEMA = `
CREATE TABLE handoff_audit_log (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  at REAL NOT NULL,
  event TEXT NOT NULL,
  issuer TEXT NOT NULL,
  subject TEXT NOT NULL,
  record TEXT NOT NULL
);
CREATE INDEX handoff_audit_log_user ON handoff_audit_log (issuer, subject, seq);
`;

interface Row {
  seq: number;
  record: string;
}

/** Rows read per query while exporting, so an export never holds the whole log in memory. */
const EXPORT_PAGE = 500;

export type SqliteAuditLogOptions = SqliteFileOptions;

/**
 * An `AuditLog` in a SQLite database (better-sqlite3): an append-only table, one insert per record
 * (atomic), indexed by the user's issuer and subject. It has no way to change or remove a record.
 */
export class SqliteAuditLog implements AuditLog {
  readonly #db: SqliteDatabase;
  readonly #ownsDb: boolean;
  #closed = false;
  readonly #insert: Statement<[Omit<Row, "seq"> & { at: number; event: string; issuer: string; subject: string }]>;
  readonly #page: Statement<[{ issuer: string; subject: string; before: number; limit: number }], Row>;
  readonly #exportAll: Statement<[{ after: number; limit: number }], Row>;
  readonly #exportUser: Statement<[{ issuer: string; subject: string; after: number; limit: number }], Row>;

  /**
   * @throws SdkError "INVALID_ARGUMENT" when the file holds a newer schema; SdkError
   *   "DEPENDENCY_MISSING" when `filename` is given and better-sqlite3 is not installed.
   */
  constructor(options: SqliteAuditLogOptions) {
    const { db, owned } = openSqlite(options, "audit", 1, SCHEMA);
    this.#db = db;
    this.#ownsDb = owned;
    this.#insert = prepare(
      db,
      `INSERT INTO handoff_audit_log (at, event, issuer, subject, record)
       VALUES (@at, @event, @issuer, @subject, @record)`,
    );
    this.#page = prepare(
      db,
      `SELECT seq, record FROM handoff_audit_log
       WHERE issuer = @issuer AND subject = @subject AND seq < @before
       ORDER BY seq DESC LIMIT @limit`,
    );
    this.#exportAll = prepare(
      db,
      "SELECT seq, record FROM handoff_audit_log WHERE seq > @after ORDER BY seq LIMIT @limit",
    );
    this.#exportUser = prepare(
      db,
      `SELECT seq, record FROM handoff_audit_log
       WHERE issuer = @issuer AND subject = @subject AND seq > @after ORDER BY seq LIMIT @limit`,
    );
  }

  /**
   * Appends one record in one insert.
   * @throws SdkError "INVALID_ARGUMENT" for a malformed entry (see `checkAuditEntry`); nothing is
   *   written. SdkError "CONNECTION_CLOSED" once closed.
   */
  async append(entry: AuditEntry): Promise<void> {
    assertOpen(this.#db, this.#closed);
    checkAuditEntry(entry);
    const { seq: _seq, ...record } = auditRecordOf(entry, 0);
    this.#insert.run({
      at: entry.at,
      event: entry.event,
      issuer: entry.user.issuer,
      subject: entry.user.subject,
      record: JSON.stringify(record),
    });
  }

  /** @throws SdkError "INVALID_ARGUMENT" for a malformed user, a limit outside 1 to 1000 or a cursor that is not an integer. */
  async forUser(user: UserRef, options: { limit?: number; before?: number } = {}): Promise<AuditRecord[]> {
    assertOpen(this.#db, this.#closed);
    checkUser(user);
    const { limit, before } = auditPage(options);
    return this.#page
      .all({ issuer: user.issuer, subject: user.subject, before: before ?? Number.MAX_SAFE_INTEGER, limit })
      .map(recordOf);
  }

  /** Oldest first, read `EXPORT_PAGE` rows at a time. @throws SdkError "CONNECTION_CLOSED" once closed. */
  async *exportJsonLines(options: { user?: UserRef } = {}): AsyncIterable<string> {
    const { user } = options;
    if (user !== undefined) checkUser(user);
    let after = 0;
    for (;;) {
      assertOpen(this.#db, this.#closed);
      const rows =
        user === undefined
          ? this.#exportAll.all({ after, limit: EXPORT_PAGE })
          : this.#exportUser.all({ issuer: user.issuer, subject: user.subject, after, limit: EXPORT_PAGE });
      for (const row of rows) yield auditJsonLine(recordOf(row));
      if (rows.length < EXPORT_PAGE) return;
      after = (rows[rows.length - 1] as Row).seq;
    }
  }

  /**
   * Closes the database it opened (a shared `database` stays open); later calls reject with
   * SdkError "CONNECTION_CLOSED".
   */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#ownsDb && this.#db.open) this.#db.close();
  }
}

function recordOf(row: Row): AuditRecord {
  return auditRecordOf(JSON.parse(row.record) as AuditEntry, row.seq);
}
