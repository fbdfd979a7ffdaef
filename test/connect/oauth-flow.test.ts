import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser } from "./browser.js";
import { callText, handOffUrl, idOf, peerFor } from "./calls.js";
import { startWorld } from "./world.js";

let world: Awaited<ReturnType<typeof startWorld>>;

beforeAll(async () => {
  world = await startWorld();
});
afterAll(async () => {
  await world?.close();
});

const alice = () => ({ issuer: world.mcpIssuer, subject: "alice" });

describe("connect: OAuth hand-off end to end", () => {
  it("tool call → hand-off → login as alice → third-party consent → vault → completion → retried call lists alice's items", async () => {
    const peer = await peerFor(world, "alice");
    const url = await handOffUrl(world, peer, "repos");
    const id = idOf(url);

    const browser = new Browser();
    const page = await browser.goSigningIn(url, "alice");
    expect(page.response.status).toBe(200);
    expect(page.text).toContain("Done — return to your app");
    expect(page.response.headers.get("cache-control")).toBe("no-store");
    expect(page.response.headers.get("x-frame-options")).toBe("DENY");
    expect(page.response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");

    expect((await world.manager.get(id))?.status).toBe("completed");
    const stored = await world.vault.get(alice(), "github");
    expect(stored?.scopes).toContain("repo");
    expect(stored?.refreshToken).toBeTruthy();
    // The token never appeared in any page or redirect the browser saw.
    expect(page.text).not.toContain(stored?.secret);

    expect(JSON.parse(await callText(peer, "repos"))).toEqual(["alice-repo-1", "alice-repo-2"]);
  });
});
