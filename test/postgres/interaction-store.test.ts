import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { InteractionManager } from "../../src/interaction/server/index.js";
import { migrate, PostgresInteractionStore } from "../../src/postgres/index.js";
import { InProcessMessageBus } from "../../src/stores/index.js";
import { newInteraction, runInteractionStoreContract } from "../stores/interaction-store.contract.js";
import { testDatabase } from "./database.js";

const db = await testDatabase();

describe.skipIf(db === undefined)("PostgreSQL", () => {
  const { pool, freshSchema } = db as NonNullable<typeof db>;
  const schema = freshSchema();

  beforeAll(async () => {
    await migrate(pool, { schema });
  });
  beforeEach(async () => {
    await pool.query(`TRUNCATE "${schema}".mcp_handoff_interactions`);
  });

  runInteractionStoreContract("PostgreSQL", (now) => new PostgresInteractionStore({ pool, schema, now }));

  describe("PostgresInteractionStore", () => {
    it("lets one of two instances' completions commit, each on a store of its own", async () => {
      const user = { issuer: "https://auth.example.com", subject: "alice" };
      const managers = [0, 1].map(
        () =>
          new InteractionManager({
            store: new PostgresInteractionStore({ pool, schema }),
            bus: new InProcessMessageBus(),
            sweepIntervalMs: 0,
          }),
      );
      const [a, b] = managers as [InteractionManager, InteractionManager];
      const created = await a.create({
        url: "https://mcp.example.com/connect/x",
        message: "Connect.",
        user,
        sessionId: "s",
      });
      let commits = 0;
      const commit = async () => {
        commits += 1;
      };
      const outcomes = await Promise.allSettled([
        a.complete(created.id, { user, commit }),
        b.complete(created.id, { user, commit }),
      ]);
      expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(["fulfilled", "rejected"]);
      expect(commits).toBe(1);
      expect((await b.get(created.id))?.status).toBe("completed");
    });

    it("refuses text PostgreSQL cannot store with INVALID_ARGUMENT, and stores nothing", async () => {
      const store = new PostgresInteractionStore({ pool, schema });
      await expect(store.create(newInteraction("nul", { message: "a\u0000b" }))).rejects.toMatchObject({
        code: "INVALID_ARGUMENT",
      });
      expect(await store.get("nul")).toBeUndefined();
      // The same text escaped inside purpose's JSON is stored and read back as it was.
      const purpose = { note: "a\u0000b" };
      await store.create(newInteraction("nul-in-json", { purpose }));
      expect((await store.get("nul-in-json"))?.purpose).toStrictEqual(purpose);
    });

    it("keeps times that are not whole ms exactly", async () => {
      const store = new PostgresInteractionStore({ pool, schema, now: () => 1_700_000_000_000.25 });
      const created = await store.create(newInteraction("fraction", { expiresAt: 1_700_000_600_000.5 }));
      expect(await store.get("fraction")).toStrictEqual(created);
      expect(created.createdAt).toBe(1_700_000_000_000.25);
    });
  });
});
