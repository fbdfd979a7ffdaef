/**
 * How this machine scales with payload size before any transport is involved: one message
 * carrying a string of each size, taken through the steps every JSON-RPC writer and reader takes
 * at least once (JSON.stringify, UTF-8 encoding, decoding, JSON.parse), in this process, no I/O.
 * Where 32 MiB takes more than four times as long as 8 MiB here (caches, fresh memory pages),
 * no implementation's 32 MiB echo over a socket, which takes those steps on both sides, can
 * scale better than that.
 */
import { median } from "./stats.js";

export interface PayloadFloor {
  /** ms for one round trip of a message with an 8 MiB string (median). */
  ms8MiB: number;
  /** ms for the same with a 32 MiB string (median). */
  ms32MiB: number;
}

const MIB = 1024 * 1024;
const REPEATS = 7;

function roundTrip(text: string): number {
  const started = performance.now();
  const json = JSON.stringify({ jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text }] } });
  const bytes = Buffer.from(json, "utf8");
  const parsed = JSON.parse(bytes.toString("utf8")) as { result: { content: { text: string }[] } };
  const elapsed = performance.now() - started;
  if (parsed.result.content[0]?.text.length !== text.length) throw new Error("the round trip lost characters");
  return elapsed;
}

/** Medians over `REPEATS` round trips of each size, the sizes alternating, after one of each. */
export function payloadFloor(): PayloadFloor {
  const small = "x".repeat(8 * MIB);
  const large = "x".repeat(32 * MIB);
  roundTrip(small);
  roundTrip(large);
  const smallMs: number[] = [];
  const largeMs: number[] = [];
  for (let i = 0; i < REPEATS; i++) {
    smallMs.push(roundTrip(small));
    largeMs.push(roundTrip(large));
  }
  return { ms8MiB: median(smallMs), ms32MiB: median(largeMs) };
}
