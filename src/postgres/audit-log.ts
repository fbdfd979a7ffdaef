import type { UserRef } from "../model/identity.js";
import { auditJsonLine, auditPage, auditRecordOf, checkAuditEntry } from "../stores/audit.js";
import type { AuditEntry, AuditLog, AuditRecord } from "../stores/types.js";
import { checkUser } from "../stores/vault-records.js";
import type { PostgresStoreOptions } from "./interaction-store.js";
import { query, takeClient } from "./query.js";
import { type PostgresTables, tablesOf } from "./tables.js";

interface Row {
  /** pg reads a `bigint` as a string. */
  seq: string;
  record: AuditEntry;
}

/** Rows read per query while exporting, so an export never holds the whole log in memory. */
const EXPORT_PAGE = 500;

export type PostgresAuditLogOptions = PostgresStoreOptions;

/**
 * An `AuditLog` in PostgreSQL, shared by every instance of a fleet: an append-only table (one
 * insert per record, so each append is atomic), `seq` from an identity column, indexed by the
 * user's issuer and subject. It has no way to change or remove a record. Every call rejects with
 * SdkError "STORE_UNAVAILABLE" while PostgreSQL cannot be reached.
 */
export class PostgresAuditLog implements AuditLog {
  readonly #pool: PostgresStoreOptions["pool"];
  readonly #tables: PostgresTables;

  /** @throws SdkError "INVALID_ARGUMENT" when `schema` or `tablePrefix` is not a plain lower-case identifier. */
  constructor(options: PostgresAuditLogOptions) {
    this.#tables = tablesOf(options);
    this.#pool = options.pool;
  }

  /**
   * @throws SdkError "INVALID_ARGUMENT" for a malformed entry (see `checkAuditEntry`); nothing is
   *   sent. SdkError "STORE_UNAVAILABLE".
   */
  async append(entry: AuditEntry): Promise<void> {
    checkAuditEntry(entry);
    const { seq: _seq, ...record } = auditRecordOf(entry, 0);
    await query(
      this.#pool,
      "audit.append",
      `INSERT INTO ${this.#tables.auditLog} (at, event, user_issuer, user_subject, record) VALUES ($1, $2, $3, $4, $5)`,
      [entry.at, entry.event, entry.user.issuer, entry.user.subject, JSON.stringify(record)],
    );
  }

  /**
   * @throws SdkError "INVALID_ARGUMENT" for a malformed user, a limit outside 1 to 1000 or a cursor
   *   that is not an integer; SdkError "STORE_UNAVAILABLE".
   */
  async forUser(user: UserRef, options: { limit?: number; before?: number } = {}): Promise<AuditRecord[]> {
    checkUser(user);
    const { limit, before } = auditPage(options);
    const { rows } = await query<Row>(
      this.#pool,
      "audit.forUser",
      `SELECT seq, record FROM ${this.#tables.auditLog}
       WHERE user_issuer = $1 AND user_subject = $2 AND ($3::bigint IS NULL OR seq < $3::bigint)
       ORDER BY seq DESC LIMIT $4`,
      [user.issuer, user.subject, before ?? null, limit],
    );
    return rows.map(recordOf);
  }

  /**
   * Oldest first, read `EXPORT_PAGE` rows at a time, all in one read-only snapshot (`REPEATABLE
   * READ`) on a connection of its own, given back when the export ends or its reader stops: `seq`
   * is handed out at insert, so an append may commit after one with a higher `seq`, and pages read
   * at different moments could pass over it while including later records. The export holds
   * exactly what was committed when it began. @throws SdkError "STORE_UNAVAILABLE".
   */
  async *exportJsonLines(options: { user?: UserRef } = {}): AsyncIterable<string> {
    const { user } = options;
    if (user !== undefined) checkUser(user);
    const client = await takeClient(this.#pool, "audit.export");
    let broken = false;
    const onError = (): void => {
      broken = true;
    };
    client.on("error", onError);
    try {
      await query(client, "audit.export", "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
      let after = "0";
      for (;;) {
        const { rows } = await query<Row>(
          client,
          "audit.export",
          `SELECT seq, record FROM ${this.#tables.auditLog}
           WHERE seq > $1::bigint AND ($2::text IS NULL OR (user_issuer = $2 AND user_subject = $3))
           ORDER BY seq LIMIT $4`,
          [after, user?.issuer ?? null, user?.subject ?? null, EXPORT_PAGE],
        );
        for (const row of rows) yield auditJsonLine(recordOf(row));
        if (rows.length < EXPORT_PAGE) return;
        after = (rows[rows.length - 1] as Row).seq;
      }
    } finally {
      // Read only: ending the snapshot either way changes nothing.
      await client.query("ROLLBACK").catch(() => {
        broken = true;
      });
      client.removeListener("error", onError);
      client.release(broken);
    }
  }
}

function recordOf(row: Row): AuditRecord {
  return auditRecordOf(row.record, Number(row.seq));
}
