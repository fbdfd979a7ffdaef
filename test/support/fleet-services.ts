/**
 * What the load-balanced fleet needs on this machine: haproxy on the PATH, Redis and PostgreSQL
 * answering (see services.ts). Outside CI a missing one skips the tests with the reason; in CI it fails them.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { databaseUrl, redisUrl, requireService } from "./services.js";

const run = promisify(execFile);

/** Whether haproxy, Redis and PostgreSQL are all there (each missing one said). */
export async function fleetServicesAnswer(): Promise<boolean> {
  const haproxy = await requireService("haproxy", async () => {
    await run("haproxy", ["-v"]);
  });
  const redis = await requireService("Redis", async () => {
    const { Redis } = await import("ioredis");
    const client = new Redis(redisUrl(), { lazyConnect: true, maxRetriesPerRequest: 1 });
    client.on("error", () => {});
    try {
      await client.connect();
      await client.ping();
    } finally {
      client.disconnect();
    }
  });
  const postgres = await requireService("PostgreSQL", async () => {
    const { default: pg } = await import("pg");
    const client = new pg.Client({ connectionString: databaseUrl(), connectionTimeoutMillis: 3_000 });
    await client.connect();
    await client.end();
  });
  return haproxy && redis && postgres;
}
