/**
 * A shop's MCP server whose `buy_item` tool takes a payment through a hand-off that is neither an
 * OAuth grant nor a key: `ctx.interact` sends the user (after the client asks their consent) to
 * the shop's own `/pay/<interaction id>` page, which opens a checkout at the payment provider and
 * redirects there; the provider's signed webhook (`webhook.ts`) completes the interaction; the
 * tool, waiting (2025-11-25) or run again on the client's retry (2026-07-28), returns the receipt.
 */
import { StreamableHttpServer } from "mcp-handoff/http";
import { INTERACTION_ID_IN_URL, InteractionManager } from "mcp-handoff/interaction";
import { McpServer } from "mcp-handoff/server";
import {
  type ExpiringNotes,
  InProcessMessageBus,
  MemoryExpiringNotes,
  MemoryInteractionStore,
} from "mcp-handoff/stores";
import { z } from "zod";
import { isPaymentPurpose, type PaymentPurpose, paymentWebhook, type Receipt } from "./webhook.js";

export const CATALOG: Record<string, { title: string; amountCents: number; currency: string }> = {
  "coffee-beans": { title: "Coffee beans, 1 kg", amountCents: 1450, currency: "EUR" },
  "tea-sampler": { title: "Tea sampler", amountCents: 900, currency: "EUR" },
};

export interface ShopOptions {
  /** Where the shop is served, e.g. `http://127.0.0.1:8080`. */
  baseUrl: string;
  /** The payment provider's API, e.g. `http://127.0.0.1:8081`. */
  providerUrl: string;
  /** Shared with the provider; signs its webhooks. */
  webhookSecret: string;
  /** Event ids already processed; default in memory (one instance). */
  seen?: ExpiringNotes;
  /** ms since the epoch; default `Date.now`. */
  now?: () => number;
}

const price = (cents: number, currency: string) => `${(cents / 100).toFixed(2)} ${currency}`;

function page(status: number, title: string, text: string): Response {
  const html = `<!doctype html><title>${title}</title><h1>${title}</h1><p>${text}</p>`;
  return new Response(html, {
    status,
    headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" },
  });
}

export function createShop(options: ShopOptions) {
  const now = options.now ?? Date.now;
  const manager = new InteractionManager({
    store: new MemoryInteractionStore({ now }),
    bus: new InProcessMessageBus(),
    now,
    // The shop runs on the user's machine without MCP authorization: every caller is this user.
    unsafeLocalUser: { issuer: "local", subject: "shopper" },
  });
  const receipts = new Map<string, Receipt>();
  const server = new McpServer({ name: "shop", version: "1.0.0" }, { interactions: manager, now });

  server.registerTool(
    "buy_item",
    {
      description: "Buys an item of the shop's catalog; the user pays on a checkout page",
      inputSchema: { item: z.string() },
    },
    async ({ item }, ctx) => {
      const product = CATALOG[item];
      if (product === undefined) return { content: [{ type: "text", text: `No item "${item}".` }], isError: true };
      const purpose: PaymentPurpose = { kind: "payment", item, ...product };
      const outcome = await ctx.interact({
        url: `${options.baseUrl}/pay/${INTERACTION_ID_IN_URL}`,
        message: `Pay ${price(product.amountCents, product.currency)} for ${product.title} on the checkout page.`,
        purpose: { ...purpose },
      });
      if (outcome.action !== "accept") return { content: [{ type: "text", text: "Nothing bought." }] };
      // Until the provider's webhook says it is paid (declined or expired: the error says so).
      const paid = await ctx.waitForInteraction(outcome.interaction.id);
      const receipt = receipts.get(paid.id);
      if (receipt === undefined)
        return { content: [{ type: "text", text: "The payment has no receipt." }], isError: true };
      const text = `Paid ${price(receipt.amountCents, receipt.currency)} for ${product.title}; receipt ${receipt.checkout}.`;
      return { content: [{ type: "text", text }] };
    },
  );

  /**
   * `/pay/<id>`: opens the provider's checkout for the order, once, and sends the browser there.
   * Two requests at once (a double click, a reload) share the one checkout being opened, so an
   * order never has two checkouts to pay; one the provider did not open is tried again next time.
   */
  const checkouts = new Map<string, Promise<string | undefined>>();
  function checkoutFor(id: string, purpose: PaymentPurpose): Promise<string | undefined> {
    let opening = checkouts.get(id);
    if (opening === undefined) {
      opening = openCheckout(id, purpose).then(
        (url) => {
          if (url === undefined) checkouts.delete(id);
          return url;
        },
        (error: unknown) => {
          checkouts.delete(id);
          throw error;
        },
      );
      checkouts.set(id, opening);
    }
    return opening;
  }
  async function openCheckout(id: string, purpose: PaymentPurpose): Promise<string | undefined> {
    const created = await fetch(`${options.providerUrl}/v1/checkouts`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        amountCents: purpose.amountCents,
        currency: purpose.currency,
        description: purpose.title,
        reference: id,
        successUrl: `${options.baseUrl}/paid`,
      }),
    });
    if (created.status !== 201) return undefined;
    return ((await created.json()) as { url: string }).url;
  }
  async function pay(id: string): Promise<Response> {
    const order = await manager.get(id);
    if (order === undefined || !isPaymentPurpose(order.purpose)) return page(404, "Not found", "No such order.");
    if (order.status !== "pending" && order.status !== "accepted") {
      return page(410, "Closed", `This order is ${order.status}.`);
    }
    const url = await checkoutFor(id, order.purpose);
    if (url === undefined) return page(502, "Payment unavailable", "The payment provider did not answer.");
    return new Response(null, { status: 303, headers: { location: url, "cache-control": "no-store" } });
  }

  const webhook = paymentWebhook({
    secret: options.webhookSecret,
    manager,
    receipts,
    seen: options.seen ?? new MemoryExpiringNotes({ now }),
    now,
  });
  const endpoint = new StreamableHttpServer({
    onsession: (transport) => server.connect(transport),
    onrequest: (transport) => server.connect(transport),
  });

  return {
    server,
    manager,
    receipts,
    /** The whole shop as one web-standard handler. */
    async fetch(request: Request): Promise<Response> {
      const { pathname } = new URL(request.url);
      if (pathname === "/mcp") return endpoint.handle(request);
      if (pathname === "/webhooks/payment") return webhook(request);
      const id = /^\/pay\/([A-Za-z0-9_-]{1,64})$/.exec(pathname)?.[1];
      if (id !== undefined && request.method === "GET") return pay(id);
      if (pathname === "/paid") return page(200, "Paid", "Thank you. You can go back to your assistant.");
      return page(404, "Not found", "");
    },
    async close(): Promise<void> {
      await endpoint.close();
      await server.close();
      await manager.close();
    },
  };
}

export type Shop = ReturnType<typeof createShop>;
