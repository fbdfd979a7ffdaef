/**
 * The connect pages take a pino logger as it is. A store that fails while saving a credential
 * attaches the row it was given (as database drivers do); the page answers 503, and the pino
 * record names the failure without any of the credential's secrets.
 */
import { Writable } from "node:stream";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { UserRef } from "../../src/model/identity.js";
import type { StoredCredential } from "../../src/model/interaction.js";
import type { CredentialVault } from "../../src/stores/types.js";
import { Browser } from "./browser.js";
import { handOffUrl, peerFor, type World } from "./calls.js";
import { startWorld } from "./world.js";

/** A vault that fails every write while `failing`, quoting what it was asked to write. */
class QuotingVault implements CredentialVault {
  failing = true;
  readonly refused: StoredCredential[] = [];
  constructor(private readonly inner: CredentialVault) {}
  async put(user: UserRef, credential: StoredCredential): Promise<void> {
    if (!this.failing) return this.inner.put(user, credential);
    this.refused.push(credential);
    throw Object.assign(new Error("SQLITE_FULL: database or disk is full"), { code: "SQLITE_FULL", row: credential });
  }
  get(user: UserRef, provider: string) {
    return this.inner.get(user, provider);
  }
  delete(user: UserRef, provider: string) {
    return this.inner.delete(user, provider);
  }
}

const written: string[] = [];
const stream = new Writable({
  write(chunk, _encoding, done) {
    written.push(String(chunk));
    done();
  },
});
let vault: QuotingVault;
let world: World;
beforeAll(async () => {
  world = await startWorld({
    pagesLogger: pino(stream),
    vault: (inner) => {
      vault = new QuotingVault(inner);
      return vault;
    },
  });
});
afterAll(async () => {
  await world?.close();
});

const onThirdParty = (url: URL) => url.host === new URL(world.thirdParty.issuer).host;

describe("connect pages with a pino logger", () => {
  it("a failed save is one error record, with the error's message and code and none of the credential", async () => {
    const url = await handOffUrl(world, await peerFor(world, "alice"), "repos");
    const browser = new Browser();
    const atThirdParty = await browser.goSigningIn(url, "alice", onThirdParty);
    const page = await browser.goSigningIn(atThirdParty.response.headers.get("location") ?? "", "alice");

    expect(page.response.status).toBe(503);
    const [credential] = vault.refused;
    expect(credential?.secret.length).toBeGreaterThan(8);
    const text = written.join("");
    const records = text
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(records).toEqual([
      expect.objectContaining({
        level: 50,
        msg: "Could not store the credential",
        err: expect.objectContaining({ message: "SQLITE_FULL: database or disk is full", code: "SQLITE_FULL" }),
      }),
    ]);
    for (const secret of [credential?.secret, credential?.refreshToken]) {
      if (secret !== undefined) expect(text.includes(secret), "a secret reached the log").toBe(false);
    }
  });

  it("positive control: with the store working, the same flow stores the credential and logs nothing", async () => {
    vault.failing = false;
    written.length = 0;
    const url = await handOffUrl(world, await peerFor(world, "bob"), "repos");
    const browser = new Browser();
    const atThirdParty = await browser.goSigningIn(url, "bob", onThirdParty);
    const page = await browser.goSigningIn(atThirdParty.response.headers.get("location") ?? "", "bob");
    expect(page.response.status).toBe(200);
    expect(await world.vault.get({ issuer: world.mcpIssuer, subject: "bob" }, "github")).toBeDefined();
    expect(written).toEqual([]);
  });
});
