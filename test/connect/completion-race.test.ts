/**
 * Completing with a slow vault: the callback claims the interaction first, then writes the vault,
 * then announces the completion. Of two callbacks of one interaction only the one that won the
 * claim writes; a claim made before the deadline stands however long the write takes; a write that
 * fails withdraws the claim, and the user sees an error page and may try again.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { UserRef } from "../../src/model/identity.js";
import type { StoredCredential } from "../../src/model/interaction.js";
import type { CredentialVault } from "../../src/stores/index.js";
import { Browser } from "./browser.js";
import { handOffUrl, idOf, peerFor, type World } from "./calls.js";
import { startWorld } from "./world.js";

/** A vault whose writes wait until `open()`, and which says when each write starts. */
class SlowVault implements CredentialVault {
  /** The credentials written, in the order the writes started. */
  readonly puts: StoredCredential[] = [];
  /** Writes that ended, in order. */
  readonly written: StoredCredential[] = [];
  failNext: Error | undefined;
  #gate: Promise<void> = Promise.resolve();
  #openGate: () => void = () => {};
  #started: (() => void)[] = [];

  constructor(private readonly inner: CredentialVault) {}

  /** Writes from now on wait until `open()`. */
  close(): void {
    this.#gate = new Promise((resolve) => {
      this.#openGate = resolve;
    });
  }
  open(): void {
    this.#openGate();
  }
  /** Resolves once `count` writes have started. */
  started(count: number): Promise<void> {
    return new Promise((resolve) => {
      const check = () => (this.puts.length >= count ? resolve() : this.#started.push(check));
      check();
    });
  }

  async put(user: UserRef, credential: StoredCredential): Promise<void> {
    this.puts.push(credential);
    for (const notify of this.#started.splice(0)) notify();
    await this.#gate;
    const failure = this.failNext;
    this.failNext = undefined;
    if (failure) throw failure;
    await this.inner.put(user, credential);
    this.written.push(credential);
  }
  get = (user: UserRef, provider: string) => this.inner.get(user, provider);
  delete = (user: UserRef, provider: string) => this.inner.delete(user, provider);
}

let world: World;
let vault: SlowVault;
beforeAll(async () => {
  world = await startWorld({
    vault: (inner) => {
      vault = new SlowVault(inner);
      return vault;
    },
  });
});
afterAll(async () => {
  await world?.close();
});
afterEach(async () => {
  vault.open();
  vault.puts.length = 0;
  vault.written.length = 0;
  await world.vault.delete(alice(), "github");
});

const alice = () => ({ issuer: world.mcpIssuer, subject: "alice" });
const isCallback = (url: URL) => url.pathname === "/connect/callback/github";

/** Alice's browser, signed in, with the callback URL of one grant of `url` at the third party, not yet followed. */
async function grantedCallback(browser: Browser, url: string): Promise<string> {
  const page = await browser.goSigningIn(url, "alice", isCallback);
  const location = page.response.headers.get("location") ?? "";
  expect(isCallback(new URL(location))).toBe(true);
  return location;
}

/** Every completion announced for `id`, with whether the vault held alice's credential by then. */
async function announcements(id: string): Promise<boolean[]> {
  const seen: boolean[] = [];
  const sessionId = (await world.manager.get(id))?.sessionId ?? "";
  await world.manager.watchSession(sessionId, (completed) => {
    if (completed === id) seen.push(vault.written.length > 0);
  });
  return seen;
}

describe("connect: completing with a slow vault", () => {
  it("of two callbacks of one interaction, only the one that claimed it writes the vault; the other stores nothing", async () => {
    const url = await handOffUrl(world, await peerFor(world, "alice"), "repos");
    const announced = await announcements(idOf(url));
    const browser = new Browser();
    const first = await grantedCallback(browser, url);
    const second = await grantedCallback(browser, url);
    vault.close();
    const answers = [browser.go(first), browser.go(second)];
    await vault.started(1);
    // The loser answers at once; if it were writing too, its write would start instead.
    await Promise.race([Promise.race(answers), vault.started(2)]);
    vault.open();
    const pages = await Promise.all(answers);

    expect(vault.puts).toHaveLength(1);
    expect(pages.map((page) => page.response.status).sort()).toEqual([200, 409]);
    expect(pages.map((page) => page.text).join()).toContain("Done — return to your app");
    expect(pages.map((page) => page.text).join()).toContain("already been used");
    expect(await world.vault.get(alice(), "github")).toStrictEqual(vault.puts[0]);
    expect((await world.manager.get(idOf(url)))?.status).toBe("completed");
    // Announced once, after the credential was stored: a retried call finds it.
    expect(announced).toEqual([true]);
  });

  it("a claim made before the deadline stands though the deadline passes while the vault writes", async () => {
    const url = await handOffUrl(world, await peerFor(world, "alice"), "repos");
    const browser = new Browser();
    const callback = await grantedCallback(browser, url);
    vault.close();
    const answer = browser.go(callback);
    await vault.started(1);
    world.clock.time += 600_001;
    vault.open();
    const page = await answer;
    expect(page.response.status).toBe(200);
    expect(page.text).toContain("Done — return to your app");
    expect((await world.manager.get(idOf(url)))?.status).toBe("completed");
    expect(await world.vault.get(alice(), "github")).toStrictEqual(vault.puts[0]);
  });

  it("a vault write that fails shows an error page, is reported, announces nothing and leaves the link open to try again", async () => {
    const url = await handOffUrl(world, await peerFor(world, "alice"), "repos");
    const announced = await announcements(idOf(url));
    const browser = new Browser();
    vault.failNext = new Error("the vault's disk is full");
    const page = await browser.goSigningIn(url, "alice");
    expect(page.response.status).toBe(503);
    expect(page.text).toContain("could not be saved");
    expect(page.text).not.toContain("disk");
    expect(world.reports).toContain("Could not store the credential");
    expect(await world.vault.get(alice(), "github")).toBeUndefined();
    expect((await world.manager.get(idOf(url)))?.status).not.toBe("completed");
    expect(announced).toEqual([]);

    const again = await browser.goSigningIn(url, "alice");
    expect(again.text).toContain("Done — return to your app");
    expect((await world.manager.get(idOf(url)))?.status).toBe("completed");
    expect(announced).toEqual([true]);
  });
});
