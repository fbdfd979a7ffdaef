/**
 * The payment example's webhook and a delivery the shop could not process: a provider retries a
 * delivery that was not answered with 2xx (every hosted checkout does), and the retry of the
 * same event must then complete the order. Only a delivery that was processed counts as seen, so
 * a replay of a processed one is still refused. And the endpoint is public: a body streamed
 * without Content-Length is held to the same size limit, not read whole before the signature.
 */
import { describe, expect, it } from "vitest";
import { SIGNATURE_HEADER, signWebhook } from "../../examples/payment/signature.js";
import { paymentWebhook, type Receipt } from "../../examples/payment/webhook.js";
import { InteractionManager } from "../../src/interaction/server/index.js";
import { InProcessMessageBus, MemoryExpiringNotes, MemoryInteractionStore } from "../../src/stores/index.js";

const SECRET = "whsec_test_4f9a1c";
const NOW = 1_800_000_000_000;
const USER = { issuer: "local", subject: "shopper" };

async function shop(failures: number) {
  const manager = new InteractionManager({
    store: new MemoryInteractionStore({ now: () => NOW }),
    bus: new InProcessMessageBus(),
    now: () => NOW,
    unsafeLocalUser: USER,
  });
  const order = await manager.create({
    url: "https://shop.example/pay/{id}",
    message: "Pay 14.50 EUR for Coffee beans, 1 kg on the checkout page.",
    user: USER,
    sessionId: "session-1",
    purpose: { kind: "payment", item: "coffee-beans", title: "Coffee beans, 1 kg", amountCents: 1450, currency: "EUR" },
  });
  let left = failures;
  // The store is away for the first `failures` completions: the shop cannot process the delivery.
  const flaky = new Proxy(manager, {
    get(target, name, receiver) {
      if (name === "complete") {
        return (...args: Parameters<InteractionManager["complete"]>) => {
          if (left > 0) {
            left -= 1;
            return Promise.reject(new Error("store unavailable"));
          }
          return target.complete(...args);
        };
      }
      const value = Reflect.get(target, name, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  const receipts = new Map<string, Receipt>();
  const webhook = paymentWebhook({
    secret: SECRET,
    manager: flaky,
    receipts,
    seen: new MemoryExpiringNotes({ now: () => NOW }),
    now: () => NOW,
  });
  const body = JSON.stringify({
    id: "evt_1",
    type: "checkout.completed",
    created: NOW / 1000,
    data: { checkout: "cs_1", reference: order.id, amountCents: 1450, currency: "EUR" },
  });
  const deliver = async () => {
    const request = new Request("https://shop.example/webhooks/payment", {
      method: "POST",
      headers: { "content-type": "application/json", [SIGNATURE_HEADER]: signWebhook(SECRET, body, NOW / 1000) },
      body,
    });
    try {
      return (await webhook(request)).status;
    } catch {
      // The server around the handler answers a throw with 500.
      return 500;
    }
  };
  return { manager, order, receipts, deliver };
}

describe("the payment webhook, retried by the provider", () => {
  it("a delivery the shop failed to process completes the order when the provider sends it again", async () => {
    const { manager, order, receipts, deliver } = await shop(1);
    expect(await deliver()).toBe(500);
    expect(await deliver()).toBe(200);
    expect((await manager.get(order.id))?.status).toBe("completed");
    expect(receipts.get(order.id)?.checkout).toBe("cs_1");
  });

  it("a delivery processed once is refused when replayed (control)", async () => {
    const { manager, order, deliver } = await shop(0);
    expect(await deliver()).toBe(200);
    expect(await deliver()).toBe(409);
    expect((await manager.get(order.id))?.status).toBe("completed");
  });
});

describe("the payment webhook's size limit", () => {
  it("refuses a body streamed without Content-Length once it passes 64 KiB, before reading the rest", async () => {
    const { deliver } = await shop(0);
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        if (pulled > 10_000) controller.close();
        else controller.enqueue(new Uint8Array(16 * 1024).fill(0x20));
      },
    });
    const manager = {} as never;
    const webhook = paymentWebhook({ secret: SECRET, manager, receipts: new Map(), seen: new MemoryExpiringNotes() });
    const request = new Request("https://shop.example/webhooks/payment", {
      method: "POST",
      body: endless,
      duplex: "half",
    } as RequestInit);
    expect(request.headers.get("content-length")).toBeNull();
    expect((await webhook(request)).status).toBe(413);
    expect(pulled).toBeLessThan(100);
    // Positive control: a signed delivery of ordinary size is processed.
    expect(await deliver()).toBe(200);
  });
});
