/** The secret path: a form behind the same login, its CSRF token bound to the browser's session. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser } from "./browser.js";
import { callText, handOffUrl, idOf, peerFor, type World } from "./calls.js";
import { startWorld } from "./world.js";

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(async () => {
  await world?.close();
});

const alice = () => ({ issuer: world.mcpIssuer, subject: "alice" });
const csrfOf = (html: string) => /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? "";

describe("connect: secret form", () => {
  it("alice enters an API key: stored for her, never shown, interaction completed, retried call works", async () => {
    const peer = await peerFor(world, "alice");
    const url = await handOffUrl(world, peer, "forecast");
    const browser = new Browser();
    const form = await browser.goSigningIn(url, "alice");
    expect(form.response.status).toBe(200);
    expect(form.text).toContain('type="password"');
    // It names the account the key will be kept for.
    expect(/<h1>([^<]*)<\/h1>/.exec(form.text)?.[1]).toBe("Save your forecast API key for alice@example.com");
    expect(form.response.headers.get("content-security-policy")).toContain("default-src 'none'");

    const secret = "fc-live-4f1c2a9e7b";
    const done = await browser.go(url, { form: { csrf: csrfOf(form.text), secret } });
    expect(done.text).toContain("Done — return to your app");
    expect(done.text).not.toContain(secret);
    expect((await world.vault.get(alice(), "forecast"))?.secret).toBe(secret);
    expect((await world.manager.get(idOf(url)))?.status).toBe("completed");
    expect(await callText(peer, "forecast")).toBe(`key of length ${secret.length}`);
    await world.vault.delete(alice(), "forecast");
  });

  it("a post without the session's CSRF token, or with another session's, stores nothing", async () => {
    const url = await handOffUrl(world, await peerFor(world, "alice"), "forecast");
    const first = new Browser();
    const second = new Browser();
    const firstForm = await first.goSigningIn(url, "alice");
    await second.goSigningIn(url, "alice");
    for (const csrf of ["", "forged", csrfOf(firstForm.text)]) {
      const page = await second.go(url, { form: { csrf, secret: "stolen" } });
      expect(page.response.status).toBe(403);
    }
    const unsigned = await new Browser().go(url, { form: { csrf: csrfOf(firstForm.text), secret: "x" } });
    expect(unsigned.response.status).toBe(403);
    expect(await world.vault.get(alice(), "forecast")).toBeUndefined();
    expect((await world.manager.get(idOf(url)))?.status).toBe("pending");
  });

  it("a post from another site, even with the session's valid token, stores nothing; the page's own origin saves", async () => {
    const url = await handOffUrl(world, await peerFor(world, "alice"), "forecast");
    const browser = new Browser();
    const form = await browser.goSigningIn(url, "alice");
    const csrf = csrfOf(form.text);
    const own = new URL(world.connectOrigin).origin;
    const attempts: Record<string, string>[] = [
      { origin: "http://evil.localhost:4444", "sec-fetch-site": "cross-site" },
      { "sec-fetch-site": "same-site" },
      { origin: "http://other.127.0.0.1.nip.io" },
      { origin: own, "sec-fetch-site": "cross-site" },
    ];
    for (const headers of attempts) {
      const page = await browser.go(url, { form: { csrf, secret: "planted-by-another-site" }, headers });
      expect(page.response.status, JSON.stringify(headers)).toBe(403);
    }
    expect(await world.vault.get(alice(), "forecast")).toBeUndefined();
    expect((await world.manager.get(idOf(url)))?.status).toBe("pending");
    const saved = await browser.go(url, {
      form: { csrf, secret: "fc-live-own-origin" },
      headers: { origin: own, "sec-fetch-site": "same-origin" },
    });
    expect(saved.text).toContain("Done — return to your app");
    expect((await world.vault.get(alice(), "forecast"))?.secret).toBe("fc-live-own-origin");
    await world.vault.delete(alice(), "forecast");
  });
});
