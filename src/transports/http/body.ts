/** Reads a request body as UTF-8 text without ever holding more than the allowed number of bytes. */
import { MAX_DRAIN_BYTES } from "./constants.js";

/**
 * A request body as text, or why there is none: too large, not UTF-8, cut off (the client went
 * away), or not complete within the time allowed.
 */
export type BodyText =
  | { ok: true; text: string }
  | { ok: false; reason: "too-large" | "not-utf8" | "incomplete" | "timeout" };

/** The refusal of a body that did not arrive in time. */
export const TIMED_OUT: BodyText = { ok: false, reason: "timeout" };

/**
 * Reads `request.body` up to `maxBytes` bytes. A declared `Content-Length` over the limit is
 * refused before reading; a streamed body is refused as soon as it passes the limit. The rest of
 * a refused body is read and dropped in the background, up to `MAX_DRAIN_BYTES`, then cancelled:
 * on some runtimes cancelling resets the connection before the client reads the answer. A body
 * whose stream fails (the client aborted) is "incomplete"; one not read to its end within
 * `timeoutMs` is "timeout", and its stream is cancelled.
 */
export async function readBodyText(
  request: Request,
  maxBytes: number,
  timeoutMs = Number.POSITIVE_INFINITY,
): Promise<BodyText> {
  const declared = Number(request.headers.get("content-length") ?? Number.NaN);
  if (Number.isFinite(declared) && declared > maxBytes) {
    if (request.body !== null && !request.bodyUsed) drain(request.body.getReader());
    return { ok: false, reason: "too-large" };
  }
  // Read already (by middleware, say) and gone: what is left is an empty body.
  if (request.body === null || request.bodyUsed) return { ok: true, text: "" };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<"late">((resolve) => {
    if (timeoutMs !== Number.POSITIVE_INFINITY) timer = setTimeout(() => resolve("late"), timeoutMs);
  });
  for (;;) {
    let read: ReadableStreamReadResult<Uint8Array> | "late";
    try {
      read = await Promise.race([reader.read(), late]);
    } catch {
      clearTimeout(timer);
      return { ok: false, reason: "incomplete" };
    }
    if (read === "late") {
      await reader.cancel().catch(() => {});
      return TIMED_OUT;
    }
    const { done, value } = read;
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      clearTimeout(timer);
      drain(reader);
      return { ok: false, reason: "too-large" };
    }
    chunks.push(value);
  }
  clearTimeout(timer);
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return decodeBody(bytes);
}

/** Reads and drops what is left of a refused body, at most `MAX_DRAIN_BYTES`, then cancels the rest. */
function drain(reader: ReadableStreamDefaultReader<Uint8Array>): void {
  void (async () => {
    let dropped = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      dropped += value.byteLength;
      if (dropped > MAX_DRAIN_BYTES) {
        await reader.cancel();
        return;
      }
    }
  })().catch(() => {});
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** A body's bytes as text; a byte-order mark is dropped, malformed UTF-8 is refused. */
export function decodeBody(bytes: Uint8Array): BodyText {
  try {
    return { ok: true, text: utf8.decode(bytes) };
  } catch {
    return { ok: false, reason: "not-utf8" };
  }
}
