import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { run } from "../../src/cli/run.js";
import { testDatabase } from "../postgres/database.js";
import { fakeIo } from "./support.js";

const db = await testDatabase();

describe.skipIf(db === undefined)("handoff migrate", () => {
  const { url, pool, freshSchema } = db as NonNullable<typeof db>;

  it("applies every step and says which, then nothing the second time", async () => {
    const schema = freshSchema();
    const first = fakeIo();
    expect(await run(["migrate", "--database-url", url, "--schema", schema, "--table-prefix", "app_"], first)).toBe(0);
    expect(first.out()).toContain(`Applied migration 1 (interactions) in ${schema}.app_`);
    expect(first.out()).toContain("Applied migration 3 (grant states)");
    const tables = await pool.query(
      "SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = $1",
      [schema],
    );
    // interactions, credentials, key checks, grant states, the audit log and the migrations table
    expect(tables.rows).toEqual([{ n: 6 }]);
    const second = fakeIo();
    expect(await run(["migrate", "--database-url", url, "--schema", schema, "--table-prefix", "app_"], second)).toBe(0);
    expect(second.out()).toBe(`Up to date: no migration to apply in ${schema}.app_\n`);
  });
});

describe("handoff migrate refuses", () => {
  const password = `pw-${randomBytes(6).toString("hex")}`;

  it("an unreachable database with exit code 3, without the URL's password", async () => {
    const io = fakeIo();
    const url = `postgres://postgres:${password}@127.0.0.1:1/postgres`;
    expect(await run(["migrate", "--database-url", url], io)).toBe(3);
    expect(io.err()).toContain("PostgreSQL could not serve migrate");
    expect(io.err()).not.toContain(password);
  });

  it("a schema with a quote or a semicolon, a missing URL and unknown options, with exit code 2", async () => {
    const url = `postgres://postgres:${password}@127.0.0.1:1/postgres`;
    for (const argv of [
      ["migrate", "--database-url", url, "--schema", 'x"; DROP SCHEMA public; --'],
      ["migrate"],
      ["migrate", "--database-url", url, "--nope"],
      ["migrate", url],
    ]) {
      const io = fakeIo();
      expect(await run(argv, io)).toBe(2);
      expect(io.err()).not.toContain(password);
    }
  });
});
