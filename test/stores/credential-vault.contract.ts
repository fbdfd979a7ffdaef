/**
 * What every credential vault promises, run against each implementation: storage per user and
 * provider, secrets sealed with the configured keys, rotation, and failures that name no secret.
 */
import { randomBytes } from "node:crypto";
import { describe, expect, it, onTestFinished } from "vitest";
import { SdkError } from "../../src/jsonrpc/errors.js";
import type { UserRef } from "../../src/model/identity.js";
import type { StoredCredential } from "../../src/model/interaction.js";
import {
  type CredentialVault,
  INSECURE_PLAINTEXT_VAULT_FOR_TESTS,
  type VaultEncryption,
  type VaultKeys,
} from "../../src/stores/index.js";

export type TestVault = CredentialVault &
  Required<Pick<CredentialVault, "list" | "markUsed">> & { rotate(): Promise<number>; close?(): Promise<void> };

/** One storage place; every vault it opens, whatever its keys, sees the same credentials. */
export interface VaultHarness {
  open(encryption: VaultEncryption): TestVault;
  /** Copies the sealed secret of one stored credential over another's, as a writer with access to the storage could. */
  moveSealed?(from: [UserRef, string], to: [UserRef, string]): void;
  /** Every byte the storage holds at rest. */
  bytesAtRest?(): Buffer;
  close(): Promise<void>;
}

export const alice: UserRef = { issuer: "https://auth.example.com", subject: "alice" };
export const bob: UserRef = { issuer: "https://auth.example.com", subject: "bob" };
/** Alice's subject at another issuer: a different user. */
export const otherAlice: UserRef = { issuer: "https://other-auth.example.com", subject: "alice" };

export function github(secret = `gho_${randomBytes(12).toString("hex")}`): StoredCredential {
  return {
    provider: "github",
    secret,
    refreshToken: `ghr_${randomBytes(12).toString("hex")}`,
    scopes: ["repo", "read:user"],
    expiresAt: 1_700_000_600_000,
    updatedAt: 1_700_000_000_000,
  };
}

export function keys(current: string, entries: Record<string, Buffer>): VaultKeys {
  return { keys: entries, currentKeyId: current };
}

/** Fails when `error` mentions any of `secrets` anywhere a log might print it. */
export function expectNoLeak(error: unknown, secrets: string[]): void {
  const seen = [String(error), (error as Error).stack ?? "", JSON.stringify(error), String((error as Error).cause)];
  for (const secret of secrets) for (const text of seen) expect(text).not.toContain(secret);
}

export function runCredentialVaultContract(name: string, makeHarness: () => VaultHarness): void {
  const k1 = randomBytes(32);
  const k2 = randomBytes(32);

  function setup() {
    const harness = makeHarness();
    const vaults: TestVault[] = [];
    onTestFinished(async () => {
      for (const vault of vaults) await vault.close?.();
      await harness.close();
    });
    const open = (encryption: VaultEncryption = keys("k1", { k1 })) => {
      const vault = harness.open(encryption);
      vaults.push(vault);
      return vault;
    };
    return { harness, open };
  }

  describe(`${name} credential vault`, () => {
    it("stores, reads, replaces and deletes a credential", async () => {
      const vault = setup().open();
      const first = github();
      await vault.put(alice, first);
      expect(await vault.get(alice, "github")).toStrictEqual(first);
      const second: StoredCredential = { provider: "github", secret: "gho_second", updatedAt: 1_700_000_100_000 };
      await vault.put(alice, second);
      expect(await vault.get(alice, "github")).toStrictEqual(second);
      expect(await vault.delete(alice, "github")).toBe(true);
      expect(await vault.get(alice, "github")).toBeUndefined();
      expect(await vault.delete(alice, "github")).toBe(false);
    });

    it("keeps each user's and each provider's credential apart", async () => {
      const vault = setup().open();
      const mine = github();
      const linear: StoredCredential = { provider: "linear", secret: "lin_api_1", updatedAt: 1 };
      await vault.put(alice, mine);
      await vault.put(alice, linear);
      expect(await vault.get(bob, "github")).toBeUndefined();
      expect(await vault.get(otherAlice, "github")).toBeUndefined();
      expect(await vault.delete(bob, "github")).toBe(false);
      expect(await vault.delete(otherAlice, "github")).toBe(false);
      const bobs = github();
      await vault.put(bob, bobs);
      expect(await vault.get(alice, "github")).toStrictEqual(mine);
      expect(await vault.get(alice, "linear")).toStrictEqual(linear);
      expect(await vault.get(bob, "github")).toStrictEqual(bobs);
      expect(await vault.get(bob, "linear")).toBeUndefined();
    });

    it("lists a user's own credentials by provider, with account and times, and nobody else's", async () => {
      const vault = setup().open();
      expect(await vault.list(alice)).toEqual([]);
      const mine: StoredCredential = { ...github(), account: "alice@example.com", createdAt: 1_600_000_000_000 };
      const linear: StoredCredential = { provider: "linear", secret: "lin_api_1", updatedAt: 1 };
      const asana: StoredCredential = { provider: "asana", secret: "as_1", updatedAt: 2, lastUsedAt: 3 };
      for (const credential of [mine, linear, asana]) await vault.put(alice, credential);
      await vault.put(bob, github());
      await vault.put(otherAlice, github());
      expect(await vault.list(alice)).toStrictEqual([asana, mine, linear]);
      expect((await vault.list(bob)).map((c) => c.provider)).toEqual(["github"]);
      expect(await vault.get(alice, "github")).toStrictEqual(mine);
      await vault.delete(alice, "asana");
      expect((await vault.list(alice)).map((c) => c.provider)).toEqual(["github", "linear"]);
    });

    it("marks a credential used without changing anything else, and ignores one not stored", async () => {
      const vault = setup().open();
      const mine: StoredCredential = { ...github(), account: "alice", createdAt: 1_600_000_000_000 };
      await vault.put(alice, mine);
      await vault.put(bob, github());
      await vault.markUsed(alice, "github", 1_700_000_300_000);
      expect(await vault.get(alice, "github")).toStrictEqual({ ...mine, lastUsedAt: 1_700_000_300_000 });
      expect((await vault.get(bob, "github"))?.lastUsedAt).toBeUndefined();
      await vault.markUsed(alice, "linear", 1);
      await vault.markUsed(otherAlice, "github", 1);
      expect(await vault.get(alice, "linear")).toBeUndefined();
      expect(await vault.get(otherAlice, "github")).toBeUndefined();
      await expect(vault.markUsed(alice, "github", Number.NaN)).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
      expect((await vault.get(alice, "github"))?.lastUsedAt).toBe(1_700_000_300_000);
    });

    it("hands out copies: changing a returned credential changes nothing stored", async () => {
      const vault = setup().open();
      const credential = github();
      await vault.put(alice, credential);
      credential.scopes?.push("admin");
      const read = await vault.get(alice, "github");
      read?.scopes?.push("delete_repo");
      expect((await vault.get(alice, "github"))?.scopes).toEqual(["repo", "read:user"]);
    });

    it("refuses malformed credentials and users, naming the field but never a secret", async () => {
      const vault = setup().open();
      const credential = github();
      const bad: [UserRef, StoredCredential][] = [
        [alice, { ...credential, scopes: "repo" as never }],
        [alice, { ...credential, provider: "" }],
        [alice, { ...credential, secret: 42 as never }],
        [alice, { ...credential, updatedAt: undefined as never }],
        [alice, { ...credential, account: 7 as never }],
        [alice, { ...credential, createdAt: "yesterday" as never }],
        [{ issuer: "", subject: "alice" }, credential],
      ];
      for (const [user, value] of bad) {
        const error = await vault.put(user, value).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(SdkError);
        expect(error).toMatchObject({ code: "INVALID_ARGUMENT" });
        expectNoLeak(error, [credential.secret, credential.refreshToken ?? ""]);
      }
      expect(await vault.get(alice, "github")).toBeUndefined();
    });

    it("refuses keys that are not 32 bytes, or a current key id that names no key", () => {
      const { open } = setup();
      const short = randomBytes(16);
      for (const encryption of [keys("k1", { k1: short }), keys("k9", { k1 }), keys("", { "": k1 })]) {
        const error = (() => {
          try {
            open(encryption);
          } catch (e) {
            return e;
          }
        })();
        expect(error).toMatchObject({ code: "INVALID_ARGUMENT" });
        expectNoLeak(error, [short.toString("hex"), short.toString("base64"), k1.toString("hex")]);
      }
    });

    it("reads rows sealed with an older key, and rotate() re-seals them all with the current one", async () => {
      const { open } = setup();
      const old = open(keys("k1", { k1 }));
      const [a, b] = [github(), github()];
      await old.put(alice, a);
      await old.put(bob, b);
      const both = open(keys("k2", { k1, k2 }));
      expect(await both.get(alice, "github")).toStrictEqual(a);
      const c = github();
      await both.put(otherAlice, c);
      expect(await both.rotate()).toBe(2);
      expect(await both.rotate()).toBe(0);
      const onlyNew = open(keys("k2", { k2 }));
      expect(await onlyNew.get(alice, "github")).toStrictEqual(a);
      expect(await onlyNew.get(bob, "github")).toStrictEqual(b);
      expect(await onlyNew.get(otherAlice, "github")).toStrictEqual(c);
      const onlyOld = open(keys("k1", { k1 }));
      const error = await onlyOld.get(alice, "github").catch((e: unknown) => e);
      expect(error).toMatchObject({ code: "CREDENTIAL_UNREADABLE", message: expect.stringContaining('"k2"') });
    });

    it("fails clearly, naming provider and key id but no secret, when the key is wrong", async () => {
      const { open } = setup();
      const credential = github();
      await open(keys("k1", { k1 })).put(alice, credential);
      const impostor = randomBytes(32);
      const error = await open(keys("k1", { k1: impostor }))
        .get(alice, "github")
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SdkError);
      expect(error).toMatchObject({ code: "CREDENTIAL_UNREADABLE" });
      expect((error as Error).message).toContain('"github"');
      expect((error as Error).message).toContain('"k1"');
      expectNoLeak(error, [
        credential.secret,
        credential.refreshToken ?? "",
        k1.toString("hex"),
        impostor.toString("hex"),
      ]);
    });

    it("refuses to write with another key under a key id it already knows, naming the id and no key", async () => {
      const { open } = setup();
      const credential = github();
      await open(keys("k1", { k1 })).put(alice, credential);
      const impostor = randomBytes(32);
      const wrong = open(keys("k1", { k1: impostor }));
      for (const write of [() => wrong.put(bob, github()), () => wrong.put(alice, github()), () => wrong.rotate()]) {
        const error = await write().catch((e: unknown) => e);
        expect(error).toBeInstanceOf(SdkError);
        expect(error).toMatchObject({ code: "INVALID_ARGUMENT" });
        expect((error as Error).message).toContain('"k1"');
        expect((error as Error).message).toContain("key check value");
        expectNoLeak(error, [
          credential.secret,
          k1.toString("hex"),
          impostor.toString("hex"),
          impostor.toString("base64"),
        ]);
      }
      // Nothing was written: the right key still reads alice's credential, and bob has none.
      const right = open(keys("k1", { k1 }));
      expect(await right.get(alice, "github")).toStrictEqual(credential);
      expect(await right.get(bob, "github")).toBeUndefined();
      // The right key, and a new key id beside it, write as before.
      await right.put(bob, github());
      await open(keys("k2", { k1, k2 })).put(otherAlice, github());
      await expect(open(keys("k2", { k1, k2: randomBytes(32) })).put(bob, github())).rejects.toMatchObject({
        code: "INVALID_ARGUMENT",
      });
    });

    it("rotates all or nothing: one unreadable row leaves every row as it was", async () => {
      const { open } = setup();
      const k0 = randomBytes(32);
      const readable = github();
      await open(keys("k0", { k0 })).put(alice, readable);
      await open(keys("k1", { k1 })).put(bob, github());
      const wrongK1 = open(keys("k2", { k0, k1: randomBytes(32), k2 }));
      await expect(wrongK1.rotate()).rejects.toMatchObject({ code: "CREDENTIAL_UNREADABLE" });
      // Still sealed with k0: re-sealing it with k2 was rolled back.
      expect(await open(keys("k0", { k0 })).get(alice, "github")).toStrictEqual(readable);
    });

    it("keeps unencrypted rows and keyed vaults apart in both directions", async () => {
      const { open } = setup();
      const plain = open(INSECURE_PLAINTEXT_VAULT_FOR_TESTS);
      const credential = github();
      await plain.put(alice, credential);
      expect(await plain.get(alice, "github")).toStrictEqual(credential);
      const keyed = open(keys("k1", { k1 }));
      await expect(keyed.get(alice, "github")).rejects.toMatchObject({ code: "CREDENTIAL_UNREADABLE" });
      await expect(keyed.rotate()).rejects.toMatchObject({ code: "CREDENTIAL_UNREADABLE" });
      await keyed.put(bob, github());
      await expect(plain.get(bob, "github")).rejects.toMatchObject({ code: "CREDENTIAL_UNREADABLE" });
    });

    it("refuses a sealed secret moved to another user's or provider's row", async (context) => {
      const { harness, open } = setup();
      if (harness.moveSealed === undefined) return context.skip("this storage cannot be written behind the vault");
      const vault = open();
      const mine = github();
      await vault.put(alice, mine);
      await vault.put(bob, github());
      await vault.put(alice, { provider: "linear", secret: "lin_api_1", updatedAt: 1 });
      harness.moveSealed([alice, "github"], [bob, "github"]);
      harness.moveSealed([alice, "github"], [alice, "linear"]);
      for (const [user, provider] of [
        [bob, "github"],
        [alice, "linear"],
      ] as const) {
        const error = await vault.get(user, provider).catch((e: unknown) => e);
        expect(error).toMatchObject({ code: "CREDENTIAL_UNREADABLE" });
        expectNoLeak(error, [mine.secret, mine.refreshToken ?? ""]);
      }
      expect(await vault.get(alice, "github")).toStrictEqual(mine);
    });

    it("holds no secret in plain text at rest (and the check would see one)", async (context) => {
      const { harness, open } = setup();
      if (harness.bytesAtRest === undefined) return context.skip("this storage has no bytes to read");
      const [first, replaced, rotated] = [github(), github(), github()];
      await open().put(alice, first);
      await open().put(alice, replaced);
      await open().put(bob, rotated);
      await open(keys("k2", { k1, k2 })).rotate();
      const plain = github();
      await open(INSECURE_PLAINTEXT_VAULT_FOR_TESTS).put(otherAlice, plain);
      const bytes = harness.bytesAtRest();
      for (const credential of [first, replaced, rotated]) {
        expect(bytes.includes(credential.secret)).toBe(false);
        expect(bytes.includes(credential.refreshToken ?? "")).toBe(false);
      }
      expect(bytes.includes(plain.secret)).toBe(true);
      expect(bytes.includes(plain.refreshToken ?? "")).toBe(true);
    });
  });
}
