/**
 * The inbox lists every open request of the signed-in user, and each must link to where it can be
 * answered: a connect request (an OAuth grant, a secret) to its connect page, a request for the
 * server's own page (`ctx.interact` with a URL of its own, such as a checkout) to that page, which
 * the connect pages cannot serve.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inboxUrlFor } from "../../src/connect/index.js";
import { INTERACTION_ID_IN_URL } from "../../src/interaction/server/index.js";
import { Browser } from "./browser.js";
import type { World } from "./calls.js";
import { startWorld } from "./world.js";

let world: World;
beforeAll(async () => {
  world = await startWorld({ inbox: true });
});
afterAll(async () => {
  await world?.close();
});

const requestLinks = (html: string) =>
  [...html.matchAll(/<a class="open" href="([^"]+)"/g)].map((m) => (m[1] ?? "").replaceAll("&#38;", "&"));

describe("connect: the inbox links each request to its own page", () => {
  it("a request for the server's own checkout page links there; a connect request to its connect page", async () => {
    const frank = { issuer: world.mcpIssuer, subject: "frank" };
    const checkout = await world.manager.create({
      url: `https://shop.example/pay/${INTERACTION_ID_IN_URL}?step=1&lang=en`,
      message: "Pay 14.50 EUR for Coffee beans on the checkout page.",
      user: frank,
      sessionId: "session-frank",
      purpose: { kind: "payment", amountCents: 1450, currency: "EUR" },
    });
    const connect = await world.manager.create({
      url: `${world.connectOrigin}/connect/${INTERACTION_ID_IN_URL}`,
      message: "Connect your github account to continue.",
      user: frank,
      sessionId: "session-frank",
      purpose: { kind: "oauth", provider: "github", scopes: ["repo"] },
    });
    const browser = new Browser();
    const page = await browser.goSigningIn(inboxUrlFor(world.connectOrigin), "frank");
    expect(page.response.status).toBe(200);
    const links = requestLinks(page.text);
    expect(links).toHaveLength(2);
    expect(links).toContain(`https://shop.example/pay/${checkout.id}?step=1&lang=en`);
    // Positive control: the connect request still opens its connect page under the prefix.
    expect(links).toContain(`/connect/${connect.id}`);
    const opened = await browser.goSigningIn(new URL(`/connect/${connect.id}`, world.connectOrigin).href, "frank");
    expect(opened.text).toContain("Connect");
  });
});
