/**
 * What the connect pages refuse, each time storing nothing and leaving the interaction as it was:
 * another user's link (phishing by forwarding a link), unknown or altered ids, a replayed or
 * foreign third-party `state`, an expired interaction.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser } from "./browser.js";
import { handOffUrl, idOf, peerFor, type World } from "./calls.js";
import { startWorld } from "./world.js";

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(async () => {
  await world?.close();
});

const user = (subject: string) => ({ issuer: world.mcpIssuer, subject });
const onThirdParty = (url: URL) => url.host === new URL(world.thirdParty.issuer).host;

async function nothingStored(): Promise<void> {
  expect(await world.vault.get(user("alice"), "github")).toBeUndefined();
  expect(await world.vault.get(user("bob"), "github")).toBeUndefined();
}

describe("connect: refusals", () => {
  it("bob opening alice's link gets exactly the answer to an unknown link; nothing is stored and alice's interaction stays pending", async () => {
    const url = await handOffUrl(world, await peerFor(world, "alice"), "repos");
    const bob = new Browser();
    const page = await bob.goSigningIn(url, "bob");
    const unknown = await bob.go(`${world.connectOrigin}/connect/${"A".repeat(22)}`);
    expect(page.response.status).toBe(404);
    expect(unknown.response.status).toBe(404);
    expect(page.text).toBe(unknown.text);
    expect(page.text).toContain("made for another account");
    expect(page.text).toContain("bob@example.com"); // who is signed in, and a way to sign in as someone else
    expect(page.response.headers.get("cache-control")).toBe("no-store");
    expect(bob.hops.some((hop) => onThirdParty(new URL(hop.url)))).toBe(false);
    await nothingStored();
    expect((await world.manager.get(idOf(url)))?.status).toBe("pending");
    // Whatever alice's link has become, bob learns nothing of it.
    const done = await handOffUrl(world, await peerFor(world, "alice"), "repos");
    await world.manager.complete(idOf(done), { user: user("alice") });
    const expired = await handOffUrl(world, await peerFor(world, "alice"), "repos");
    world.clock.time += 600_001;
    for (const link of [done, expired]) {
      const answer = await bob.go(link);
      expect(answer.response.status).toBe(404);
      expect(answer.text).toBe(unknown.text);
    }
  });

  it("an unknown or altered interaction id gets a plain not-found page", async () => {
    const url = await handOffUrl(world, await peerFor(world, "alice"), "repos");
    const id = idOf(url);
    const altered = `${id.slice(0, -1)}${id.endsWith("A") ? "B" : "A"}`;
    const browser = new Browser();
    for (const target of [`${world.connectOrigin}/connect/${altered}`, `${world.connectOrigin}/connect/nope`]) {
      const page = await browser.goSigningIn(target, "alice");
      expect(page.response.status).toBe(404);
      expect(page.text).toContain("unknown or no longer valid");
    }
    expect((await world.manager.get(id))?.status).toBe("pending");
  });

  it("an expired interaction shows that it expired and cannot be completed", async () => {
    const url = await handOffUrl(world, await peerFor(world, "alice"), "repos");
    world.clock.time += 600_001;
    const page = await new Browser().goSigningIn(url, "alice");
    expect(page.response.status).toBe(410);
    expect(page.text).toContain("expired");
    expect((await world.manager.get(idOf(url)))?.status).toBe("expired");
    await nothingStored();
  });

  it("alice's state used in bob's browser is refused, and alice's interaction stays pending", async () => {
    const url = await handOffUrl(world, await peerFor(world, "alice"), "repos");
    const alice = new Browser();
    const atThirdParty = await alice.goSigningIn(url, "alice", onThirdParty);
    const authorize = atThirdParty.response.headers.get("location") ?? "";
    expect(new URL(authorize).searchParams.get("state")).toBeTruthy();

    const bob = new Browser();
    await bob.goSigningIn(url, "bob"); // bob's own connect login; alice's link is refused
    const page = await bob.goSigningIn(authorize, "bob");
    expect(new URL(page.url).pathname).toBe("/connect/callback/github");
    expect(page.response.status).toBe(403);
    expect(page.text).toContain("Nothing was stored");
    await nothingStored();
    expect((await world.manager.get(idOf(url)))?.status).toBe("pending");
  });

  it("a replayed callback is refused and changes nothing", async () => {
    const url = await handOffUrl(world, await peerFor(world, "alice"), "repos");
    const alice = new Browser();
    const done = await alice.goSigningIn(url, "alice");
    expect(done.text).toContain("Done — return to your app");
    const stored = await world.vault.get(user("alice"), "github");
    const callback = alice.hops.find((hop) => new URL(hop.url).pathname === "/connect/callback/github")?.url ?? "";
    expect(callback).toContain("state=");

    const replay = await alice.go(callback);
    expect(replay.response.status).toBe(403);
    expect(replay.text).toContain("Nothing was stored");
    expect(await world.vault.get(user("alice"), "github")).toEqual(stored);
    expect((await world.manager.get(idOf(url)))?.status).toBe("completed");
    await world.vault.delete(user("alice"), "github");
  });

  it("a callback whose state was never issued is refused", async () => {
    const browser = new Browser();
    const url = await handOffUrl(world, await peerFor(world, "alice"), "repos");
    await browser.goSigningIn(url, "alice", onThirdParty);
    const page = await browser.go(`${world.connectOrigin}/connect/callback/github?code=x&state=made-up`);
    expect(page.response.status).toBe(403);
    await nothingStored();
  });

  it("a user who declines at the third party gets a page saying so; nothing stored, interaction pending", async () => {
    const url = await handOffUrl(world, await peerFor(world, "alice"), "repos");
    const alice = new Browser();
    const atThirdParty = await alice.goSigningIn(url, "alice", onThirdParty);
    const login = await alice.go(atThirdParty.response.headers.get("location") ?? "");
    const uid = /\/interaction\/([^/?#]+)/.exec(login.url)?.[1] ?? "";
    const page = await alice.go(`${world.thirdParty.issuer}/interaction/${uid}/abort`);
    expect(new URL(page.url).pathname).toBe("/connect/callback/github");
    expect(page.response.status).toBe(502);
    expect(page.text).toContain("did not grant access");
    expect(world.reports).toContain("The provider did not grant access");
    await nothingStored();
    expect((await world.manager.get(idOf(url)))?.status).toBe("pending");
  });
});
