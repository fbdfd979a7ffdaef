/**
 * Renewal across instances on the fleet's own engines: each instance has a pool of its own with
 * its lock (a PostgreSQL advisory lock) and its vault (PostgreSQL) on it, and its notes on a Redis
 * connection of its own; two instances renewing one grant at once make one upstream refresh.
 */
import pg from "pg";
import { afterAll, describe } from "vitest";
import { migrate, PostgresCredentialVault, PostgresKeyedLock } from "../../src/postgres/index.js";
import { RedisExpiringNotes } from "../../src/redis/index.js";
import { runRenewalAcrossInstances } from "../connect/renewal-across-instances.contract.js";
import { testRedis } from "../redis/redis.js";
import { testDatabase } from "./database.js";

const db = await testDatabase();
const redis = await testRedis();
const encryption = { keys: { k1: Buffer.alloc(32, 9) }, currentKeyId: "k1" };

describe.skipIf(db === undefined || redis === undefined)("PostgreSQL and Redis", () => {
  const { url, freshSchema } = db as NonNullable<typeof db>;
  const { freshPrefix, instanceClient } = redis as NonNullable<typeof redis>;
  const pools: pg.Pool[] = [];
  afterAll(async () => {
    for (const pool of pools) await pool.end();
  });
  /** A pool of its own, as each instance of a fleet has. */
  const instancePool = () => {
    const pool = new pg.Pool({ connectionString: url, max: 4 });
    pools.push(pool);
    return pool;
  };

  runRenewalAcrossInstances("PostgreSQL lock and vault, Redis notes", async () => {
    const schema = freshSchema();
    await migrate(instancePool(), { schema });
    const keyPrefix = freshPrefix();
    return {
      makeLock: () => new PostgresKeyedLock({ pool: instancePool(), schema }),
      makeVault: () => new PostgresCredentialVault({ pool: instancePool(), schema, encryption }),
      makeNotes: () => new RedisExpiringNotes({ client: instanceClient(), keyPrefix }),
      notesLapseInRealTime: true,
    };
  });
});
