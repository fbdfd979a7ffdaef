/**
 * Decline, pressed in headless Chromium on the connect page, for each era: the user opens the
 * hand-off page from the client, signs in, and presses Decline on "Connect items to
 * alice@example.com?". On 2025-11-25 the tool waiting in `ctx.credentials.require` ends declined;
 * on 2026-07-28 the client's retry ends declined and is not asked for the page again. Nothing
 * reaches the vault.
 *
 * Needs Chromium (`/usr/bin/chromium` or `CHROMIUM_PATH`): see chromium-rule.ts for when it skips.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { Chromium } from "../../examples/demo/full/chromium.js";
import { methods, type Run, requireChromium, SKIP_BROWSER, startRun, type Wire } from "./support.js";

let chromium: Chromium;
let run: Run | undefined;

beforeAll(async () => {
  if (SKIP_BROWSER !== undefined) return;
  requireChromium();
  chromium = await Chromium.launch();
}, 60_000);
afterEach(async () => {
  await run?.close();
  run = undefined;
});
afterAll(async () => {
  await chromium?.close();
});

const ERAS: { wire: Wire; waitInRequest: boolean; era: string }[] = [
  { wire: "url-elicitation", waitInRequest: true, era: "2025-11-25, the tool waiting in the request" },
  { wire: "input-required", waitInRequest: false, era: "2026-07-28, the retried request" },
];

describe.skipIf(SKIP_BROWSER !== undefined)("Decline in headless Chromium", () => {
  for (const { wire, waitInRequest, era } of ERAS) {
    it(`ends the call as declined (${era}); nothing is stored`, async () => {
      let opened: ((url: string) => void) | undefined;
      const url = new Promise<string>((resolve) => {
        opened = resolve;
      });
      run = await startRun(chromium, { wire, waitInRequest, open: (link) => opened?.(link) });
      const { world, window } = run;
      const call = run.handoff.callTool({ name: "list_items", arguments: {} });

      const link = await url;
      const question = await window.signIn(link, "alice", { confirm: false });
      expect(question.text).toContain("Account alice@example.com");
      const page = await window.context.newPage();
      await page.goto(link);
      await page.getByRole("button", { name: "Decline" }).click();
      await page.waitForLoadState("load");
      expect(await page.locator("h1").textContent()).toBe("Declined");
      expect(await page.locator("main").textContent()).toContain("You declined. Nothing was stored");

      const result = (await call) as { isError?: boolean; content: { text: string }[] };
      expect(result.isError).toBe(true);
      expect(result.content[0]?.text).toMatch(/declined/);
      expect(await world.storedSecret("alice")).toBeUndefined();
      // Asked once: no second page after the decline.
      const asks = methods(run, "server").filter((method) => method === "elicitation/create").length;
      expect(asks).toBeLessThanOrEqual(1);
      expect(run.shown).toHaveLength(1);
      const rounds = run.wire.filter(
        (w) => w.from === "server" && "result" in w.message && w.message.result.resultType === "input_required",
      );
      expect(rounds).toHaveLength(wire === "input-required" ? 1 : 0);
    }, 120_000);
  }
});
