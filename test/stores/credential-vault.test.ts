import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import type { UserRef } from "../../src/model/identity.js";
import { CredentialCipher } from "../../src/stores/credential-cipher.js";
import { MemoryCredentialVault, SqliteCredentialVault } from "../../src/stores/index.js";
import {
  alice,
  bob,
  expectNoLeak,
  github,
  keys,
  runCredentialVaultContract,
  type VaultHarness,
} from "./credential-vault.contract.js";
import { tempDir } from "./temp-dir.js";

const nextFile = tempDir();

runCredentialVaultContract("memory", () => {
  let first: MemoryCredentialVault | undefined;
  return {
    open(encryption) {
      const vault = new MemoryCredentialVault(first ? { encryption, from: first } : { encryption });
      first ??= vault;
      return vault;
    },
    close: async () => {},
  };
});

/** Writes behind the vault's back, as someone with access to the database file could. */
function moveSealed(
  database: Database.Database,
  [fromUser, fromProvider]: [UserRef, string],
  [toUser, toProvider]: [UserRef, string],
) {
  const source = database
    .prepare(
      "SELECT key_id, iv, ciphertext, tag FROM handoff_credentials WHERE issuer = ? AND subject = ? AND provider = ?",
    )
    .get(fromUser.issuer, fromUser.subject, fromProvider);
  const { changes } = database
    .prepare(
      `UPDATE handoff_credentials SET key_id = @key_id, iv = @iv, ciphertext = @ciphertext, tag = @tag
       WHERE issuer = @issuer AND subject = @subject AND provider = @provider`,
    )
    .run({ ...(source as object), issuer: toUser.issuer, subject: toUser.subject, provider: toProvider });
  expect(changes).toBe(1);
}

runCredentialVaultContract("SQLite :memory:", (): VaultHarness => {
  // One open :memory: database, shared by every vault of the test, stands in for one file.
  const database = new Database(":memory:");
  return {
    open: (encryption) => new SqliteCredentialVault({ database, encryption }),
    moveSealed: (from, to) => moveSealed(database, from, to),
    bytesAtRest: () => database.serialize(),
    close: async () => {
      database.close();
    },
  };
});

runCredentialVaultContract("SQLite file", (): VaultHarness => {
  const filename = nextFile();
  return {
    open: (encryption) => new SqliteCredentialVault({ filename, encryption }),
    moveSealed(from, to) {
      const database = new Database(filename);
      moveSealed(database, from, to);
      database.close();
    },
    bytesAtRest: () =>
      Buffer.concat(
        [filename, `${filename}-wal`, `${filename}-journal`].filter(existsSync).map((path) => readFileSync(path)),
      ),
    close: async () => {},
  };
});

describe("credential sealing in memory", () => {
  // The memory vault's records cannot be reached from outside, so the sealing it uses is checked directly.
  it("refuses a sealed secret opened for another user or provider", () => {
    const cipher = new CredentialCipher(keys("k1", { k1: randomBytes(32) }));
    const credential = github();
    const sealed = cipher.seal(alice, "github", credential);
    expect(sealed.ciphertext.includes(credential.secret)).toBe(false);
    expect(sealed.iv).toHaveLength(12);
    expect(cipher.open(alice, "github", sealed)).toStrictEqual({
      secret: credential.secret,
      refreshToken: credential.refreshToken,
    });
    for (const [user, provider] of [
      [bob, "github"],
      [alice, "linear"],
    ] as const) {
      let error: unknown;
      try {
        cipher.open(user, provider, sealed);
      } catch (e) {
        error = e;
      }
      expect(error).toMatchObject({ code: "CREDENTIAL_UNREADABLE" });
      expectNoLeak(error, [credential.secret, credential.refreshToken ?? ""]);
    }
  });

  it("uses a fresh IV for every write of the same secret", () => {
    const cipher = new CredentialCipher(keys("k1", { k1: randomBytes(32) }));
    const credential = github();
    const [a, b] = [cipher.seal(alice, "github", credential), cipher.seal(alice, "github", credential)];
    expect(a.iv.equals(b.iv)).toBe(false);
    expect(a.ciphertext.equals(b.ciphertext)).toBe(false);
  });
});

/**
 * Rewrites a file's credentials tables as an older schema wrote them, keeping the rows: 1 had no
 * key checks and 2 no account or use times.
 */
function asOlderSchema(filename: string, version: 1 | 2) {
  const raw = new Database(filename);
  raw.exec(`
    CREATE TABLE old_credentials AS
      SELECT issuer, subject, provider, key_id, iv, ciphertext, tag, scopes, expires_at, updated_at FROM handoff_credentials;
    DROP TABLE handoff_credentials;
    CREATE TABLE handoff_credentials (
      issuer TEXT NOT NULL, subject TEXT NOT NULL, provider TEXT NOT NULL, key_id TEXT NOT NULL,
      iv BLOB NOT NULL, ciphertext BLOB NOT NULL, tag BLOB NOT NULL, scopes TEXT, expires_at INTEGER,
      updated_at INTEGER NOT NULL, PRIMARY KEY (issuer, subject, provider)
    ) WITHOUT ROWID;
    INSERT INTO handoff_credentials SELECT * FROM old_credentials;
    DROP TABLE old_credentials;
  `);
  if (version === 1) raw.exec("DROP TABLE handoff_credential_key_checks");
  raw.prepare("UPDATE handoff_schema_versions SET version = ? WHERE component = 'credentials'").run(version);
  raw.close();
}

describe("SqliteCredentialVault", () => {
  it("works on a private :memory: database and keeps credentials in a file across reopening", async () => {
    const k1 = randomBytes(32);
    const inMemory = new SqliteCredentialVault({ filename: ":memory:", encryption: keys("k1", { k1 }) });
    const credential = github();
    await inMemory.put(alice, credential);
    expect(await inMemory.get(alice, "github")).toStrictEqual(credential);
    await inMemory.close();
    await expect(inMemory.get(alice, "github")).rejects.toMatchObject({ code: "CONNECTION_CLOSED" });

    const filename = nextFile();
    const first = new SqliteCredentialVault({ filename, encryption: keys("k1", { k1 }) });
    await first.put(alice, credential);
    await first.close();
    const again = new SqliteCredentialVault({ filename, encryption: keys("k1", { k1 }) });
    expect(await again.get(alice, "github")).toStrictEqual(credential);
    await again.close();
  });

  it("brings a file of schema 1 (before key checks) up to 3, and refuses a wrong key there by one of its rows", async () => {
    const filename = nextFile();
    const k1 = randomBytes(32);
    const credential = github();
    const first = new SqliteCredentialVault({ filename, encryption: keys("k1", { k1 }) });
    await first.put(alice, credential);
    await first.close();
    // As a file written before key checks and connection columns: schema version 1.
    asOlderSchema(filename, 1);

    const impostor = new SqliteCredentialVault({ filename, encryption: keys("k1", { k1: randomBytes(32) }) });
    await expect(impostor.put(bob, github())).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
      message: expect.stringContaining("key check value"),
    });
    await impostor.close();
    const right = new SqliteCredentialVault({ filename, encryption: keys("k1", { k1 }) });
    expect(await right.get(alice, "github")).toStrictEqual(credential);
    expect(await right.get(bob, "github")).toBeUndefined();
    await right.put(bob, github());
    await right.close();
    const after = new Database(filename, { readonly: true });
    expect(after.prepare("SELECT version FROM handoff_schema_versions WHERE component = 'credentials'").get()).toEqual({
      version: 3,
    });
    expect(after.prepare("SELECT key_id FROM handoff_credential_key_checks").all()).toEqual([{ key_id: "k1" }]);
    after.close();
  });

  it("brings a file of schema 2 up to 3, keeping its rows, which then take an account and use times", async () => {
    const filename = nextFile();
    const k1 = randomBytes(32);
    const credential = github();
    const first = new SqliteCredentialVault({ filename, encryption: keys("k1", { k1 }) });
    await first.put(alice, credential);
    await first.close();
    asOlderSchema(filename, 2);

    const vault = new SqliteCredentialVault({ filename, encryption: keys("k1", { k1 }) });
    expect(await vault.list(alice)).toStrictEqual([credential]);
    await vault.markUsed(alice, "github", 1_700_000_500_000);
    await vault.put(bob, { ...github(), account: "bob@example.com", createdAt: 5 });
    expect(await vault.get(alice, "github")).toStrictEqual({ ...credential, lastUsedAt: 1_700_000_500_000 });
    expect(await vault.get(bob, "github")).toMatchObject({ account: "bob@example.com", createdAt: 5 });
    await vault.close();
    const after = new Database(filename, { readonly: true });
    expect(after.prepare("SELECT version FROM handoff_schema_versions WHERE component = 'credentials'").get()).toEqual({
      version: 3,
    });
    after.close();
  });

  it("records the key id of each row", async () => {
    const database = new Database(":memory:");
    const [k1, k2] = [randomBytes(32), randomBytes(32)];
    await new SqliteCredentialVault({ database, encryption: keys("k1", { k1 }) }).put(alice, github());
    await new SqliteCredentialVault({ database, encryption: keys("k2", { k1, k2 }) }).put(bob, github());
    expect(database.prepare("SELECT subject, key_id FROM handoff_credentials ORDER BY subject").all()).toEqual([
      { subject: "alice", key_id: "k1" },
      { subject: "bob", key_id: "k2" },
    ]);
    database.close();
  });
});
