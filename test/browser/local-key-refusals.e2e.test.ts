/**
 * The local connect pages' refusals in a real browser (headless Chromium) against the real
 * listener of `startLocalConnect`, each beside the same step succeeding without the attack:
 * - DNS rebinding: Chromium resolves evil.example to 127.0.0.1 (`--host-resolver-rules`), as a
 *   rebinding attacker's DNS would, and opens the link there: 421, no form, and the link is
 *   still the user's;
 * - a second browser (a window with its own cookies) opening the link the first one opened;
 * - a page of another origin posting a key into the form of the browser that holds the link.
 * The link is the one a client receives (error -32042) from a tool that calls
 * `ctx.credentials.require`.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type Browser, type BrowserContext, chromium } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM_ARGS, chromiumPath } from "../../examples/demo/full/chromium.js";
import { McpClient, UrlElicitationRequiredError } from "../../src/client/index.js";
import { type LocalConnect, startLocalConnect } from "../../src/connect/index.js";
import { McpServer } from "../../src/server/index.js";
import { createMemoryTransportPair } from "../../src/transports/memory.js";
import { recordingLogger } from "../support/recording-logger.js";
import { requireChromium, SKIP_BROWSER } from "./support.js";

const USER = { issuer: "local", subject: "ada" };
const KEY = "wk-7f3a9c2e5b";

let browser: Browser;
let local: LocalConnect;
let attacker: Server;
let attackerOrigin: string;
const closers: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  if (SKIP_BROWSER !== undefined) return;
  requireChromium();
  browser = await chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: [...CHROMIUM_ARGS, "--host-resolver-rules=MAP evil.example 127.0.0.1"],
  });
  // Another site the user has open: a page whose button posts a key of the attacker's into the form.
  attacker = createServer((req, res) => {
    const target = new URL(req.url ?? "/", "http://localhost").searchParams.get("target") ?? "";
    res.writeHead(200, { "content-type": "text/html" });
    res.end(
      `<!doctype html><title>Prize</title><form method="post" action="${target}"><input type="hidden" name="secret" value="attacker-key-1"><button type="submit">Claim your prize</button></form>`,
    );
  });
  await new Promise<void>((resolve) => attacker.listen(0, "127.0.0.1", resolve));
  // Another origin than the pages' own: another port, under a name that is not theirs.
  attackerOrigin = `http://localhost:${(attacker.address() as AddressInfo).port}`;
}, 60_000);
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});
afterAll(async () => {
  await browser?.close();
  attacker?.closeAllConnections();
  await new Promise((resolve) => attacker?.close(resolve));
});

/** The link a client gets (error -32042) from a tool that needs the key, served by a fresh `startLocalConnect`. */
async function handedLink(): Promise<URL> {
  local = await startLocalConnect({ user: USER, logger: recordingLogger() });
  const server = new McpServer({ name: "weather", version: "1.0.0" }, { interactions: local.interactions });
  server.registerTool("forecast", { description: "Tomorrow's weather" }, async (_args, ctx) => {
    await ctx.credentials.require("weather", { kind: "secret", label: "Weather API key" });
    return { content: [{ type: "text", text: "sunny" }] };
  });
  const [serverEnd, clientEnd] = createMemoryTransportPair();
  await server.connect(serverEnd);
  const client = new McpClient({ name: "refusals", version: "1.0.0" }, { protocolVersion: "2025-11-25" });
  client.setElicitationHandler(async () => ({ action: "decline" }), { modes: ["url"] });
  await client.connect(clientEnd);
  closers.push(
    () => client.close(),
    () => server.close(),
    () => local.close(),
  );
  const error = await client.callTool({ name: "forecast", arguments: {} }).catch((e: unknown) => e);
  if (!(error instanceof UrlElicitationRequiredError)) throw new Error("expected -32042");
  return new URL(error.elicitations[0]?.url ?? "");
}

/** A browser window of its own (its own cookies), as another person's browser would be. */
async function window(): Promise<BrowserContext> {
  const context = await browser.newContext();
  closers.push(() => context.close());
  return context;
}

async function visit(context: BrowserContext, url: string) {
  const page = await context.newPage();
  const response = await page.goto(url);
  return { page, status: response?.status() ?? 0, heading: await page.locator("h1").textContent() };
}

async function save(page: Awaited<ReturnType<typeof visit>>["page"], key: string) {
  await page.getByLabel("Weather API key").fill(key);
  const [response] = await Promise.all([page.waitForNavigation(), page.getByRole("button", { name: "Save" }).click()]);
  return { status: response?.status() ?? 0, heading: await page.locator("h1").textContent() };
}

const stored = async () => (await local.vault.get(USER, "weather"))?.secret;

describe.skipIf(SKIP_BROWSER !== undefined)("the local connect pages' refusals in headless Chromium", () => {
  it("the link opened under a rebound name (evil.example → 127.0.0.1) gets 421 and no form; at 127.0.0.1 the user saves the key", async () => {
    const link = await handedLink();
    const rebound = new URL(link);
    rebound.hostname = "evil.example";
    const victim = await window();
    const refused = await visit(victim, rebound.href);
    expect(refused.status).toBe(421);
    expect(refused.heading).toBe("Wrong address");
    expect(await refused.page.locator('input[type="password"]').count()).toBe(0);
    const user = await visit(victim, link.href);
    expect(user.status).toBe(200);
    expect((await save(user.page, KEY)).heading).toBe("Done");
    expect(await stored()).toBe(KEY);
  });

  it("a second browser opening the link is refused; the browser that opened it first saves the key", async () => {
    const link = await handedLink();
    const first = await visit(await window(), link.href);
    expect(first.status).toBe(200);
    const second = await visit(await window(), link.href);
    expect(second.status).toBe(403);
    expect(second.heading).toBe("Opened in another browser");
    expect(await second.page.locator('input[type="password"]').count()).toBe(0);
    expect((await save(first.page, KEY)).heading).toBe("Done");
    expect(await stored()).toBe(KEY);
  });

  it("another site's form posting a key into the page, in the browser that holds the link, stores nothing; the page's own form saves", async () => {
    const link = await handedLink();
    const user = await window();
    const opened = await visit(user, link.href);
    expect(opened.status).toBe(200);
    const target = `${link.origin}${link.pathname}`;
    const lure = await user.newPage();
    await lure.goto(`${attackerOrigin}/?target=${encodeURIComponent(target)}`);
    const [answer] = await Promise.all([lure.waitForNavigation(), lure.locator('button[type="submit"]').click()]);
    expect(answer?.status()).toBe(403);
    expect(await stored()).toBeUndefined();
    expect((await save(opened.page, KEY)).heading).toBe("Done");
    expect(await stored()).toBe(KEY);
  });
  it("Decline pressed in the browser that holds the link ends the interaction as declined and stores nothing", async () => {
    const link = await handedLink();
    const opened = await visit(await window(), link.href);
    expect(opened.status).toBe(200);
    const [response] = await Promise.all([
      opened.page.waitForNavigation(),
      opened.page.getByRole("button", { name: "Decline" }).click(),
    ]);
    expect(response?.status()).toBe(200);
    expect(await opened.page.locator("h1").textContent()).toBe("Declined");
    const id = link.pathname.split("/")[2] ?? "";
    expect((await local.manager.get(id))?.status).toBe("declined");
    expect(await stored()).toBeUndefined();
  });
});
