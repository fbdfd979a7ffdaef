import { beforeAll, describe, expect, it } from "vitest";
import { connectPostgres, migrate, PostgresAuditLog } from "../../src/postgres/index.js";
import { INSECURE_PLAINTEXT_VAULT_FOR_TESTS } from "../../src/stores/index.js";
import { alice, fullEntry, runAuditLogContract } from "../stores/audit-log.contract.js";
import { testDatabase } from "./database.js";

const db = await testDatabase();

describe.skipIf(db === undefined)("PostgreSQL", () => {
  const { pool, url, freshSchema } = db as NonNullable<typeof db>;
  const schema = freshSchema();
  const table = `"${schema}".mcp_handoff_audit_log`;

  beforeAll(async () => {
    await migrate(pool, { schema });
  });

  runAuditLogContract("PostgreSQL", async () => {
    await pool.query(`TRUNCATE ${table} RESTART IDENTITY`);
    return new PostgresAuditLog({ pool, schema });
  });

  describe("PostgresAuditLog", () => {
    it("keeps the user and event in columns of their own, for an operator's queries", async () => {
      await pool.query(`TRUNCATE ${table}`);
      await new PostgresAuditLog({ pool, schema }).append(fullEntry());
      const { rows } = await pool.query(
        `SELECT user_issuer, user_subject, event, record->>'provider' AS provider FROM ${table}`,
      );
      expect(rows).toEqual([
        { user_issuer: alice.issuer, user_subject: alice.subject, event: "credential.used", provider: "github" },
      ]);
    });

    it("is built by connectPostgres on the migrated schema, beside the other engines", async () => {
      const own = freshSchema();
      const stores = await connectPostgres({
        connectionString: url,
        schema: own,
        vault: { encryption: INSECURE_PLAINTEXT_VAULT_FOR_TESTS },
      });
      try {
        await stores.audit.append(fullEntry());
        expect((await stores.audit.forUser(alice)).map((r) => r.event)).toEqual(["credential.used"]);
      } finally {
        await stores.close();
      }
    });

    it("numbers on from the last record for every instance sharing the table", async () => {
      await pool.query(`TRUNCATE ${table} RESTART IDENTITY`);
      const [a, b] = [new PostgresAuditLog({ pool, schema }), new PostgresAuditLog({ pool, schema })];
      await Promise.all(Array.from({ length: 10 }, (_, n) => (n % 2 === 0 ? a : b).append(fullEntry({ at: n }))));
      const seqs = (await a.forUser(alice)).map((r) => r.seq);
      expect(seqs).toEqual([10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
    });
  });
});
