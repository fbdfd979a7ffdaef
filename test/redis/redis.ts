/**
 * The Redis of the tests (test/support/services.ts): a client, and key prefixes of this test
 * file's own with random names, whose keys (only those) are deleted after its tests.
 */
import { Redis } from "ioredis";
import { afterAll } from "vitest";
import { redisUrl, requireService, runId } from "../support/services.js";

export interface TestRedis {
  url: string;
  client: Redis;
  /** A new key prefix for this file, its keys deleted after its tests. */
  freshPrefix(): string;
  /** Another client on the same Redis, as another instance of a fleet has; closed after the tests. */
  instanceClient(): Redis;
}

/** A client as `connectRedis` opens one: calls fail at once while Redis is down. */
export function redisClient(url: string): Redis {
  return new Redis(url, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1 });
}

/**
 * The Redis, or `undefined` (after saying why) when it does not answer outside CI.
 * @throws in CI when Redis does not answer.
 */
export async function testRedis(): Promise<TestRedis | undefined> {
  const url = redisUrl();
  const client = redisClient(url);
  client.on("error", () => {});
  const answers = await requireService("Redis", async () => {
    await client.connect();
    await client.ping();
  });
  if (!answers) {
    client.disconnect();
    return undefined;
  }
  const prefixes: string[] = [];
  const clients: Redis[] = [];
  afterAll(async () => {
    for (const prefix of prefixes) await deleteKeys(client, prefix);
    for (const other of clients) other.disconnect();
    await client.quit();
  });
  return {
    url,
    client,
    freshPrefix() {
      const prefix = `mcp-handoff-test:${runId()}:${prefixes.length}:`;
      prefixes.push(prefix);
      return prefix;
    },
    instanceClient() {
      const other = new Redis(url, { enableOfflineQueue: true, maxRetriesPerRequest: 1 });
      other.on("error", () => {});
      clients.push(other);
      return other;
    },
  };
}

/** Deletes every key under `prefix` (`SCAN` + `DEL`). */
export async function deleteKeys(client: Redis, prefix: string): Promise<void> {
  let cursor = "0";
  do {
    const [next, keys] = await client.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 500);
    cursor = next;
    if (keys.length > 0) await client.del(...keys);
  } while (cursor !== "0");
}

/** Every key under `prefix`. */
export async function keysUnder(client: Redis, prefix: string): Promise<string[]> {
  const found: string[] = [];
  let cursor = "0";
  do {
    const [next, keys] = await client.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 500);
    cursor = next;
    found.push(...keys);
  } while (cursor !== "0");
  return found.sort();
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
