/**
 * A fleet of our server for the fleet rows: separate instance processes (fleet-server.ts) sharing
 * one Redis under a key prefix of their own, fresh for each run and deleted afterwards. The Redis
 * is `BENCH_REDIS_URL` (default redis://127.0.0.1:6379); without one the rows are skipped.
 */
import { randomBytes } from "node:crypto";
import { connectRedis, type RedisStores } from "mcp-handoff/redis";
import { consoleLogger, type Logger } from "mcp-handoff/server";
import { Skipped } from "../workloads/types.js";
import { entry, type HttpServerProcess, startHttpServer } from "./process.js";

/** The Redis the instances share. */
export function redisUrl(): string {
  return process.env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379";
}

/** host:port of the Redis URL, for messages (never its password). */
function redisHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return "(BENCH_REDIS_URL is not a URL)";
  }
}

const FLEET_SERVER = entry("./ours/fleet-server.ts", import.meta.url);

export interface Fleet {
  /** The instances, each at its own http://127.0.0.1:<port>/mcp. */
  instances: HttpServerProcess[];
  /** Stops every instance and deletes every key under the run's prefix. */
  stop(): Promise<void>;
}

/** Deletes the keys under `prefix`, a batch at a time. */
async function deleteKeys(redis: RedisStores, prefix: string): Promise<void> {
  let cursor = "0";
  do {
    const [next, keys] = (await redis.client.call("SCAN", cursor, "MATCH", `${prefix}*`, "COUNT", 1000)) as [
      string,
      string[],
    ];
    cursor = next;
    if (keys.length > 0) await redis.client.call("DEL", ...keys);
  } while (cursor !== "0");
}

/**
 * Starts `count` instances on a fresh key prefix.
 * @throws Skipped when Redis does not answer at `redisUrl()`.
 */
export async function startFleet(count: number): Promise<Fleet> {
  const url = redisUrl();
  const keyPrefix = `bench-fleet-${randomBytes(6).toString("hex")}:`;
  // Until the first connection stands, a refused one is the skip's reason, printed once as that.
  let connected = false;
  const console = consoleLogger();
  const quietUntilConnected: Logger = {
    error: (fields, message) => connected && console.error(fields, message),
    warn: (fields, message) => connected && console.warn(fields, message),
    info: (fields, message) => connected && console.info(fields, message),
    debug: () => {},
  };
  let redis: RedisStores;
  try {
    redis = await connectRedis({ url, keyPrefix, connectTimeoutMs: 2_000, logger: quietUntilConnected });
    connected = true;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    throw new Skipped(`no Redis answers at ${redisHost(url)} (${String(code)}; set BENCH_REDIS_URL)`);
  }
  const instances: HttpServerProcess[] = [];
  const stop = async () => {
    await Promise.allSettled(instances.map((instance) => instance.stop()));
    try {
      await deleteKeys(redis, keyPrefix);
    } finally {
      await redis.close();
    }
  };
  try {
    const args = ["--redis", url, "--key-prefix", keyPrefix];
    for (let i = 0; i < count; i++) instances.push(await startHttpServer(FLEET_SERVER, "default", args));
  } catch (error) {
    await stop();
    throw error;
  }
  return { instances, stop };
}
