/**
 * A fake payment provider on 127.0.0.1, shaped like the hosted checkouts of real ones: the shop
 * creates a checkout server-to-server (amount, currency, what it is for, the shop's reference);
 * the user's browser pays on the provider's own checkout page; the provider then tells the shop
 * with a signed webhook (`signature.ts`) and sends the browser back to the shop. Every delivery
 * is kept, so a test can replay one.
 */
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { SIGNATURE_HEADER, signWebhook } from "./signature.js";

export interface Checkout {
  id: string;
  amountCents: number;
  currency: string;
  description: string;
  /** The shop's own id for what is paid (here: the interaction's id). */
  reference: string;
  /** Where the browser goes once it has paid. */
  successUrl: string;
  paid: boolean;
}

/** One webhook the provider sent: its raw body, its signature header and the shop's status. */
export interface Delivery {
  body: string;
  signature: string;
  status: number;
}

export interface FakePaymentProvider {
  origin: string;
  checkouts: Map<string, Checkout>;
  deliveries: Delivery[];
  close(): Promise<void>;
}

export interface FakePaymentProviderOptions {
  /** The shop's webhook endpoint. */
  webhookUrl: string;
  /** Shared with the shop; signs every delivery. */
  webhookSecret: string;
  /** ms since the epoch; default `Date.now`. */
  now?: () => number;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function page(res: ServerResponse, status: number, title: string, inner: string): void {
  res.writeHead(status, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
  res.end(`<!doctype html><title>${escapeHtml(title)}</title><h1>${escapeHtml(title)}</h1>${inner}`);
}

export async function startFakePaymentProvider(options: FakePaymentProviderOptions): Promise<FakePaymentProvider> {
  const now = options.now ?? Date.now;
  const checkouts = new Map<string, Checkout>();
  const deliveries: Delivery[] = [];

  /** Creates a checkout; a real provider would also authenticate the shop's API key here. */
  async function create(req: IncomingMessage, res: ServerResponse, origin: string): Promise<void> {
    const input = JSON.parse(await bodyOf(req)) as Partial<Checkout>;
    const { amountCents, currency, description, reference, successUrl } = input;
    if (
      !Number.isSafeInteger(amountCents) ||
      typeof currency !== "string" ||
      typeof description !== "string" ||
      typeof reference !== "string" ||
      typeof successUrl !== "string"
    ) {
      res.writeHead(400, { "content-type": "application/json" }).end('{"error":"invalid checkout"}');
      return;
    }
    const id = `cs_${randomBytes(12).toString("hex")}`;
    checkouts.set(id, {
      id,
      amountCents: amountCents as number,
      currency,
      description,
      reference,
      successUrl,
      paid: false,
    });
    res
      .writeHead(201, { "content-type": "application/json" })
      .end(JSON.stringify({ id, url: `${origin}/checkout/${id}` }));
  }

  function show(res: ServerResponse, checkout: Checkout): void {
    const amount = `${(checkout.amountCents / 100).toFixed(2)} ${checkout.currency}`;
    page(
      res,
      200,
      `Pay ${amount}`,
      `<p>${escapeHtml(checkout.description)}</p>` +
        `<form method="post" action="/checkout/${checkout.id}/pay">` +
        `<label>Card number <input name="card" autocomplete="cc-number"></label> <button>Pay ${escapeHtml(amount)}</button></form>`,
    );
  }

  /** The user pays: the webhook goes out, signed, then the browser returns to the shop. */
  async function pay(res: ServerResponse, checkout: Checkout): Promise<void> {
    if (checkout.paid) return page(res, 409, "Already paid", "<p>This checkout was paid already.</p>");
    checkout.paid = true;
    const event = {
      id: `evt_${randomBytes(12).toString("hex")}`,
      type: "checkout.completed",
      created: Math.floor(now() / 1000),
      data: {
        checkout: checkout.id,
        reference: checkout.reference,
        amountCents: checkout.amountCents,
        currency: checkout.currency,
      },
    };
    const body = JSON.stringify(event);
    const signature = signWebhook(options.webhookSecret, body, event.created);
    const answer = await fetch(options.webhookUrl, {
      method: "POST",
      headers: { "content-type": "application/json", [SIGNATURE_HEADER]: signature },
      body,
    });
    deliveries.push({ body, signature, status: answer.status });
    await answer.body?.cancel();
    res.writeHead(303, { location: checkout.successUrl }).end();
  }

  const server = createServer(async (req, res) => {
    try {
      const origin = `http://${req.headers.host}`;
      const { pathname } = new URL(req.url ?? "/", origin);
      const [, section, id, action] = pathname.split("/");
      if (req.method === "POST" && pathname === "/v1/checkouts") return await create(req, res, origin);
      const checkout = section === "checkout" ? checkouts.get(id ?? "") : undefined;
      if (checkout === undefined) return page(res, 404, "Not found", "");
      if (req.method === "GET" && action === undefined) return show(res, checkout);
      if (req.method === "POST" && action === "pay") return await pay(res, checkout);
      page(res, 405, "Method not allowed", "");
    } catch (error) {
      console.error("fake payment provider:", error);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    checkouts,
    deliveries,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
