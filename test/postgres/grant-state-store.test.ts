import { beforeAll, describe, expect, it } from "vitest";
import { migrate, PostgresGrantStateStore } from "../../src/postgres/index.js";
import { pendingGrant, runGrantStateStoreContract } from "../stores/grant-state-store.contract.js";
import { testDatabase } from "./database.js";

const db = await testDatabase();

describe.skipIf(db === undefined)("PostgreSQL", () => {
  const { pool, freshSchema } = db as NonNullable<typeof db>;
  const schema = freshSchema();
  const table = `"${schema}".mcp_handoff_grant_states`;

  beforeAll(async () => {
    await migrate(pool, { schema });
  });

  runGrantStateStoreContract("PostgreSQL", async () => {
    await pool.query(`TRUNCATE ${table}`);
    const clock = { now: 1_700_000_000_000 };
    return {
      store: new PostgresGrantStateStore({ pool, schema, now: () => clock.now }),
      now: () => clock.now,
      elapse: async (ms: number) => {
        clock.now += ms;
      },
    };
  });

  describe("PostgresGrantStateStore", () => {
    it("gives a grant to exactly one of two instances taking it at once", async () => {
      const [a, b] = [0, 1].map(() => new PostgresGrantStateStore({ pool, schema }));
      await a?.put("state-two-instances", pendingGrant(Date.now() + 60_000));
      const taken = await Promise.all([a?.take("state-two-instances"), b?.take("state-two-instances")]);
      expect(taken.filter((grant) => grant !== undefined)).toHaveLength(1);
    });

    it("removes the grants past their deadline when another is put", async () => {
      const clock = { now: 1_800_000_000_000 };
      const store = new PostgresGrantStateStore({ pool, schema, now: () => clock.now });
      await store.put("state-old", pendingGrant(clock.now + 1_000));
      await store.put("state-same", pendingGrant(clock.now + 1_000));
      clock.now += 1_000;
      // Put again under a lapsed state: replaced, not removed.
      await store.put("state-same", pendingGrant(clock.now + 5_000));
      const { rows } = await pool.query(`SELECT state FROM ${table} WHERE state IN ('state-old', 'state-same')`);
      expect(rows).toEqual([{ state: "state-same" }]);
      expect(await store.take("state-same")).toMatchObject({ expiresAt: clock.now + 5_000 });
    });
  });
});
