/**
 * The PostgreSQL audit log's export under appends made while it runs: `seq` comes from an identity
 * column, handed out at insert, so an append can commit after one with a higher `seq`. An export
 * read page by page without a snapshot then passes over a record that committed before others it
 * does include. The export reads one snapshot: exactly what was committed when it began.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { migrate, PostgresAuditLog } from "../../src/postgres/index.js";
import { alice, fullEntry } from "../stores/audit-log.contract.js";
import { testDatabase } from "./database.js";

const db = await testDatabase();

/** Rows the export reads per query (`EXPORT_PAGE` in src/postgres/audit-log.ts). */
const PAGE = 500;

describe.skipIf(db === undefined)("PostgreSQL audit log export under concurrent appends", () => {
  const { pool, freshSchema } = db as NonNullable<typeof db>;
  const schema = freshSchema();
  const table = `"${schema}".mcp_handoff_audit_log`;

  beforeAll(async () => {
    await migrate(pool, { schema });
  });

  /** `count` records of alice, at 1, 2, ... */
  async function fill(log: PostgresAuditLog, count: number): Promise<void> {
    await pool.query(`TRUNCATE ${table} RESTART IDENTITY`);
    for (let n = 1; n <= count; n++) await log.append(fullEntry({ at: n }));
  }

  it("leaves out a record that commits after a later one while the export runs, and keeps no later one", async () => {
    const log = new PostgresAuditLog({ pool, schema });
    await fill(log, PAGE - 1);
    // An append still in its transaction holds seq PAGE; the next one commits first, with PAGE + 1,
    // so the first page read is full and ends past the slow one.
    const slow = await pool.connect();
    try {
      await slow.query("BEGIN");
      await slow.query(
        `INSERT INTO ${table} (at, event, user_issuer, user_subject, record) VALUES ($1, $2, $3, $4, $5) RETURNING seq`,
        [PAGE, "credential.used", alice.issuer, alice.subject, JSON.stringify(fullEntry({ at: PAGE }))],
      );
      await log.append(fullEntry({ at: PAGE + 1 }));
      const lines: string[] = [];
      const reading = log.exportJsonLines()[Symbol.asyncIterator]();
      // The first line: the export has begun, and read its first page.
      const first = await reading.next();
      lines.push(first.value as string);
      // Meanwhile the slow append commits, and one more after it.
      await slow.query("COMMIT");
      await log.append(fullEntry({ at: PAGE + 2 }));
      for (let next = await reading.next(); next.done !== true; next = await reading.next()) lines.push(next.value);
      const ats = lines.map((line) => (JSON.parse(line) as { at: number }).at);
      // What was committed when the export began: everything but the slow append and the last one.
      const committed = [...Array.from({ length: PAGE - 1 }, (_, n) => n + 1), PAGE + 1];
      expect(ats).toEqual(committed);
    } finally {
      slow.release();
    }
  });

  it("positive control: with nothing appended meanwhile, exports every record oldest first, over several pages", async () => {
    const log = new PostgresAuditLog({ pool, schema });
    await fill(log, PAGE + 3);
    const seqs: number[] = [];
    for await (const line of log.exportJsonLines({ user: alice })) seqs.push((JSON.parse(line) as { seq: number }).seq);
    expect(seqs).toEqual(Array.from({ length: PAGE + 3 }, (_, n) => n + 1));
  });

  it("gives its connection back when the reader stops early", async () => {
    const log = new PostgresAuditLog({ pool, schema });
    await fill(log, 3);
    const before = pool.totalCount - pool.idleCount;
    for await (const _line of log.exportJsonLines()) break;
    expect(pool.totalCount - pool.idleCount).toBe(before);
    // And the pool still serves.
    expect((await log.forUser(alice)).length).toBe(3);
  });

  it("refuses a page cursor beyond the safe integers as a bad argument, as the other stores do", async () => {
    const log = new PostgresAuditLog({ pool, schema });
    await fill(log, 2);
    await expect(log.forUser(alice, { before: 1e21 })).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
    // Positive control: the largest safe cursor reads from the newest.
    expect((await log.forUser(alice, { before: Number.MAX_SAFE_INTEGER })).map((r) => r.seq)).toEqual([2, 1]);
  });
});
