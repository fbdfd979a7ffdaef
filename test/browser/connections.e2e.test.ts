/**
 * The connections page in headless Chromium: alice connects the third party through a hand-off,
 * opens `/connect/connections` in the same browser, sees her connection (account, scopes, times),
 * presses Disconnect, and the third party's revocation endpoint (RFC 7009) revokes her refresh
 * token; her next `list_items` starts a new hand-off. The page before and after the disconnect is
 * saved as docs/screenshots/connections.png and connections-after-disconnect.png for the README.
 *
 * Needs Chromium, as the other browser tests (`chromium-rule.ts`).
 */
import { mkdirSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Chromium } from "../../examples/demo/full/chromium.js";
import { type Run, requireChromium, SKIP_BROWSER, startRun } from "./support.js";

const SCREENSHOTS = new URL("../../docs/screenshots/", import.meta.url);

let chromium: Chromium;
let run: Run | undefined;

beforeAll(async () => {
  requireChromium();
  chromium = await Chromium.launch();
}, 60_000);
afterAll(async () => {
  await run?.close();
  await chromium?.close();
});

describe.skipIf(SKIP_BROWSER !== undefined)("the connections page in headless Chromium", () => {
  it("lists alice's connection, disconnects it with a revocation at the provider, and the next call hands off again", async () => {
    run = await startRun(chromium, { wire: "url-elicitation", waitInRequest: false });
    const { world, window } = run;
    const first = await run.handoff.callTool({ name: "list_items", arguments: {} });
    expect(first.content).toEqual([{ type: "text", text: "alice-repo-1, alice-repo-2" }]);
    expect((await run.landed()).text).toContain("Done — return to your app");
    const secret = await world.storedSecret("alice");
    expect(secret).toBeTruthy();

    // The same browser is signed in at the connect pages already: the page opens at once.
    const page = await window.context.newPage();
    await page.setViewportSize({ width: 900, height: 760 });
    const opened = await page.goto(`${world.origin}/connect/connections`);
    expect(opened?.status()).toBe(200);
    const listed = await page.locator("main").innerText();
    expect(listed).toContain("Your connections");
    expect(listed).toMatch(/items\s+Account\s+alice\s+Scopes\s+openid repo\s+Connected\s+\d{4}-\d\d-\d\d/);
    expect(listed).not.toContain("Last used\nnever");
    expect(await page.content()).not.toContain(secret);
    mkdirSync(SCREENSHOTS, { recursive: true });
    const before = await page.screenshot({ path: new URL("connections.png", SCREENSHOTS).pathname, fullPage: true });
    expect(before.subarray(1, 4).toString()).toBe("PNG");

    const revokedBefore = world.revocations.length;
    const loaded = page.waitForEvent("framenavigated", { predicate: (frame) => frame === page.mainFrame() });
    await page.getByRole("button", { name: "Disconnect items" }).click();
    await loaded;
    await page.waitForLoadState("load");
    const after = await page.locator("main").innerText();
    expect(after).toContain("Disconnected items: items revoked the access, and this server deleted its copy.");
    expect(after).toContain("You have no connections.");
    expect(world.revocations.slice(revokedBefore)).toEqual([{ kind: "refresh token", accountId: "alice" }]);
    expect(await world.storedSecret("alice")).toBeUndefined();
    await page.screenshot({ path: new URL("connections-after-disconnect.png", SCREENSHOTS).pathname, fullPage: true });
    await page.close();

    // The revoked token no longer works at the provider, and the next call starts a new hand-off.
    const api = await fetch(`${world.thirdPartyIssuer}/api/items`, { headers: { authorization: `Bearer ${secret}` } });
    expect(api.status).toBe(401);
    const again = await run.handoff.callTool({ name: "list_items", arguments: {} });
    expect(run.shown).toHaveLength(2);
    expect(run.shown[1]?.kind).toBe("elicitation");
    expect(run.shown[1]?.url).not.toBe(run.shown[0]?.url);
    expect(again.content).toEqual([{ type: "text", text: "alice-repo-1, alice-repo-2" }]);
    expect((await run.landed()).text).toContain("Done — return to your app");
    const renewed = await world.storedSecret("alice");
    expect(renewed).toBeTruthy();
    expect(renewed).not.toBe(secret);
  }, 180_000);
});
