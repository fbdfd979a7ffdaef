/**
 * The payment example (examples/payment): a hand-off that is neither an OAuth grant nor a key.
 * Our client calls `buy_item` through `HandoffClient`, which consents to the shop's `/pay/<id>`
 * page; a scripted browser follows it to the fake provider's checkout and pays; the provider's
 * signed webhook completes the interaction and the call returns the receipt, on each era. The
 * webhook refuses an unsigned or wrongly signed delivery, a stale one, a replayed event and a
 * wrong amount; each beside its control, the same delivery without the attack.
 */
import { afterEach, describe, expect, it } from "vitest";
import { Browser, tagsOf } from "../../examples/demo/full/browser.js";
import { SIGNATURE_HEADER, signWebhook } from "../../examples/payment/signature.js";
import { startPaymentExample } from "../../examples/payment/world.js";
import { McpClient } from "../../src/client/index.js";
import { HandoffClient } from "../../src/interaction/client/index.js";
import { StreamableHttpClientTransport } from "../../src/transports/http/index.js";

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const closer of closers.splice(0).reverse()) await closer();
});

/** The user at the browser: opens the hand-off page, reads the checkout and pays it. */
async function payInBrowser(url: string, seen: string[]): Promise<string> {
  const browser = new Browser();
  const checkout = await browser.go(url);
  seen.push(/<h1>([^<]*)<\/h1>/.exec(checkout.text)?.[1] ?? checkout.text);
  const action = tagsOf(checkout.text, "form")[0]?.action ?? "";
  const done = await browser.go(new URL(action, checkout.url).href, { form: { card: "4242 4242 4242 4242" } });
  expect(done.response.status).toBe(200);
  return done.url;
}

async function shopper(world: Awaited<ReturnType<typeof startPaymentExample>>, revision: string, pay: boolean) {
  const shown: string[] = [];
  const headings: string[] = [];
  const landed: Promise<string>[] = [];
  const client = new McpClient({ name: "agent", version: "1.0.0" }, { protocolVersion: revision });
  const handoff = new HandoffClient(client, {
    serverUrl: world.mcpUrl,
    onInteraction: async (interaction) => {
      shown.push(interaction.url);
      if (pay) landed.push(payInBrowser(interaction.url, headings));
      return "accept";
    },
  });
  await client.connect(new StreamableHttpClientTransport(world.mcpUrl));
  closers.push(() => client.close());
  expect(client.protocolVersion).toBe(revision);
  return { handoff, shown, headings, landed };
}

async function started() {
  const world = await startPaymentExample();
  closers.push(world.close);
  return world;
}

/** Posts `body` to the shop's webhook as the provider would, signed with `secret` at `timestampSec`. */
function deliver(world: { webhookUrl: string }, body: string, signature: string | undefined) {
  return fetch(world.webhookUrl, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(signature === undefined ? {} : { [SIGNATURE_HEADER]: signature }),
    },
    body,
  });
}

async function until<T>(read: () => T | undefined): Promise<T> {
  for (let i = 0; i < 500; i++) {
    const value = read();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error("never came");
}

describe("the payment example", () => {
  it.each([["2026-07-28"], ["2025-11-25"]])(
    "on %s: the call hands off to the checkout, the browser pays, the webhook completes it, the call returns the receipt",
    async (revision) => {
      const world = await started();
      const { handoff, shown, headings, landed } = await shopper(world, revision, true);
      const result = await handoff.callTool({ name: "buy_item", arguments: { item: "coffee-beans" } });
      const [checkout] = [...world.provider.checkouts.values()];
      expect(result.isError).toBeFalsy();
      expect(result.content).toEqual([
        { type: "text", text: `Paid 14.50 EUR for Coffee beans, 1 kg; receipt ${checkout?.id}.` },
      ]);
      // The client was given the shop's own page, which holds only the interaction's id.
      expect(shown).toHaveLength(1);
      expect(shown[0]).toMatch(new RegExp(`^${world.origin}/pay/[A-Za-z0-9_-]{22}$`));
      // The user saw the amount on the provider's page, paid, and came back to the shop.
      expect(headings).toEqual(["Pay 14.50 EUR"]);
      expect(await landed[0]).toBe(`${world.origin}/paid`);
      expect(world.provider.deliveries.map((d) => d.status)).toEqual([200]);
      expect([...world.shop.receipts.values()]).toEqual([
        expect.objectContaining({ checkout: checkout?.id, item: "coffee-beans", amountCents: 1450, currency: "EUR" }),
      ]);

      // The provider's own delivery, replayed as it was sent: refused, and nothing is paid twice.
      const [sent] = world.provider.deliveries;
      const replay = await deliver(world, sent?.body ?? "", sent?.signature);
      expect(replay.status).toBe(409);
      expect(await replay.text()).toContain("Event already processed");
      expect(world.shop.receipts.size).toBe(1);
    },
  );

  it("two opens of the pay page at once (a double click) lead to one checkout, so the order cannot be paid twice", async () => {
    const world = await started();
    const { handoff, shown } = await shopper(world, "2025-11-25", false);
    const call = handoff.callTool({ name: "buy_item", arguments: { item: "tea-sampler" } });
    const url = await until(() => shown[0]);
    const opened = await Promise.all([1, 2, 3].map(() => fetch(url, { redirect: "manual" })));
    expect(opened.map((response) => response.status)).toEqual([303, 303, 303]);
    const places = new Set(opened.map((response) => response.headers.get("location")));
    expect(places.size).toBe(1);
    expect(world.provider.checkouts.size).toBe(1);
    // Control: a later open goes to the same checkout, still the only one.
    const again = await fetch(url, { redirect: "manual" });
    expect(again.headers.get("location")).toBe([...places][0]);
    expect(world.provider.checkouts.size).toBe(1);
    await handoff.client.close();
    await call.catch(() => undefined);
  });

  it("refuses a webhook unsigned, wrongly signed, stale or for another amount; the same delivery signed now completes", async () => {
    const world = await started();
    const { handoff, shown } = await shopper(world, "2025-11-25", false);
    const call = handoff.callTool({ name: "buy_item", arguments: { item: "tea-sampler" } });
    const url = await until(() => shown[0]);
    const reference = url.slice(url.lastIndexOf("/") + 1);
    const nowSec = Math.floor(Date.now() / 1000);
    const event = (id: string, amountCents: number) =>
      JSON.stringify({
        id,
        type: "checkout.completed",
        created: nowSec,
        data: { checkout: "cs_from_test", reference, amountCents, currency: "EUR" },
      });
    const good = event("evt_good", 900);
    const status = async () => (await world.shop.manager.get(reference))?.status;

    const refusals: [string, Response, string][] = [
      ["unsigned", await deliver(world, good, undefined), "Invalid signature"],
      ["another secret", await deliver(world, good, signWebhook("whsec_guessed", good, nowSec)), "Invalid signature"],
      [
        "altered body",
        await deliver(world, good.replace("900", "1"), signWebhook(world.webhookSecret, good, nowSec)),
        "Invalid signature",
      ],
      ["stale", await deliver(world, good, signWebhook(world.webhookSecret, good, nowSec - 600)), "Stale timestamp"],
      [
        "another amount",
        await deliver(world, event("evt_cheap", 1), signWebhook(world.webhookSecret, event("evt_cheap", 1), nowSec)),
        "not the order's",
      ],
    ];
    for (const [why, response, text] of refusals) {
      expect(response.status, why).toBe(why === "another amount" ? 422 : 400);
      expect(await response.text(), why).toContain(text);
    }
    expect(await status()).not.toBe("completed");
    expect(world.shop.receipts.size).toBe(0);

    const signed = signWebhook(world.webhookSecret, good, nowSec);
    const paid = await deliver(world, good, signed);
    expect(paid.status).toBe(200);
    const result = await call;
    expect(result.content).toEqual([{ type: "text", text: "Paid 9.00 EUR for Tea sampler; receipt cs_from_test." }]);
    const receipt = world.shop.receipts.get(reference);

    const replayed = await deliver(world, good, signed);
    expect(replayed.status).toBe(409);
    expect(await replayed.text()).toContain("Event already processed");
    expect(world.shop.receipts.get(reference)).toBe(receipt);
    // A second event for the same order, properly signed: the order is no longer waiting.
    const second = event("evt_second", 900);
    const again = await deliver(world, second, signWebhook(world.webhookSecret, second, nowSec));
    expect(again.status).toBe(409);
    expect(await again.text()).toContain("no longer waiting");
    expect(world.shop.receipts.get(reference)).toBe(receipt);
    // Nobody paid at the provider: only the test's own deliveries reached the shop.
    expect(world.provider.deliveries).toEqual([]);
  });

  it("answers a hand-off page for an unknown order with 404 and opens no checkout", async () => {
    const world = await started();
    const response = await fetch(`${world.origin}/pay/AAAAAAAAAAAAAAAAAAAAAA`, { redirect: "manual" });
    expect(response.status).toBe(404);
    expect(world.provider.checkouts.size).toBe(0);
  });
});
