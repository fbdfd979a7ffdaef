/**
 * Session fixation by cookie tossing: an attacker who can set cookies for the host plants a
 * session of their own in the victim's browser and sends the victim their own hand-off link. The
 * pages never leave for the third party on a GET: they first ask "Connect github to <account>?",
 * naming the signed-in account, and go on only on a POST from the page's own origin carrying the
 * session's CSRF token. A sign-in that an SSO session at the authorization server makes silent
 * stops at the same question.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, confirmationOf } from "./browser.js";
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
const connectHost = () => new URL(world.connectOrigin).host;
const wentToThirdParty = (browser: Browser) => browser.hops.some((hop) => onThirdParty(new URL(hop.url)));

async function nothingStored(): Promise<void> {
  for (const subject of ["alice", "mallory"]) expect(await world.vault.get(user(subject), "github")).toBeUndefined();
}

/** Signs `login` in through `url` and resolves with the page the link then shows. */
async function signedInAt(browser: Browser, url: string, login: string) {
  const back = await browser.goSigningIn(url, login, (next) => next.href === url);
  return browser.go(back.response.headers.get("location") ?? "");
}

/** Mallory's hand-off link, the question it shows her, and her session cookie. */
async function mallorysLink() {
  const url = await handOffUrl(world, await peerFor(world, "mallory"), "repos");
  const mallory = new Browser();
  const page = await signedInAt(mallory, url, "mallory");
  const session = mallory.cookies(connectHost()).find((cookie) => cookie.name === "mcp_connect_session");
  expect(session).toBeDefined();
  return { url, page, session: `${session?.name}=${session?.value}; Path=${session?.path}` };
}

/** Alice's browser with mallory's session cookie planted in it, as a sibling subdomain could. */
function victimWith(session: string): Browser {
  const alice = new Browser();
  alice.setCookie(world.connectOrigin, session);
  return alice;
}

describe("connect: the confirmation before the third party", () => {
  it("names the signed-in account and the provider, and goes on only when confirmed", async () => {
    const url = await handOffUrl(world, await peerFor(world, "alice"), "repos");
    const alice = new Browser();
    const page = await signedInAt(alice, url, "alice");
    expect(page.response.status).toBe(200);
    expect(confirmationOf(page.text)?.question).toBe("Connect github to alice@example.com?");
    expect(wentToThirdParty(alice)).toBe(false);
    const done = await alice.goSigningIn(url, "alice");
    expect(done.text).toContain("Done — return to your app");
    expect((await world.vault.get(user("alice"), "github"))?.secret).toBeTruthy();
    await world.vault.delete(user("alice"), "github");
  });

  it("a planted session of the attacker's is shown as the attacker's account, and nothing reaches the third party", async () => {
    const { url, session } = await mallorysLink();
    const alice = victimWith(session);
    const page = await alice.goSigningIn(url, "alice");
    expect(page.response.status).toBe(200);
    expect(confirmationOf(page.text)?.question).toBe("Connect github to mallory@example.com?");
    expect(page.text).toContain("mallory@example.com");
    expect(wentToThirdParty(alice)).toBe(false);
    await nothingStored();
    expect((await world.manager.get(idOf(url)))?.status).toBe("pending");
  });

  it("the confirming POST is refused cross-site, same-site, or with a forged or another session's token; from its own origin it goes on", async () => {
    const { url, page: mallorysPage, session } = await mallorysLink();
    // Mallory knows a valid token for her own session: she read her own page.
    const csrf = confirmationOf(mallorysPage.text)?.csrf ?? "";
    expect(csrf).not.toBe("");
    const alice = victimWith(session);
    const other = await signedInAt(
      new Browser(),
      await handOffUrl(world, await peerFor(world, "alice"), "repos"),
      "alice",
    );
    const attempts: { csrf: string; headers: Record<string, string> }[] = [
      { csrf, headers: { origin: "http://evil.localhost:4444", "sec-fetch-site": "cross-site" } },
      { csrf, headers: { origin: "http://sub.127.0.0.1.nip.io" } },
      { csrf, headers: { "sec-fetch-site": "same-site" } },
      { csrf, headers: { origin: "null" } },
      { csrf: "forged", headers: {} },
      { csrf: confirmationOf(other.text)?.csrf ?? "", headers: {} },
    ];
    for (const attempt of attempts) {
      const response = await alice.request(url, {
        form: { csrf: attempt.csrf, action: "connect" },
        headers: attempt.headers,
      });
      expect(response.status, JSON.stringify(attempt.headers)).toBe(403);
    }
    expect(wentToThirdParty(alice)).toBe(false);
    // The same POST from the page's own origin is what the confirmation button sends.
    const confirmed = await alice.request(url, {
      form: { csrf, action: "connect" },
      headers: { origin: new URL(world.connectOrigin).origin, "sec-fetch-site": "same-origin" },
    });
    expect(confirmed.status).toBe(303);
    expect(onThirdParty(new URL(confirmed.headers.get("location") ?? ""))).toBe(true);
    await nothingStored();
  });

  it("a confirming POST that says nothing of where it was sent from (a browser older than Origin on every post) is refused; a same-origin Referer lets it on", async () => {
    const { url, page: mallorysPage, session } = await mallorysLink();
    const csrf = confirmationOf(mallorysPage.text)?.csrf ?? "";
    const alice = victimWith(session);
    // Mallory's page on a sibling host posts her own form, with her token, and sends no Referer.
    const bare = await alice.request(url, { form: { csrf, action: "connect" }, origin: null });
    expect(bare.status).toBe(403);
    const fromElsewhere = await alice.request(url, {
      form: { csrf, action: "connect" },
      origin: null,
      headers: { referer: "http://evil.localhost:4444/trap" },
    });
    expect(fromElsewhere.status).toBe(403);
    expect(wentToThirdParty(alice)).toBe(false);
    // Positive control: such a browser's post from the page itself carries the page as Referer.
    const own = await alice.request(url, {
      form: { csrf, action: "connect" },
      origin: null,
      headers: { referer: url },
    });
    expect(own.status).toBe(303);
    expect(onThirdParty(new URL(own.headers.get("location") ?? ""))).toBe(true);
    await nothingStored();
  });

  it("a sign-in made silent by an SSO session at the authorization server still stops at the question", async () => {
    const alice = new Browser();
    const first = await alice.goSigningIn(await handOffUrl(world, await peerFor(world, "alice"), "repos"), "alice");
    expect(first.text).toContain("Done — return to your app");
    await world.vault.delete(user("alice"), "github");
    // The connect session ends; the authorization servers' sessions stay.
    alice.setCookie(world.connectOrigin, "mcp_connect_session=; Path=/connect; Max-Age=0");
    const url = await handOffUrl(world, await peerFor(world, "alice"), "repos");
    const before = alice.hops.length;
    const page = await alice.go(url);
    const hops = alice.hops.slice(before).map((hop) => new URL(hop.url));
    expect(hops.some((hop) => hop.host === new URL(world.mcpIssuer).host)).toBe(true); // signed in, silently
    expect(hops.some((hop) => onThirdParty(hop))).toBe(false);
    expect(page.response.status).toBe(200);
    expect(confirmationOf(page.text)?.question).toBe("Connect github to alice@example.com?");
    await nothingStored();
  });

  it("'sign in as someone else' ends the planted session and signs in again, asking for the login", async () => {
    const { url, session } = await mallorysLink();
    const alice = victimWith(session);
    const page = await alice.go(url);
    const form = page.text.split("<form").find((part) => part.includes('value="switch"')) ?? "";
    const csrf = /name="csrf" value="([^"]+)"/.exec(form)?.[1] ?? "";
    const switched = await alice.request(url, { form: { csrf, action: "switch" } });
    expect(switched.status).toBe(303);
    const login = new URL(switched.headers.get("location") ?? "");
    expect(login.origin).toBe(world.mcpIssuer);
    expect(login.searchParams.get("prompt")).toBe("login");
    expect(switched.headers.getSetCookie().some((c) => /^mcp_connect_session=;.*Max-Age=0/.test(c))).toBe(true);
    // Signed in as herself, alice is told the link is not one for her, as for any unknown link.
    const after = await alice.goSigningIn(login.href, "alice");
    expect(after.response.status).toBe(404);
    expect(after.text).toContain("alice@example.com");
    expect(wentToThirdParty(alice)).toBe(false);
    await nothingStored();
  });
});
