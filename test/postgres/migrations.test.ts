import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import {
  connectPostgres,
  MIGRATIONS,
  migrate,
  PostgresCredentialVault,
  PostgresGrantStateStore,
  PostgresInteractionStore,
  PostgresKeyedLock,
  type PostgresPool,
} from "../../src/postgres/index.js";
import { newInteraction } from "../stores/interaction-store.contract.js";
import { testDatabase } from "./database.js";

const db = await testDatabase();

const ALL = MIGRATIONS.map((step) => step.version);

describe.skipIf(db === undefined)("PostgreSQL migrations", () => {
  const { pool, url, freshSchema } = db as NonNullable<typeof db>;
  const pools: pg.Pool[] = [];
  afterAll(async () => {
    for (const other of pools) await other.end();
  });

  const tablesIn = async (schema: string) =>
    (
      await pool.query<{ table_name: string }>(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name",
        [schema],
      )
    ).rows.map((row) => row.table_name);

  it("creates the schema, applies every step once, and applies nothing the second time", async () => {
    const schema = freshSchema();
    const first = await migrate(pool, { schema });
    expect(first.map((step) => step.version)).toEqual(ALL);
    expect(await tablesIn(schema)).toEqual([
      "mcp_handoff_audit_log",
      "mcp_handoff_credential_key_checks",
      "mcp_handoff_credentials",
      "mcp_handoff_grant_states",
      "mcp_handoff_interactions",
      "mcp_handoff_schema_migrations",
    ]);
    expect(await migrate(pool, { schema })).toEqual([]);
    const recorded = await pool.query(
      `SELECT version, name FROM "${schema}".mcp_handoff_schema_migrations ORDER BY version`,
    );
    expect(recorded.rows).toEqual(MIGRATIONS.map(({ version, name }) => ({ version, name })));
  });

  it("applies each step once when three instances start at the same moment", async () => {
    const schema = freshSchema();
    const instances = [0, 1, 2].map(() => {
      const own = new pg.Pool({ connectionString: url, max: 2 });
      pools.push(own);
      return own;
    });
    const results = await Promise.all(instances.map((own) => migrate(own, { schema })));
    const applied = results.flat().map((step) => step.version);
    expect(applied.sort((a, b) => a - b)).toEqual(ALL);
    const { rows } = await pool.query(`SELECT count(*)::int AS n FROM "${schema}".mcp_handoff_schema_migrations`);
    expect(rows[0]).toEqual({ n: ALL.length });
  });

  it("keeps two table prefixes in one schema apart", async () => {
    const schema = freshSchema();
    await migrate(pool, { schema, tablePrefix: "blue_" });
    await migrate(pool, { schema, tablePrefix: "" });
    const blue = new PostgresInteractionStore({ pool, schema, tablePrefix: "blue_" });
    const plain = new PostgresInteractionStore({ pool, schema, tablePrefix: "" });
    await blue.create(newInteraction("only-blue", { expiresAt: Date.now() + 60_000 }));
    expect(await plain.get("only-blue")).toBeUndefined();
    expect(await blue.get("only-blue")).toMatchObject({ status: "pending" });
    expect(await tablesIn(schema)).toContain("interactions");
  });

  it("refuses a database that records a step newer than it knows, and changes nothing", async () => {
    const schema = freshSchema();
    await migrate(pool, { schema });
    const next = ALL.length + 1;
    await pool.query(
      `INSERT INTO "${schema}".mcp_handoff_schema_migrations (version, name) VALUES ($1, 'from a newer release')`,
      [next],
    );
    const error = await migrate(pool, { schema }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "INVALID_ARGUMENT", message: expect.stringContaining(`migration ${next}`) });
  });

  it("reports a store whose tables were never migrated clearly", async () => {
    const store = new PostgresInteractionStore({ pool, schema: freshSchema() });
    await expect(store.get("x")).rejects.toMatchObject({
      code: "STORE_UNAVAILABLE",
      message: expect.stringContaining("handoff migrate"),
    });
  });

  it("builds every store on one pool with connectPostgres, migrating unless told not to", async () => {
    const unmigrated = freshSchema();
    const bare = await connectPostgres({
      pool,
      schema: unmigrated,
      migrate: false,
      vault: { encryption: vaultKeys() },
    });
    expect(await tablesIn(unmigrated)).toEqual([]);
    await bare.close();

    const schema = freshSchema();
    const stores = await connectPostgres({ connectionString: url, schema, vault: { encryption: vaultKeys() } });
    const user = { issuer: "https://auth.example.com", subject: "alice" };
    await stores.interactions.create(newInteraction("i", { expiresAt: Date.now() + 60_000 }));
    await stores.vault.put(user, { provider: "github", secret: "gho_abc", updatedAt: 1 });
    expect(await stores.vault.get(user, "github")).toMatchObject({ secret: "gho_abc" });
    await stores.grantStates.put("s", {
      interactionId: "i",
      user,
      provider: "github",
      scopes: [],
      verifier: "v",
      expiresAt: Date.now() + 60_000,
    });
    expect(await stores.grantStates.take("s")).toMatchObject({ interactionId: "i", scopes: [] });
    expect(await stores.locks.withLock("k", { leaseMs: 10_000, waitMs: 1_000 }, async () => "locked")).toBe("locked");
    await stores.close();
    await stores.close();
    await expect(stores.interactions.get("i")).rejects.toMatchObject({ code: "CONNECTION_CLOSED" });
    // The application's own pool stays open.
    expect((await pool.query("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
  });
});

describe("PostgreSQL schema and table prefix", () => {
  /** A pool that records whether anything was asked of it. */
  function watchedPool(): PostgresPool & { asked: number } {
    const watched = {
      asked: 0,
      async query() {
        watched.asked += 1;
        throw new Error("not connected");
      },
      async connect() {
        watched.asked += 1;
        throw new Error("not connected");
      },
      async end() {},
      on() {},
      removeListener() {},
    };
    return watched as unknown as PostgresPool & { asked: number };
  }

  const attacks = [
    'public"; DROP SCHEMA public CASCADE; --',
    "tenant;drop",
    "x'y",
    "a.b",
    "Tenant",
    "with space",
    "",
    "a".repeat(64),
  ];

  it("are refused, before anything reaches PostgreSQL, when they are not plain lower-case identifiers", async () => {
    for (const schema of attacks) {
      const pool = watchedPool();
      await expect(migrate(pool, { schema })).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
      expect(pool.asked).toBe(0);
    }
    for (const tablePrefix of ['x"; --', "p;", "A_", "a".repeat(41)]) {
      const pool = watchedPool();
      await expect(migrate(pool, { tablePrefix })).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
      expect(pool.asked).toBe(0);
    }
  });

  it("are refused by every store and by connectPostgres too", async () => {
    const pool = watchedPool();
    const schema = attacks[0];
    const encryption = vaultKeys();
    for (const make of [
      () => new PostgresInteractionStore({ pool, schema }),
      () => new PostgresCredentialVault({ pool, schema, encryption }),
      () => new PostgresKeyedLock({ pool, schema }),
      () => new PostgresGrantStateStore({ pool, schema }),
    ]) {
      expect(make).toThrow(expect.objectContaining({ code: "INVALID_ARGUMENT" }));
    }
    await expect(connectPostgres({ pool, schema, vault: { encryption } })).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
    });
    expect(pool.asked).toBe(0);
  });

  it("pass when plain, as the defaults are (the check lets the query through to the pool)", async () => {
    for (const location of [{ schema: "tenant_42", tablePrefix: "app_" }, { tablePrefix: "" }, {}]) {
      const pool = watchedPool();
      await expect(migrate(pool, location)).rejects.toThrow("not connected");
      expect(pool.asked).toBe(1);
    }
  });
});

function vaultKeys() {
  return { keys: { k1: randomBytes(32) }, currentKeyId: "k1" };
}
