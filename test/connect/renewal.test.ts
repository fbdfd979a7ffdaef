/**
 * Credentials over time: an expired access token is renewed with its refresh token at the real
 * third-party server; a refresh token it no longer accepts is forgotten and the hand-off starts
 * again. Also the session cookie's flags, and `wait: true` within one call.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createConnectHandler } from "../../src/connect/index.js";
import { CookieSealer } from "../../src/connect/sealed-cookie.js";
import { Browser } from "./browser.js";
import { callText, handOffUrl, peerFor, type World } from "./calls.js";
import { startWorld } from "./world.js";

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(async () => {
  await world?.close();
});

const alice = () => ({ issuer: world.mcpIssuer, subject: "alice" });

async function connectAlice() {
  const peer = await peerFor(world, "alice");
  const browser = new Browser();
  const page = await browser.goSigningIn(await handOffUrl(world, peer, "repos"), "alice");
  expect(page.text).toContain("Done — return to your app");
  return { peer, browser };
}

describe("connect: credentials over time", () => {
  it("the session cookie is HttpOnly, SameSite=Lax, Path=/connect, without Secure on loopback", async () => {
    const { browser } = await connectAlice();
    const connectHost = new URL(world.connectOrigin).host;
    const setCookie = browser.hops
      .filter((hop) => new URL(hop.url).host === connectHost)
      .flatMap((hop) => hop.setCookies)
      .find((header) => header.startsWith("mcp_connect_session="));
    expect(setCookie).toBeDefined();
    const attributes = (setCookie ?? "").split(";").map((part) => part.trim());
    expect(attributes).toContain("HttpOnly");
    expect(attributes).toContain("SameSite=Lax");
    expect(attributes).toContain("Path=/connect");
    expect(attributes).not.toContain("Secure");
    await world.vault.delete(alice(), "github");
  });

  it("served at an https origin, its cookies are __Host- (Secure, Path=/); under a path, __Secure-; plain http elsewhere than loopback is refused", async () => {
    const handlerAt = (baseUrl: string) =>
      createConnectHandler({
        manager: world.manager,
        vault: world.vault,
        baseUrl,
        login: {
          issuer: world.mcpIssuer,
          clientId: "mcp-connect",
          redirectPath: `${new URL(baseUrl).pathname.replace(/\/$/, "")}/connect/login`,
        },
        providers: {},
        cookieSecret: "another cookie secret of thirty-two bytes",
      });
    const cookieAt = async (baseUrl: string) => {
      const response = await handlerAt(baseUrl)(new Request(`${baseUrl}/connect/AAAAAAAAAAAAAAAAAAAAAA`));
      expect(response.status).toBe(303);
      return (response.headers.getSetCookie()[0] ?? "").split("; ");
    };
    const root = await cookieAt("https://mcp.example.com");
    expect(root[0]).toMatch(/^__Host-mcp_connect_login=/);
    expect(root).toEqual(expect.arrayContaining(["Path=/", "HttpOnly", "SameSite=Lax", "Secure"]));
    expect(root.some((part) => part.startsWith("Domain="))).toBe(false);
    const underPath = await cookieAt("https://mcp.example.com/app");
    expect(underPath[0]).toMatch(/^__Secure-mcp_connect_login=/);
    expect(underPath).toEqual(expect.arrayContaining(["Path=/app/connect", "HttpOnly", "SameSite=Lax", "Secure"]));
    expect(() => handlerAt("http://mcp.example.com/app")).toThrow(RangeError);
  });

  it("at an https origin, a session cookie without the __Host- prefix (as a sibling subdomain could set) is not read", async () => {
    const secret = "another cookie secret of thirty-two bytes";
    const handler = createConnectHandler({
      manager: world.manager,
      vault: world.vault,
      baseUrl: "https://mcp.example.com",
      login: { issuer: world.mcpIssuer, clientId: "mcp-connect", redirectPath: "/connect/login" },
      providers: {},
      cookieSecret: secret,
    });
    // A session of the attacker's own, sealed as the pages seal it: valid, but under the plain name.
    const session = new CookieSealer(secret).seal(
      "session",
      { user: { issuer: world.mcpIssuer, subject: "mallory" }, sid: "sid-of-mallory", name: "mallory" },
      Date.now() + 60_000,
    );
    const open = (cookie: string) =>
      handler(new Request("https://mcp.example.com/connect/AAAAAAAAAAAAAAAAAAAAAA", { headers: { cookie } }));
    const tossed = await open(`mcp_connect_session=${session}`);
    expect(tossed.status).toBe(303); // sent to sign in: the planted session counts for nothing
    expect(new URL(tossed.headers.get("location") ?? "").origin).toBe(world.mcpIssuer);
    const own = await open(`__Host-mcp_connect_session=${session}`);
    expect(own.status).toBe(404); // read as a session: the (unknown) link itself answers
  });

  it("an expired access token is renewed with the refresh token; the call still lists alice's items", async () => {
    const { peer } = await connectAlice();
    const before = await world.vault.get(alice(), "github");
    world.clock.time += 2 * 3_600_000;
    expect(JSON.parse(await callText(peer, "repos"))).toEqual(["alice-repo-1", "alice-repo-2"]);
    const after = await world.vault.get(alice(), "github");
    expect(after?.secret).not.toBe(before?.secret);
    expect(after?.expiresAt).toBeGreaterThan(world.clock.time);
    await world.vault.delete(alice(), "github");
  });

  it("a revoked refresh token is forgotten and the next call hands alice off again", async () => {
    const { peer } = await connectAlice();
    const stored = await world.vault.get(alice(), "github");
    const refresh = await world.thirdParty.provider.RefreshToken.find(stored?.refreshToken ?? "");
    await refresh?.destroy();
    world.clock.time += 2 * 3_600_000;
    await handOffUrl(world, peer, "repos");
    expect(await world.vault.get(alice(), "github")).toBeUndefined();
  });

  it("with wait: true the call hands off through elicitation and returns once alice is done", async () => {
    const browser = new Browser();
    const peer = await peerFor(world, "alice", async (params) => {
      void browser.goSigningIn(String(params.url), "alice");
      return { action: "accept" };
    });
    const result = (await peer.client.request("tools/call", { name: "repos", arguments: { wait: true } })) as {
      content: { text: string }[];
    };
    expect(JSON.parse(result.content[0]?.text ?? "")).toEqual(["alice-repo-1", "alice-repo-2"]);
  });
});
