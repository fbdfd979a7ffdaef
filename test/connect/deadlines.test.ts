/**
 * An interaction's deadline holds on every step of the connect pages, not only when the link is
 * opened: a grant or a secret that arrives after it is not stored, and the interaction does not
 * complete.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
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
afterEach(() => {
  vi.restoreAllMocks();
});

const alice = () => ({ issuer: world.mcpIssuer, subject: "alice" });
const onThirdParty = (url: URL) => url.host === new URL(world.thirdParty.issuer).host;
const csrfOf = (html: string) => /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? "";
const TEN_MINUTES = 600_000;

describe("connect: the interaction's deadline", () => {
  it("a third-party callback after the deadline stores nothing", async () => {
    const url = await handOffUrl(world, await peerFor(world, "alice"), "repos");
    const browser = new Browser();
    const atThirdParty = await browser.goSigningIn(url, "alice", onThirdParty);
    world.clock.time += TEN_MINUTES + 1;
    const page = await browser.goSigningIn(atThirdParty.response.headers.get("location") ?? "", "alice");
    expect(new URL(page.url).pathname).toBe("/connect/callback/github");
    expect(page.text).not.toContain("Done");
    expect(await world.vault.get(alice(), "github")).toBeUndefined();
    expect((await world.manager.get(idOf(url)))?.status).toBe("expired");
  });

  it("a deadline passing while the code is exchanged stores nothing either", async () => {
    const url = await handOffUrl(world, await peerFor(world, "alice"), "repos");
    const browser = new Browser();
    const atThirdParty = await browser.goSigningIn(url, "alice", onThirdParty);
    // The third party's token endpoint is slow: by its answer the interaction has expired.
    const realFetch = globalThis.fetch;
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      const target = new URL(input instanceof Request ? input.url : String(input));
      const response = await realFetch(input, init);
      if (onThirdParty(target) && target.pathname === "/token") world.clock.time += TEN_MINUTES + 1;
      return response;
    });
    const page = await browser.goSigningIn(atThirdParty.response.headers.get("location") ?? "", "alice");
    expect(new URL(page.url).pathname).toBe("/connect/callback/github");
    expect(page.text).not.toContain("Done");
    expect(await world.vault.get(alice(), "github")).toBeUndefined();
    expect((await world.manager.get(idOf(url)))?.status).toBe("expired");
  });

  it("a secret posted after the deadline is not stored", async () => {
    const url = await handOffUrl(world, await peerFor(world, "alice"), "forecast");
    const browser = new Browser();
    const form = await browser.goSigningIn(url, "alice");
    world.clock.time += TEN_MINUTES + 1;
    const page = await browser.go(url, { form: { csrf: csrfOf(form.text), secret: "fc-live-late-1234" } });
    expect(page.response.status).toBe(410);
    expect(await world.vault.get(alice(), "forecast")).toBeUndefined();
  });
});
