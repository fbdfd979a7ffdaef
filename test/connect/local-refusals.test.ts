/**
 * The local connect pages under attack, each refusal beside the same request succeeding without
 * the attack: a second browser, a token used again (after completion, or on another link), an
 * expired link, a `Host` that is not loopback (DNS rebinding), a cross-site post, a guessed token.
 * Links are made by `LocalCredentials` exactly as a tool's `ctx.credentials.require` makes them.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { createLocalConnectHandler, LocalCredentials } from "../../src/connect/index.js";
import { InteractionManager, InteractionRequired } from "../../src/interaction/server/index.js";
import type { UserRef } from "../../src/model/identity.js";
import type { RequestContext } from "../../src/server/index.js";
import {
  INSECURE_PLAINTEXT_VAULT_FOR_TESTS,
  InProcessMessageBus,
  MemoryCredentialVault,
  MemoryInteractionStore,
} from "../../src/stores/index.js";
import { recordingLogger } from "../support/recording-logger.js";

const PORT = 47_123;
const ORIGIN = `http://127.0.0.1:${PORT}`;
const USER: UserRef = { issuer: "local", subject: "ada" };
const TTL_MS = 60_000;

let clock = 1_000_000;
const now = () => clock;
let manager: InteractionManager;
let vault: MemoryCredentialVault;
let handle: (request: Request) => Promise<Response>;

beforeEach(() => {
  clock = 1_000_000;
  manager = new InteractionManager({
    store: new MemoryInteractionStore({ now }),
    bus: new InProcessMessageBus(),
    now,
    ttlMs: TTL_MS,
    unsafeLocalUser: USER,
    sweepIntervalMs: 0,
  });
  vault = new MemoryCredentialVault({ encryption: INSECURE_PLAINTEXT_VAULT_FOR_TESTS });
  handle = createLocalConnectHandler({ manager, vault, port: PORT, now, logger: recordingLogger() });
});

/** A hand-off link as a tool's `ctx.credentials.require("weather", ...)` starts it, stored by the manager. */
async function newLink(): Promise<{ id: string; url: string }> {
  const credentials = new LocalCredentials({ service: manager, vault, origin: ORIGIN });
  const ctx = { authInfo: undefined } as RequestContext;
  const thrown = await credentials
    .require("weather", { kind: "secret", label: "Weather API key" }, ctx)
    .catch((error: unknown) => error);
  if (!(thrown instanceof InteractionRequired)) throw new Error("expected a hand-off");
  const interaction = await manager.create({
    url: thrown.url,
    message: thrown.message,
    user: USER,
    sessionId: "session-1",
    ...(thrown.purpose === undefined ? {} : { purpose: thrown.purpose }),
  });
  return { id: interaction.id, url: interaction.url };
}

interface Answer {
  status: number;
  text: string;
  location: string | null;
  /** Where the answer came from: the path of the last request (after redirects). */
  path: string;
}

/** A browser of its own: it keeps its cookies (by path) and sends what a browser sends. */
function browser(host = `127.0.0.1:${PORT}`) {
  const jar = new Map<string, { value: string; path: string }>();
  const cookieFor = (path: string) =>
    [...jar]
      .filter(([, c]) => path.startsWith(c.path))
      .map(([name, c]) => `${name}=${c.value}`)
      .join("; ");
  async function send(url: string, init: RequestInit & { hostHeader?: string } = {}): Promise<Answer> {
    const target = new URL(url, ORIGIN);
    const headers = new Headers(init.headers);
    headers.set("host", init.hostHeader ?? host);
    const cookie = cookieFor(target.pathname);
    if (cookie !== "") headers.set("cookie", cookie);
    const response = await handle(new Request(target, { ...init, headers }));
    for (const line of response.headers.getSetCookie()) {
      const [pair = "", ...attributes] = line.split(";").map((part) => part.trim());
      const eq = pair.indexOf("=");
      const path = attributes.find((a) => a.startsWith("Path="))?.slice(5) ?? "/";
      jar.set(pair.slice(0, eq), { value: pair.slice(eq + 1), path });
    }
    const location = response.headers.get("location");
    return { status: response.status, text: await response.text(), location, path: target.pathname };
  }
  return {
    /** Opens `url`, following the page's own redirects as a browser does. */
    async open(url: string, hostHeader?: string): Promise<Answer> {
      let answer = await send(url, hostHeader === undefined ? {} : { hostHeader });
      for (let hops = 0; answer.status === 303 && answer.location !== null && hops < 3; hops++) {
        answer = await send(answer.location, hostHeader === undefined ? {} : { hostHeader });
      }
      return answer;
    },
    /** Posts the page's form at `path` with `fields`, from `origin` (default the page's own). */
    post(path: string, fields: Record<string, string>, origin = `http://${host}`, hostHeader = host): Promise<Answer> {
      return send(path, {
        method: "POST",
        body: new URLSearchParams(fields),
        headers: { origin, "sec-fetch-site": origin === `http://${hostHeader}` ? "same-origin" : "cross-site" },
        hostHeader,
      });
    },
  };
}

const csrfOf = (html: string) => /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? "";

async function storedKey(): Promise<string | undefined> {
  return (await vault.get(USER, "weather"))?.secret;
}

describe("local connect pages", () => {
  it("positive control: the first browser opens the link, gets the form without the token in its address, and saves the key", async () => {
    const { id, url } = await newLink();
    expect(new URL(url).origin).toBe(ORIGIN);
    expect(new URL(url).searchParams.get("token")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const alice = browser();
    const page = await alice.open(url);
    expect(page.status).toBe(200);
    expect(page.text).toContain('type="password"');
    expect(page.text).toContain("Weather API key");
    expect(page.path).toMatch(new RegExp(`^/connect/${id}/[A-Za-z0-9_-]{22}$`));
    const saved = await alice.post(page.path, { csrf: csrfOf(page.text), secret: "wk-123456789" });
    expect(saved.status).toBe(200);
    expect(saved.text).toContain("return to your app");
    expect(await storedKey()).toBe("wk-123456789");
    expect((await manager.get(id))?.status).toBe("completed");
  });

  it("a second browser is refused, even with the first one's form token; the first browser still saves", async () => {
    const { id, url } = await newLink();
    const first = browser();
    const page = await first.open(url);
    expect(page.status).toBe(200);
    const second = browser();
    const refused = await second.open(url);
    expect(refused.status).toBe(403);
    expect(refused.text).toContain("already opened in another browser");
    // Without the token or the first browser's cookie, the page is as unknown as any other.
    const unknown = await browser().open("/connect/AAAAAAAAAAAAAAAAAAAAAA");
    for (const path of [`/connect/${id}`, page.path])
      expect(await second.open(path)).toMatchObject({ status: 404, text: unknown.text });
    const stolen = await second.post(page.path, { csrf: csrfOf(page.text), secret: "attacker-key-1" });
    expect(stolen.status).toBe(404);
    expect(await storedKey()).toBeUndefined();
    // The token is spent even for the first browser; the page it opened still works.
    expect((await first.open(url)).status).toBe(403);
    expect((await first.post(page.path, { csrf: csrfOf(page.text), secret: "wk-123456789" })).status).toBe(200);
    expect(await storedKey()).toBe("wk-123456789");
  });

  it("the claim cookie is sent only to the claimed page's own random path, so another port of 127.0.0.1 that knows the id gets none; a forged page path is refused", async () => {
    const { id, url } = await newLink();
    const claimed = await handle(new Request(url, { headers: { host: `127.0.0.1:${PORT}` } }));
    expect(claimed.status).toBe(303);
    const page = claimed.headers.get("location") ?? "";
    expect(page).toMatch(new RegExp(`^/connect/${id}/[A-Za-z0-9_-]{22}$`));
    const [cookie = "", ...attributes] = (claimed.headers.getSetCookie()[0] ?? "").split("; ");
    expect(attributes).toEqual(expect.arrayContaining([`Path=${page}`, "HttpOnly", "SameSite=Lax"]));
    const at = (path: string) =>
      handle(new Request(new URL(path, ORIGIN), { headers: { host: `127.0.0.1:${PORT}`, cookie } }));
    expect((await at(`/connect/${id}/${"A".repeat(22)}`)).status).toBe(404);
    expect((await at(`/connect/${id}`)).status).toBe(404);
    expect((await at(page)).status).toBe(200);
  });

  it("a second browser that comes first is the one served: the claim goes to whoever opens the link first", async () => {
    const { url } = await newLink();
    expect((await browser().open(url)).status).toBe(200);
    expect((await browser().open(url)).status).toBe(403);
  });

  it("a used token opens nothing: after the key was saved the link answers 'already used', and a second post stores nothing", async () => {
    const { url } = await newLink();
    const alice = browser();
    const page = await alice.open(url);
    const csrf = csrfOf(page.text);
    expect((await alice.post(page.path, { csrf, secret: "wk-123456789" })).status).toBe(200);
    for (const who of [alice, browser()]) {
      const again = await who.open(url);
      expect(again.status).toBe(409);
      expect(again.text).toContain("already been used");
    }
    expect((await alice.post(page.path, { csrf, secret: "replayed-key-1" })).status).toBe(409);
    expect(await storedKey()).toBe("wk-123456789");
    // Someone with neither the token nor the page's cookie is not even told that it was used.
    const unknown = await browser().open("/connect/AAAAAAAAAAAAAAAAAAAAAA");
    expect(await browser().open(page.path)).toMatchObject({ status: 404, text: unknown.text });
  });

  it("a token opens only its own link: one link's token on another link's path is unknown; that link's own token works", async () => {
    const one = await newLink();
    const two = await newLink();
    const tokenOfOne = new URL(one.url).searchParams.get("token") ?? "";
    const crossed = await browser().open(`/connect/${two.id}?token=${tokenOfOne}`);
    expect(crossed.status).toBe(404);
    expect((await browser().open(two.url)).status).toBe(200);
  });

  it("a guessed token, or the interaction id alone, gets the same answer as an unknown link", async () => {
    const { id, url } = await newLink();
    const unknown = await browser().open("/connect/AAAAAAAAAAAAAAAAAAAAAA?token=x");
    const guessed = await browser().open(`/connect/${id}?token=${"A".repeat(43)}`);
    const bare = await browser().open(`/connect/${id}`);
    expect([unknown.status, guessed.status, bare.status]).toEqual([404, 404, 404]);
    expect(guessed.text).toBe(unknown.text);
    expect(bare.text).toBe(unknown.text);
    // None of them claimed the link: its user still can.
    expect((await browser().open(url)).status).toBe(200);
  });

  it("an expired link is refused, to a new browser and to the form already open; a link within its time works", async () => {
    const late = await newLink();
    const opened = await newLink();
    const alice = browser();
    const page = await alice.open(opened.url);
    expect(page.status).toBe(200);
    clock += TTL_MS - 1;
    const fresh = await newLink();
    clock += 1;
    const expired = await browser().open(late.url);
    expect(expired.status).toBe(410);
    expect(expired.text).toContain("expired");
    const posted = await alice.post(page.path, { csrf: csrfOf(page.text), secret: "wk-123456789" });
    expect(posted.status).toBe(410);
    expect(await storedKey()).toBeUndefined();
    const bob = browser();
    const live = await bob.open(fresh.url);
    expect(live.status).toBe(200);
    expect((await bob.post(live.path, { csrf: csrfOf(live.text), secret: "wk-123456789" })).status).toBe(200);
  });

  it.each([
    "evil.example",
    `evil.example:${PORT}`,
    `127.0.0.1.evil.example:${PORT}`,
    `localhost.:${PORT}`,
    "127.0.0.1:1",
    "127.0.0.1",
    `0x7f.1:${PORT}`,
    `user@127.0.0.1:${PORT}`,
  ])("a Host of %s is refused before the link is looked at, and does not claim it", async (host) => {
    const { url } = await newLink();
    const rebound = await browser(host).open(url);
    expect(rebound.status).toBe(421);
    expect(rebound.text).not.toContain('type="password"');
    expect((await browser().open(url)).status).toBe(200);
  });

  it.each([`127.0.0.1:${PORT}`, `localhost:${PORT}`, `LOCALHOST:${PORT}`, `[::1]:${PORT}`])(
    "positive control: a Host of %s is served",
    async (host) => {
      const { url } = await newLink();
      const user = browser(host);
      const page = await user.open(url);
      expect(page.status).toBe(200);
      expect((await user.post(page.path, { csrf: csrfOf(page.text), secret: "wk-123456789" })).status).toBe(200);
    },
  );

  it("a rebound page's post to itself (same-origin by its own lights, Host not loopback) is refused; the page's own post saves", async () => {
    const { url } = await newLink();
    const alice = browser();
    const page = await alice.open(url);
    const fields = { csrf: csrfOf(page.text), secret: "attacker-key-1" };
    const rebound = await alice.post(page.path, fields, `http://evil.example:${PORT}`, `evil.example:${PORT}`);
    expect(rebound.status).toBe(421);
    expect(await storedKey()).toBeUndefined();
    expect((await alice.post(page.path, { ...fields, secret: "wk-123456789" })).status).toBe(200);
  });

  it("a post from another origin, with the browser's cookie and a valid form token, is refused; from the page itself it saves", async () => {
    const { url } = await newLink();
    const alice = browser();
    const page = await alice.open(url);
    const fields = { csrf: csrfOf(page.text), secret: "attacker-key-1" };
    const forged = await alice.post(page.path, fields, "http://evil.example");
    expect(forged.status).toBe(403);
    expect(forged.text).toContain("another site");
    expect(await storedKey()).toBeUndefined();
    expect((await alice.post(page.path, { ...fields, secret: "wk-123456789" })).status).toBe(200);
    expect(await storedKey()).toBe("wk-123456789");
  });

  it("a post without the page's form token stores nothing; with it, the key is saved", async () => {
    const { url } = await newLink();
    const alice = browser();
    const page = await alice.open(url);
    expect((await alice.post(page.path, { secret: "wk-123456789" })).status).toBe(403);
    expect((await alice.post(page.path, { csrf: "forged", secret: "wk-123456789" })).status).toBe(403);
    expect(await storedKey()).toBeUndefined();
    expect((await alice.post(page.path, { csrf: csrfOf(page.text), secret: "wk-123456789" })).status).toBe(200);
  });
});
