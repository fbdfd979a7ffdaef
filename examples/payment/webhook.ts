/**
 * The shop's webhook endpoint: the payment provider says a checkout was paid, and that completes
 * the hand-off the checkout was for, so the waiting tool call (or the client's retry) returns the
 * receipt. Nothing is trusted before the signature: an unsigned or wrongly signed delivery, one
 * older than the tolerance, one already processed (its event id), or one whose amount is not the
 * order's, completes nothing.
 */
import { InteractionError, type InteractionManager } from "mcp-handoff/interaction";
import type { ExpiringNotes } from "mcp-handoff/stores";
import { SIGNATURE_HEADER, signatureRefusal } from "./signature.js";

/** What the shop keeps of a paid order, by interaction id. */
export interface Receipt {
  /** The provider's checkout id. */
  checkout: string;
  item: string;
  amountCents: number;
  currency: string;
  /** ms since the epoch. */
  paidAt: number;
}

/** The order a hand-off is for, kept as its `purpose`. */
export interface PaymentPurpose {
  kind: "payment";
  item: string;
  title: string;
  amountCents: number;
  currency: string;
}

export interface PaymentWebhookOptions {
  /** Shared with the provider. */
  secret: string;
  manager: InteractionManager;
  receipts: Map<string, Receipt>;
  /** Event ids already processed; shared by every instance of a fleet (e.g. Redis notes). */
  seen: ExpiringNotes;
  /** ms a delivery's timestamp may be from now; default 300,000 (5 minutes). */
  toleranceMs?: number;
  /** ms since the epoch; default `Date.now`. */
  now?: () => number;
}

const MAX_BODY_BYTES = 64 * 1024;

function answer(status: number, text: string): Response {
  return new Response(`${text}\n`, { status, headers: { "content-type": "text/plain; charset=utf-8" } });
}

/**
 * The body as text, read only up to `limit` bytes: `undefined` past it, the rest left unread. A
 * body streamed without `Content-Length` is held to the same limit as one that states it.
 */
async function bodyWithin(request: Request, limit: number): Promise<string | undefined> {
  if (request.body === null) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    length += value.byteLength;
    if (length > limit) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

interface PaidEvent {
  id: string;
  type: string;
  data: { checkout: string; reference: string; amountCents: number; currency: string };
}

function isPaidEvent(value: unknown): value is PaidEvent {
  const event = value as Partial<PaidEvent> | null;
  const data = event?.data;
  return (
    typeof event?.id === "string" &&
    typeof event.type === "string" &&
    typeof data?.checkout === "string" &&
    typeof data.reference === "string" &&
    typeof data.amountCents === "number" &&
    typeof data.currency === "string"
  );
}

export function isPaymentPurpose(value: unknown): value is PaymentPurpose {
  const purpose = value as Partial<PaymentPurpose> | undefined;
  return purpose?.kind === "payment" && typeof purpose.amountCents === "number" && typeof purpose.currency === "string";
}

/** `POST /webhooks/payment`, as a web-standard handler. */
export function paymentWebhook(options: PaymentWebhookOptions): (request: Request) => Promise<Response> {
  const now = options.now ?? Date.now;
  const toleranceMs = options.toleranceMs ?? 300_000;
  return async (request) => {
    if (request.method !== "POST") return answer(405, "Method not allowed");
    if (Number(request.headers.get("content-length") ?? 0) > MAX_BODY_BYTES) return answer(413, "Too large");
    // The signature covers the raw bytes: they are checked before anything is parsed.
    const body = await bodyWithin(request, MAX_BODY_BYTES);
    if (body === undefined) return answer(413, "Too large");
    const refusal = signatureRefusal(options.secret, request.headers.get(SIGNATURE_HEADER), body, now(), toleranceMs);
    if (refusal !== undefined) return answer(400, refusal === "stale" ? "Stale timestamp" : "Invalid signature");
    let event: unknown;
    try {
      event = JSON.parse(body);
    } catch {
      return answer(400, "Not JSON");
    }
    if (!isPaidEvent(event)) return answer(400, "Not a payment event");
    if ((await options.seen.get(`event:${event.id}`)) !== undefined) return answer(409, "Event already processed");
    // Noted once it is answered: a delivery that failed on the way (500) is the provider's to
    // retry, and its retry must be processed. Two copies at once cannot both complete the order.
    const answered = await processEvent(options, event, now);
    // Past twice the tolerance a replay is refused as stale anyway, so the note can lapse then.
    await options.seen.put(`event:${event.id}`, "1", 2 * toleranceMs);
    return answered;
  };
}

/** What a signed, fresh, first delivery of `event` does; throws when the shop could not process it. */
async function processEvent(options: PaymentWebhookOptions, event: PaidEvent, now: () => number): Promise<Response> {
  if (event.type !== "checkout.completed") return answer(200, "Ignored");

  const order = await options.manager.get(event.data.reference);
  if (order === undefined || !isPaymentPurpose(order.purpose)) return answer(404, "Unknown order");
  const { purpose } = order;
  if (event.data.amountCents !== purpose.amountCents || event.data.currency !== purpose.currency) {
    return answer(422, "The amount paid is not the order's");
  }
  try {
    // The webhook speaks for the provider, not for a browser: it completes the order as its own
    // user, and the receipt is kept inside the claim, so a waiting call never finds it missing.
    await options.manager.complete(order.id, {
      user: order.user,
      commit: async () => {
        options.receipts.set(order.id, {
          checkout: event.data.checkout,
          item: purpose.item,
          amountCents: purpose.amountCents,
          currency: purpose.currency,
          paidAt: now(),
        });
      },
    });
  } catch (error) {
    if (!(error instanceof InteractionError)) throw error;
    if (error.code === "EXPIRED") return answer(410, "The order expired before it was paid");
    if (error.code === "NOT_FOUND") return answer(404, "Unknown order");
    return answer(409, "The order is no longer waiting for payment");
  }
  return answer(200, "Paid");
}
