/**
 * Connect pages served under a path prefix (`baseUrl` `http://host/app`): the login and session
 * cookies are scoped to `/app/connect`, so the browser sends them back and the hand-off finishes.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createConnectHandler } from "../../src/connect/index.js";
import { Browser } from "./browser.js";
import { callText, handOffUrl, idOf, peerFor, type World } from "./calls.js";
import { startWorld } from "./world.js";

let world: World;
beforeAll(async () => {
  world = await startWorld({ prefix: "/app" });
});
afterAll(async () => {
  await world?.close();
});

describe("connect: pages under a path prefix", () => {
  it("alice connects through /app/connect/<id>; the cookies are scoped to /app/connect", async () => {
    const peer = await peerFor(world, "alice");
    const url = await handOffUrl(world, peer, "repos");
    expect(new URL(url).pathname.startsWith("/app/connect/")).toBe(true);
    const browser = new Browser();
    const page = await browser.goSigningIn(url, "alice");
    expect(page.text).toContain("Done — return to your app");
    expect((await world.manager.get(idOf(url)))?.status).toBe("completed");
    expect(JSON.parse(await callText(peer, "repos"))).toEqual(["alice-repo-1", "alice-repo-2"]);
    expect(browser.hops.map((hop) => new URL(hop.url).pathname)).toContain("/app/connect/callback/github");
    const paths = browser.hops
      .flatMap((hop) => hop.setCookies)
      .filter((header) => header.startsWith("mcp_connect_"))
      .map((header) => /Path=([^;]+)/.exec(header)?.[1]);
    expect(paths.length).toBeGreaterThan(0);
    expect(new Set(paths)).toEqual(new Set(["/app/connect"]));
  });

  it("refuses a login redirect path outside the connect pages, whose cookie would never reach it", () => {
    const options = {
      manager: world.manager,
      vault: world.vault,
      baseUrl: "https://mcp.example.com/app",
      providers: {},
      cookieSecret: "another cookie secret of thirty-two bytes",
    };
    const login = (redirectPath: string) => ({ issuer: world.mcpIssuer, clientId: "mcp-connect", redirectPath });
    expect(() => createConnectHandler({ ...options, login: login("/connect/login") })).toThrow(RangeError);
    expect(() => createConnectHandler({ ...options, login: login("/app/connect/login") })).not.toThrow();
    const providers = { "my/provider": { issuer: world.mcpIssuer, clientId: "x" } };
    expect(() => createConnectHandler({ ...options, providers, login: login("/app/connect/login") })).toThrow(
      RangeError,
    );
  });
});
