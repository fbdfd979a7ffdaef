/**
 * How the payment provider signs its webhooks, and how the shop checks them: the header
 * `Fake-Pay-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">` under the webhook
 * secret both were given. The timestamp is inside what is signed, so an old delivery cannot be
 * made fresh without the secret.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

export const SIGNATURE_HEADER = "fake-pay-signature";

/** The signature header of `body` sent at `timestampSec` (unix seconds). */
export function signWebhook(secret: string, body: string, timestampSec: number): string {
  const mac = createHmac("sha256", secret).update(`${timestampSec}.${body}`).digest("hex");
  return `t=${timestampSec},v1=${mac}`;
}

/** Why a delivery is refused, or `undefined` when it is signed by `secret` within `toleranceMs` of `nowMs`. */
export function signatureRefusal(
  secret: string,
  header: string | null,
  body: string,
  nowMs: number,
  toleranceMs: number,
): "unsigned" | "bad signature" | "stale" | undefined {
  const parsed = /^t=(\d{1,12}),v1=([0-9a-f]{64})$/.exec(header ?? "");
  if (parsed === null) return "unsigned";
  const [, t = "", given = ""] = parsed;
  const expected = Buffer.from(signWebhook(secret, body, Number(t)).slice(`t=${t},v1=`.length), "hex");
  // Checked before the time, so that nobody learns anything from an unsigned guess.
  if (!timingSafeEqual(Buffer.from(given, "hex"), expected)) return "bad signature";
  if (Math.abs(nowMs - Number(t) * 1000) > toleranceMs) return "stale";
  return undefined;
}
