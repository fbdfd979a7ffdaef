/**
 * Every connect page state in headless Chromium, as the handler sends it (its CSP in force): no
 * axe-core violations of WCAG 2.2 level A or AA at desktop (1280 px) and phone (390 px) widths, the
 * inline stylesheet applied (its CSP hash is right), nothing wider than a phone's screen, and the
 * key forms' focus order: field, Save, Decline, then "Sign in as someone else" on the hosted one;
 * field, Save, Decline and nothing more on the local one.
 * Needs Chromium (`/usr/bin/chromium` or `CHROMIUM_PATH`): see chromium-rule.ts for when it skips.
 */
import axe from "axe-core";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM_ARGS, chromiumPath, hasChromium } from "../../examples/demo/full/chromium.js";
import { type Gallery, startGallery } from "../connect/page-gallery.js";
import { browserTestsSkipped, missingChromium } from "./chromium-rule.js";

const lookup = () => ({ found: hasChromium(), path: chromiumPath() });
const SKIP = browserTestsSkipped(process.env, lookup());
if (SKIP !== undefined) console.warn(SKIP);

const WCAG_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];
const WIDTHS = { desktop: { width: 1280, height: 900 }, phone: { width: 390, height: 844 } };

let browser: Browser;
let gallery: Gallery;

beforeAll(async () => {
  if (SKIP !== undefined) return;
  missingChromium(lookup());
  browser = await chromium.launch({ executablePath: chromiumPath(), headless: true, args: CHROMIUM_ARGS });
  gallery = await startGallery();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await gallery?.close();
});

/** Opens a page state; fails on anything the page's CSP refused. */
async function open(page: Page, name: string): Promise<void> {
  const refused: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) refused.push(message.text());
  });
  await page.goto(`${gallery.origin}/${name}`);
  expect(refused, name).toEqual([]);
}

/**
 * What keyboard focus lands on at each of `presses` presses of Tab from the top of the page: a
 * field as `input:<type>`, a button or link by its text, `body` once focus has left the page's
 * controls.
 */
async function tabOrder(page: Page, presses: number): Promise<string[]> {
  const order: string[] = [];
  for (let i = 0; i < presses; i++) {
    await page.keyboard.press("Tab");
    order.push(
      await page.evaluate(() => {
        const active = document.activeElement as HTMLInputElement | HTMLButtonElement | null;
        if (active === null || active === document.body) return "body";
        return active.tagName === "INPUT" ? `input:${active.type}` : (active.textContent ?? "").trim();
      }),
    );
  }
  return order;
}

/** axe-core's violations, run inside the page (evaluated through the DevTools protocol, which the CSP does not stop). */
async function violations(page: Page): Promise<string[]> {
  await page.evaluate(axe.source);
  const result = await page.evaluate(
    (tags) => (window as unknown as { axe: typeof axe }).axe.run(document, { runOnly: { type: "tag", values: tags } }),
    WCAG_AA,
  );
  return result.violations.map(
    (v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((node) => node.target.join(" ")).join(", ")}`,
  );
}

describe.skipIf(SKIP !== undefined)("connect pages in Chromium", () => {
  for (const [label, viewport] of Object.entries(WIDTHS)) {
    it(`every page state has no WCAG 2.2 AA violations and fits the screen (${label}, ${viewport.width} px)`, async () => {
      const context = await browser.newContext({ viewport });
      try {
        const page = await context.newPage();
        for (const name of gallery.names) {
          await open(page, name);
          expect(await violations(page), name).toEqual([]);
          // The stylesheet ran (a wrong hash would leave the page unstyled) ...
          expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor), name).toBe(
            "rgb(243, 244, 246)",
          );
          // ... and nothing scrolls sideways.
          expect(await page.evaluate(() => document.documentElement.scrollWidth), name).toBeLessThanOrEqual(
            viewport.width,
          );
        }
      } finally {
        await context.close();
      }
    }, 120_000);
  }

  it("the check can fail: the key form with its label removed and its button text made faint is reported", async () => {
    const context = await browser.newContext({ viewport: WIDTHS.desktop });
    try {
      const page = await context.newPage();
      await open(page, "key-form");
      expect(await violations(page)).toEqual([]);
      await page.evaluate(() => {
        document.querySelector("label")?.remove();
        document.querySelectorAll("button").forEach((button) => {
          button.style.color = "#ccc";
        });
      });
      const found = (await violations(page)).map((line) => line.split(" ")[0]);
      expect(found).toContain("label");
      expect(found).toContain("color-contrast");
    } finally {
      await context.close();
    }
  }, 60_000);

  it("the key form: a labelled password field, then Save, Decline and 'Sign in as someone else' in that order", async () => {
    const context = await browser.newContext({ viewport: WIDTHS.phone });
    try {
      const page = await context.newPage();
      await open(page, "key-form");
      const field = page.getByLabel("forecast API key");
      expect(await field.getAttribute("type")).toBe("password");
      const order = await tabOrder(page, 4);
      expect(order).toEqual(["input:password", "Save", "Decline", "Sign in as someone else"]);
    } finally {
      await context.close();
    }
  }, 60_000);

  it("the local key form: Tab goes to the labelled password field, then Save, then Decline, and nothing else", async () => {
    const context = await browser.newContext({ viewport: WIDTHS.phone });
    try {
      const page = await context.newPage();
      await open(page, "local-key-form");
      const field = page.getByLabel("Weather API key");
      expect(await field.getAttribute("type")).toBe("password");
      // A fourth Tab leaves the page's controls: no account to switch, no link before the field.
      expect(await tabOrder(page, 4)).toEqual(["input:password", "Save", "Decline", "body"]);
      // Back again with Shift+Tab, from Decline to the field.
      await page.keyboard.press("Shift+Tab");
      const back: string[] = [];
      for (let i = 0; i < 2; i++) {
        await page.keyboard.press("Shift+Tab");
        back.push(await page.evaluate(() => (document.activeElement?.textContent ?? "").trim()));
      }
      expect(back).toEqual(["Save", ""]);
      expect(await field.evaluate((element) => element === document.activeElement)).toBe(true);
    } finally {
      await context.close();
    }
  }, 60_000);

  it("the focus-order check can fail: Decline put first by a tabindex is reported", async () => {
    const context = await browser.newContext({ viewport: WIDTHS.phone });
    try {
      const page = await context.newPage();
      await open(page, "local-key-form");
      await page.evaluate(() => {
        const decline = Array.from(document.querySelectorAll("button")).find((b) => b.textContent === "Decline");
        decline?.setAttribute("tabindex", "1");
      });
      expect(await tabOrder(page, 3)).toEqual(["Decline", "input:password", "Save"]);
    } finally {
      await context.close();
    }
  }, 60_000);
});
