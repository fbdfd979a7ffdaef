/**
 * Screenshots of the connect pages, each state at desktop (1280 px) and phone (390 px) widths,
 * into docs/screenshots/<state>-<desktop|phone>.png, rendered in headless Chromium exactly as the
 * handler sends them (the sample theme and texts of test/connect/page-states.ts).
 * Run: `npx tsx scripts/page-screenshots.ts` (needs Chromium at /usr/bin/chromium or CHROMIUM_PATH).
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { CHROMIUM_ARGS, chromiumPath } from "../examples/demo/full/chromium.js";
import { startGallery } from "../test/connect/page-gallery.js";
import { SCREENSHOT_STATES } from "../test/connect/page-states.js";

const OUT = join(import.meta.dirname, "..", "docs", "screenshots");
const WIDTHS = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } };

const gallery = await startGallery();
const browser = await chromium.launch({ executablePath: chromiumPath(), headless: true, args: CHROMIUM_ARGS });
try {
  mkdirSync(OUT, { recursive: true });
  for (const [label, viewport] of Object.entries(WIDTHS)) {
    const context = await browser.newContext({ viewport, deviceScaleFactor: 1 });
    const page = await context.newPage();
    for (const state of SCREENSHOT_STATES) {
      await page.goto(`${gallery.origin}/${state}`);
      const path = join(OUT, `${state}-${label}.png`);
      await page.screenshot({ path, fullPage: true });
      console.log(path);
    }
    await context.close();
  }
} finally {
  await browser.close();
  await gallery.close();
}
