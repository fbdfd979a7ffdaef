/**
 * Renewal across instances on Redis: each instance has its own connection, its lock and notes on
 * it, and the vault (not a Redis engine) in memory, shared.
 */
import { describe } from "vitest";
import { RedisExpiringNotes, RedisKeyedLock } from "../../src/redis/index.js";
import { MemoryCredentialVault } from "../../src/stores/index.js";
import { runRenewalAcrossInstances } from "../connect/renewal-across-instances.contract.js";
import { testRedis } from "./redis.js";

const redis = await testRedis();
const encryption = { keys: { k1: Buffer.alloc(32, 7) }, currentKeyId: "k1" };

describe.skipIf(redis === undefined)("Redis", () => {
  const { freshPrefix, instanceClient } = redis as NonNullable<typeof redis>;
  runRenewalAcrossInstances("Redis lock and notes", () => {
    const keyPrefix = freshPrefix();
    let first: MemoryCredentialVault | undefined;
    return {
      makeLock: () => new RedisKeyedLock({ client: instanceClient(), keyPrefix }),
      makeVault: () => {
        const vault = new MemoryCredentialVault(first ? { encryption, from: first } : { encryption });
        first ??= vault;
        return vault;
      },
      makeNotes: () => new RedisExpiringNotes({ client: instanceClient(), keyPrefix }),
      notesLapseInRealTime: true,
    };
  });
});
