import { randomBytes } from "node:crypto";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { migrate, PostgresCredentialVault } from "../../src/postgres/index.js";
import { alice, bob, github, keys, runCredentialVaultContract } from "../stores/credential-vault.contract.js";
import { querySync, testDatabase } from "./database.js";

const db = await testDatabase();

describe.skipIf(db === undefined)("PostgreSQL", () => {
  const { pool, url, freshSchema } = db as NonNullable<typeof db>;
  const schema = freshSchema();
  const credentials = `"${schema}".mcp_handoff_credentials`;
  const keyChecks = `"${schema}".mcp_handoff_credential_key_checks`;

  beforeAll(async () => {
    await migrate(pool, { schema });
  });
  beforeEach(async () => {
    await pool.query(`TRUNCATE ${credentials}, ${keyChecks}`);
  });

  runCredentialVaultContract("PostgreSQL", () => ({
    open: (encryption) => new PostgresCredentialVault({ pool, schema, encryption }),
    // Writes behind the vault's back, as someone with access to the database could.
    moveSealed([fromUser, fromProvider], [toUser, toProvider]) {
      const [changed] = querySync(
        url,
        `UPDATE ${credentials} AS target
         SET key_id = source.key_id, iv = source.iv, ciphertext = source.ciphertext, tag = source.tag
         FROM ${credentials} AS source
         WHERE source.issuer = $1 AND source.subject = $2 AND source.provider = $3
           AND target.issuer = $4 AND target.subject = $5 AND target.provider = $6`,
        [fromUser.issuer, fromUser.subject, fromProvider, toUser.issuer, toUser.subject, toProvider],
      );
      expect(changed).toBe(1);
    },
    bytesAtRest: () => querySync(url, `SELECT * FROM ${credentials}; SELECT * FROM ${keyChecks}`, undefined, true),
    close: async () => {},
  }));

  describe("PostgresCredentialVault", () => {
    it("records the key id of each row, and one key check value per key id", async () => {
      const [k1, k2] = [randomBytes(32), randomBytes(32)];
      await new PostgresCredentialVault({ pool, schema, encryption: keys("k1", { k1 }) }).put(alice, github());
      await new PostgresCredentialVault({ pool, schema, encryption: keys("k2", { k1, k2 }) }).put(bob, github());
      const rows = await pool.query(`SELECT subject, key_id FROM ${credentials} ORDER BY subject`);
      expect(rows.rows).toEqual([
        { subject: "alice", key_id: "k1" },
        { subject: "bob", key_id: "k2" },
      ]);
      const checks = await pool.query(`SELECT key_id FROM ${keyChecks} ORDER BY key_id`);
      expect(checks.rows).toEqual([{ key_id: "k1" }, { key_id: "k2" }]);
    });

    it("lets two instances putting the same user's credential at once leave one whole credential", async () => {
      const k1 = randomBytes(32);
      const [a, b] = [0, 1].map(() => new PostgresCredentialVault({ pool, schema, encryption: keys("k1", { k1 }) }));
      const written = Array.from({ length: 8 }, () => github());
      await Promise.all(written.map((credential, n) => (n % 2 === 0 ? a : b)?.put(alice, credential)));
      const read = await a?.get(alice, "github");
      expect(written).toContainEqual(read);
    });

    it("keeps the rows written before migration 5, which then take an account and use times", async () => {
      const k1 = randomBytes(32);
      const vault = new PostgresCredentialVault({ pool, schema, encryption: keys("k1", { k1 }) });
      const credential = github();
      await vault.put(alice, credential);
      // As a database of before migration 5: without its columns or its record.
      await pool.query(
        `ALTER TABLE ${credentials} DROP COLUMN account, DROP COLUMN created_at, DROP COLUMN last_used_at`,
      );
      await pool.query(`DELETE FROM "${schema}".mcp_handoff_schema_migrations WHERE version = 5`);
      expect((await migrate(pool, { schema })).map((step) => step.version)).toEqual([5]);
      expect(await vault.list(alice)).toStrictEqual([credential]);
      await vault.markUsed(alice, "github", 1_700_000_900_000);
      expect(await vault.get(alice, "github")).toStrictEqual({ ...credential, lastUsedAt: 1_700_000_900_000 });
    });

    it("lets a first write race on a new key id store one key check value that both instances then pass", async () => {
      const k1 = randomBytes(32);
      const vaults = [0, 1, 2].map(() => new PostgresCredentialVault({ pool, schema, encryption: keys("k1", { k1 }) }));
      await Promise.all(vaults.map((vault) => vault.put(alice, github())));
      expect((await pool.query(`SELECT key_id FROM ${keyChecks}`)).rows).toEqual([{ key_id: "k1" }]);
    });
  });
});
