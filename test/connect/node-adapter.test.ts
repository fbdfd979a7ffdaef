/**
 * The connect pages mounted on `node:http` with the package's adapter, `toNodeHandler(handler)`:
 * GET and POST with form bodies, request headers (cookies, `Origin`), response status and headers,
 * two `Set-Cookie` on one response kept apart, and a handler that throws answered 500 and logged.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser } from "./browser.js";
import { handOffUrl, idOf, peerFor, type World } from "./calls.js";
import { startWorld } from "./world.js";

let world: World;
beforeAll(async () => {
  world = await startWorld({
    // A handler in front of the pages that fails as a bug would: it throws.
    wrap: (pages) => async (request) => {
      if (new URL(request.url).pathname === "/boom") throw new Error("a bug in front of the pages");
      return pages(request);
    },
  });
});
afterAll(async () => {
  await world?.close();
});

const csrfOf = (html: string) => /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? "";

describe("toNodeHandler(createConnectHandler(...)) on node:http", () => {
  it("serves the sign-in, the form (GET) and its answer (POST); the sign-in's two Set-Cookie arrive apart", async () => {
    const url = await handOffUrl(world, await peerFor(world, "alice"), "forecast");
    const browser = new Browser();
    const form = await browser.goSigningIn(url, "alice");
    expect(form.response.status).toBe(200);
    expect(form.response.headers.get("content-type")).toMatch(/^text\/html/);
    expect(form.response.headers.get("cache-control")).toBe("no-store");

    // The first visit is sent to log in, with the login cookie; the login's end sets the session
    // cookie and clears the login cookie, in two Set-Cookie headers of one response.
    const first = browser.hops[0];
    expect(first?.status).toBe(303);
    expect(first?.setCookies).toHaveLength(1);
    const loginEnd = browser.hops.find((hop) => new URL(hop.url).pathname === "/connect/login");
    expect(loginEnd?.setCookies).toHaveLength(2);
    expect(loginEnd?.setCookies.map((cookie) => cookie.split("=")[0])).toEqual(
      expect.arrayContaining([expect.stringContaining("session"), expect.stringContaining("login")]),
    );

    // The POST's form body reaches the pages, with the cookie and Origin headers.
    const done = await browser.go(url, { form: { csrf: csrfOf(form.text), secret: "fc-live-9a8b7c6d5e" } });
    expect(done.response.status).toBe(200);
    expect(done.text).toContain("Done");
    expect((await world.manager.get(idOf(url)))?.status).toBe("completed");
    expect((await world.vault.get({ issuer: world.mcpIssuer, subject: "alice" }, "forecast"))?.secret).toBe(
      "fc-live-9a8b7c6d5e",
    );
  });

  it("answers the pages' own statuses: 404 for an unknown path, 403 for a post without a session", async () => {
    const unknown = await fetch(`${world.connectOrigin}/nowhere`);
    expect(unknown.status).toBe(404);
    await unknown.body?.cancel();
    const url = await handOffUrl(world, await peerFor(world, "bob"), "forecast");
    const refused = await new Browser().go(url, { form: { csrf: "x", secret: "y" } });
    expect(refused.response.status).toBe(403);
  });

  it("answers 500 to a handler that throws, and logs the error; the pages beside it keep serving", async () => {
    const before = world.reports.length;
    const failed = await fetch(`${world.connectOrigin}/boom`);
    expect(failed.status).toBe(500);
    expect(await failed.text()).not.toContain("a bug in front of the pages");
    expect(world.reports.slice(before)).toEqual(["A request handler failed"]);
    const after = await fetch(`${world.connectOrigin}/nowhere`);
    expect(after.status).toBe(404);
    await after.body?.cancel();
  });
});
