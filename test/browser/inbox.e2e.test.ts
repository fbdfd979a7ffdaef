/**
 * The hand-off ladder's last rung in headless Chromium: a client that declares no elicitation
 * capability at all calls a tool that needs alice's third-party grant, and gets a tool error
 * naming only the server's fixed inbox URL. In her own browser alice opens it, signs in at the
 * MCP authorization server, sees the request waiting there, opens it, confirms the connect page's
 * question and grants access at the third party; the client asks again and gets her items. The
 * inbox page has no axe-core WCAG 2.2 A/AA violation, and is saved to docs/screenshots/inbox.png.
 *
 * Needs Chromium (see `chromium-rule.ts`): without it this skips, saying so, unless `CI` is set.
 */
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import axe from "axe-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Chromium, type ChromiumWindow } from "../../examples/demo/full/chromium.js";
import { signInForMcp } from "../../examples/demo/full/sign-in.js";
import { type FullWorld, startFullWorld } from "../../examples/demo/full/world.js";
import { McpClient } from "../../src/client/index.js";
import { StreamableHttpClientTransport } from "../../src/transports/http/index.js";
import { requireChromium, SKIP_BROWSER } from "./support.js";

const SCREENSHOT = join(import.meta.dirname, "../../docs/screenshots/inbox.png");
const TIMEOUT = 120_000;

let chromium: Chromium;
const closers: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  requireChromium();
  chromium = await Chromium.launch();
}, 60_000);
afterAll(async () => {
  for (const close of closers.reverse()) await close().catch(() => undefined);
  await chromium?.close();
});

const textOf = (result: { content?: unknown }) =>
  ((result.content ?? []) as { text?: string }[]).map((block) => block.text ?? "").join("");

/** A client signed in as alice that declares no capabilities at all (no `elicitation`, no `userInteraction`). */
async function plainClient(world: FullWorld, signInWindow: ChromiumWindow): Promise<McpClient> {
  const token = await signInForMcp(signInWindow, {
    issuer: world.mcpIssuer,
    resource: world.resource,
    login: "alice",
    say: () => {},
  });
  const client = new McpClient({ name: "plain-client", version: "1.0.0" }, { protocolVersion: "2025-11-25" });
  await client.connect(
    new StreamableHttpClientTransport(new URL(world.resource), { headers: { authorization: `Bearer ${token}` } }),
  );
  closers.push(() => client.close());
  return client;
}

describe.skipIf(SKIP_BROWSER !== undefined)("the inbox rung in headless Chromium", () => {
  it(
    "no elicitation → tool error naming the inbox → sign in → the pending request → connect → retry → alice's items",
    async () => {
      const world = await startFullWorld({ say: () => {}, inbox: true });
      closers.push(() => world.close());
      const signInWindow = await chromium.newWindow();
      const window = await chromium.newWindow();
      closers.push(
        () => signInWindow.close(),
        () => window.close(),
      );
      const client = await plainClient(world, signInWindow);
      const inbox = `${world.origin}/connect/inbox`;

      const first = await client.callTool({ name: "list_items", arguments: {} });
      expect(first.isError).toBe(true);
      // The one URL in the text is the fixed inbox page: no id, no token.
      expect(textOf(first).match(/https?:\/\/[^\s;,]+/g)).toEqual([inbox]);

      // Alice opens it in her browser and signs in; the login comes back to the inbox.
      const landed = await window.signIn(inbox, "alice");
      expect(landed.url).toBe(inbox);
      expect(landed.status).toBe(200);
      const page = await window.context.newPage();
      await page.goto(inbox);
      await expect.poll(() => page.locator("h1").innerText()).toBe("Requests waiting for you");
      const requests = page.locator("ul.inbox > li");
      expect(await requests.count()).toBe(1);
      const request = await requests.first().innerText();
      expect(request).toContain("Items (demo) asks:");
      expect(request).toContain("“plain-client”");
      const href = (await page.locator("a.open").getAttribute("href")) ?? "";
      expect(href).toMatch(/^\/connect\/[A-Za-z0-9_-]{16,64}$/);
      expect(textOf(first)).not.toContain(href.split("/").pop());
      // Its stylesheets applied (their CSP hashes are right), and no WCAG 2.2 A or AA violation.
      expect(await page.evaluate(() => getComputedStyle(document.querySelector("a.open") as Element).color)).toBe(
        "rgb(255, 255, 255)",
      );
      await page.evaluate(axe.source);
      const { violations } = await page.evaluate(() =>
        (window as unknown as { axe: typeof axe }).axe.run(document, {
          runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"] },
        }),
      );
      expect(violations.map((violation) => violation.id)).toEqual([]);
      mkdirSync(dirname(SCREENSHOT), { recursive: true });
      await page.setViewportSize({ width: 900, height: 720 });
      await page.screenshot({ path: SCREENSHOT, fullPage: true });
      await page.close();

      // The request's own connect page: the question, the third party, the vault.
      const done = await window.signIn(new URL(href, inbox).href, "alice");
      expect(done.text).toContain("Done — return to your app");
      const emptied = await window.signIn(inbox, "alice");
      expect(emptied.text).toContain("Nothing is waiting for you");

      const retried = await client.callTool({ name: "list_items", arguments: {} });
      expect(retried.isError).not.toBe(true);
      expect(textOf(retried)).toBe("alice-repo-1, alice-repo-2");
    },
    TIMEOUT,
  );
});
