/**
 * The payment example on 127.0.0.1: the shop (`shop.ts`) and the fake payment provider
 * (`provider.ts`), sharing a fresh webhook secret, each on a port of its own.
 */
import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { nodeServerOptions, toNodeHandler } from "mcp-handoff/http";
import { startFakePaymentProvider } from "./provider.js";
import { createShop, type Shop } from "./shop.js";

export async function startPaymentExample() {
  const webhookSecret = `whsec_${randomBytes(24).toString("base64url")}`;
  let shop: Shop | undefined;
  // Listening first: the provider must know the webhook's URL, and the shop the provider's.
  const http = createServer(
    nodeServerOptions(),
    toNodeHandler(async (request: Request) => shop?.fetch(request) ?? new Response("Starting", { status: 503 })),
  );
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const provider = await startFakePaymentProvider({ webhookUrl: `${origin}/webhooks/payment`, webhookSecret });
  shop = createShop({ baseUrl: origin, providerUrl: provider.origin, webhookSecret });
  const opened = shop;
  return {
    origin,
    mcpUrl: new URL("/mcp", origin),
    webhookUrl: `${origin}/webhooks/payment`,
    webhookSecret,
    shop: opened,
    provider,
    async close(): Promise<void> {
      await opened.close();
      await provider.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
