/**
 * A preset through the real connect pages: alice connects a GitHub-like provider (stated
 * endpoints, no `iss`, comma-separated granted scopes) from the hand-off link, and the credential
 * stored covers each scope granted.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { github } from "../../../src/connect/index.js";
import { Browser } from "../browser.js";
import { idOf, type World } from "../calls.js";
import { startWorld } from "../world.js";
import { CLIENT, type LikeProvider, rehome, reserveLikeProvider } from "./like-provider.js";

let world: World;
let like: LikeProvider;

beforeAll(async () => {
  const reserved = await reserveLikeProvider();
  const preset = github(CLIENT);
  world = await startWorld({ providers: { gh: rehome(preset, reserved.origin) } });
  like = reserved.start(preset, {
    scopes: ["repo", "gist"],
    discovery: false,
    sendIss: false,
    revocation: false,
    refresh: "none",
    noExpiry: true,
    grantedScopes: ",",
    tokenType: "bearer",
    errorsWith200: true,
    providers: ["gh"],
    connectBase: `${world.connectOrigin}/`,
  });
});
afterAll(async () => {
  await world?.close();
  await like?.close();
});

describe("presets: through the connect pages", () => {
  it("alice connects the GitHub preset from her hand-off link; the grant is stored with each scope it was given", async () => {
    const alice = { issuer: world.mcpIssuer, subject: "alice" };
    const interaction = await world.manager.create({
      url: `${world.connectOrigin}/connect/{interactionId}`,
      message: "Connect your GitHub account to continue.",
      user: alice,
      sessionId: "session-of-alice",
      purpose: { kind: "oauth", provider: "gh", scopes: ["repo", "gist"] },
    });
    const browser = new Browser();
    const page = await browser.goSigningIn(interaction.url, "alice");
    expect(page.text).toContain("Done — return to your app");
    expect(new URL(page.url).pathname).toBe("/connect/callback/gh");
    expect(browser.hops.some((hop) => new URL(hop.url).pathname === "/login/oauth/authorize")).toBe(true);
    expect((await world.manager.get(idOf(interaction.url)))?.status).toBe("completed");
    const stored = await world.vault.get(alice, "gh");
    expect(stored?.scopes).toEqual(["repo", "gist"]);
    expect(stored?.refreshToken).toBeUndefined();
    expect(page.text).not.toContain(stored?.secret);
  });
});
