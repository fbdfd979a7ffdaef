/**
 * Mix-up (RFC 9700 § 4.4): an attacker runs one of the configured providers and relays the user,
 * with the connect pages' `state` and PKCE challenge, into an honest provider that sends no `iss`
 * (as GitHub does). Each provider has its own redirect URI, so the honest provider's code comes
 * back to the honest provider's callback, where a grant started for the attacker is refused before
 * anything is sent to any token endpoint (RFC 9700 § 4.4.2).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AttackerServer, startAttackerServer } from "./attacker-server.js";
import { Browser } from "./browser.js";
import { idOf, type World } from "./calls.js";
import { startWorld } from "./world.js";

let world: World;
/** Filled once the world runs: where the attackers relay to. */
const honest = { authorizationEndpoint: "", clientId: "repo-connector" };
let rewriting: AttackerServer;
let keeping: AttackerServer;

beforeAll(async () => {
  // One attacker sends the honest provider the honest provider's own redirect URI; the other keeps its own.
  rewriting = await startAttackerServer(honest, (uri) => uri.replace(/\/evil$/, "/github"));
  keeping = await startAttackerServer(honest, (uri) => uri);
  world = await startWorld({
    thirdParty: { sendIss: false, sharedCallback: true },
    providers: {
      evil: { issuer: rewriting.issuer, clientId: "connect-at-evil" },
      evil2: { issuer: keeping.issuer, clientId: "connect-at-evil2" },
    },
  });
  honest.authorizationEndpoint = `${world.thirdParty.issuer}/auth`;
});
afterAll(async () => {
  await world?.close();
  await Promise.all([rewriting?.close(), keeping?.close()]);
});

const alice = () => ({ issuer: world.mcpIssuer, subject: "alice" });
const onThirdParty = (url: URL) => url.host === new URL(world.thirdParty.issuer).host;

/** A hand-off for alice to connect `provider`, as `ctx.credentials.require` would make it. */
async function connectLink(provider: string): Promise<string> {
  const interaction = await world.manager.create({
    url: `${world.connectOrigin}/connect/{interactionId}`,
    message: `Connect your ${provider} account to continue.`,
    user: alice(),
    sessionId: "session-of-alice",
    purpose: { kind: "oauth", provider, scopes: ["repo"] },
  });
  return interaction.url;
}

async function nothingStored(): Promise<void> {
  for (const provider of ["github", "evil", "evil2"]) expect(await world.vault.get(alice(), provider)).toBeUndefined();
}

describe("connect: mix-up with a provider that sends no iss", () => {
  it("github (no iss) connects on its own redirect URI, /connect/callback/github", async () => {
    const url = await connectLink("github");
    const browser = new Browser();
    const page = await browser.goSigningIn(url, "alice");
    expect(page.text).toContain("Done — return to your app");
    const atThirdParty = browser.hops.find((hop) => onThirdParty(new URL(hop.url)));
    expect(new URL(atThirdParty?.url ?? "").searchParams.get("redirect_uri")).toBe(
      `${world.connectOrigin}/connect/callback/github`,
    );
    const callback = new URL(page.url);
    expect(callback.pathname).toBe("/connect/callback/github");
    expect(callback.searchParams.has("iss")).toBe(false);
    expect((await world.vault.get(alice(), "github"))?.secret).toBeTruthy();
    expect((await world.manager.get(idOf(url)))?.status).toBe("completed");
    await world.vault.delete(alice(), "github");
  });

  it("relayed into github with github's redirect URI, github's code is refused at github's callback and never reaches the attacker", async () => {
    const url = await connectLink("evil");
    const browser = new Browser();
    const page = await browser.goSigningIn(url, "alice");
    // The user went through github's real login and consent, and came back with a code of github's.
    expect(browser.hops.some((hop) => onThirdParty(new URL(hop.url)))).toBe(true);
    expect(rewriting.tokenRequests).toEqual([]);
    expect(new URL(page.url).searchParams.get("code")).toBeTruthy();
    expect(new URL(page.url).pathname).toBe("/connect/callback/github");
    expect(page.response.status).toBe(403);
    expect(page.text).toContain("Nothing was stored");
    expect(world.reports).toContain("A third-party answer came back to another provider's redirect URI");
    await nothingStored();
    expect((await world.manager.get(idOf(url)))?.status).toBe("pending");
  });

  it("relayed into github with the attacker's own redirect URI, github refuses to send the code anywhere", async () => {
    const url = await connectLink("evil2");
    const browser = new Browser();
    await browser.goSigningIn(url, "alice");
    expect(keeping.tokenRequests).toEqual([]);
    expect(browser.hops.some((hop) => new URL(hop.url).pathname.startsWith("/connect/callback"))).toBe(false);
    await nothingStored();
  });

  it("the shared /connect/callback is not served: an answer sent there is refused and the operator is told", async () => {
    const url = await connectLink("github");
    const browser = new Browser();
    const atThirdParty = await browser.goSigningIn(url, "alice", onThirdParty);
    const authorize = new URL(atThirdParty.response.headers.get("location") ?? "");
    authorize.searchParams.set("redirect_uri", `${world.connectOrigin}/connect/callback`);
    const page = await browser.goSigningIn(authorize.href, "alice");
    expect(new URL(page.url).pathname).toBe("/connect/callback");
    expect(page.response.status).toBe(404);
    expect(world.reports.some((report) => report.includes("/connect/callback/<provider>"))).toBe(true);
    await nothingStored();
  });
});
