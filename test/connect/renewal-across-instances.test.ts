/**
 * Renewal across instances on the embedded engines: one in-process lock and notes, with the vault
 * in memory or in one SQLite file that both instances open.
 */
import {
  MemoryCredentialVault,
  MemoryExpiringNotes,
  MemoryKeyedLock,
  SqliteCredentialVault,
} from "../../src/stores/index.js";
import { tempDir } from "../stores/temp-dir.js";
import { runRenewalAcrossInstances } from "./renewal-across-instances.contract.js";

const encryption = { keys: { k1: Buffer.alloc(32, 7) }, currentKeyId: "k1" };

runRenewalAcrossInstances("memory", () => {
  const lock = new MemoryKeyedLock();
  const notes = new Map<() => number, MemoryExpiringNotes>();
  let first: MemoryCredentialVault | undefined;
  return {
    makeLock: () => lock,
    makeVault: () => {
      const vault = new MemoryCredentialVault(first ? { encryption, from: first } : { encryption });
      first ??= vault;
      return vault;
    },
    makeNotes: (now) => {
      let shared = notes.get(now);
      if (shared === undefined) {
        shared = new MemoryExpiringNotes({ now });
        notes.set(now, shared);
      }
      return shared;
    },
  };
});

const nextFile = tempDir();
runRenewalAcrossInstances("SQLite file", async () => {
  const lock = new MemoryKeyedLock();
  const notes = new Map<() => number, MemoryExpiringNotes>();
  const filename = nextFile();
  const vaults: SqliteCredentialVault[] = [];
  return {
    makeLock: () => lock,
    makeVault: () => {
      const vault = new SqliteCredentialVault({ filename, encryption });
      vaults.push(vault);
      return vault;
    },
    makeNotes: (now) => {
      let shared = notes.get(now);
      if (shared === undefined) {
        shared = new MemoryExpiringNotes({ now });
        notes.set(now, shared);
      }
      return shared;
    },
    close: async () => {
      await Promise.all(vaults.map((vault) => vault.close()));
    },
  };
});
