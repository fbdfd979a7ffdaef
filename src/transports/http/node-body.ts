/** Reads a `node:http` request body into one Buffer, never holding more than the allowed bytes. */
import type { IncomingMessage } from "node:http";
import { type BodyText, decodeBody, TIMED_OUT } from "./body.js";
import { bodyDeadline } from "./body-deadlines.js";
import { MAX_DRAIN_BYTES } from "./constants.js";

const TOO_LARGE: BodyText = { ok: false, reason: "too-large" };
const INCOMPLETE: BodyText = { ok: false, reason: "incomplete" };

/**
 * The body of `req` as UTF-8 text, up to `maxBytes` bytes. A declared `Content-Length` over the
 * limit is refused before reading; a streamed body is cut off as soon as it passes the limit.
 * When middleware has already read the request to its end, what it kept in `req.body` is the
 * body: text or bytes as they are (`express.text()`, `express.raw()`), anything else as JSON
 * (`express.json()`). A request still unread is read even if `req.body` is set, as Express 4's
 * parsers set it to `{}` for a request they skip. The rest of a refused body is read and
 * dropped, up to `MAX_DRAIN_BYTES`, so the answer reaches the client and the connection can be
 * reused; past that the connection is closed.
 * A body the client stops sending before its end (it went away) is "incomplete"; one still
 * arriving after `timeoutMs` is "timeout" (the server then answers 408 and closes the connection).
 */
export function readNodeBody(
  req: IncomingMessage & { body?: unknown },
  maxBytes: number,
  timeoutMs = Number.POSITIVE_INFINITY,
): Promise<BodyText> {
  const declared = Number(req.headers["content-length"] ?? Number.NaN);
  if (Number.isFinite(declared) && declared > maxBytes) {
    drain(req);
    return Promise.resolve(TOO_LARGE);
  }
  if (req.readableEnded) return Promise.resolve(keptBody(req.body, maxBytes));
  // The client left before anything read its body: no event will come to wait for.
  if (req.destroyed) return Promise.resolve(INCOMPLETE);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const clearDeadline =
      timeoutMs === Number.POSITIVE_INFINITY
        ? undefined
        : bodyDeadline(timeoutMs, () => {
            detach();
            resolve(TIMED_OUT);
          });
    const detach = () => {
      clearDeadline?.();
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
      req.off("close", onClose);
    };
    // Strings arrive when middleware set an encoding on the request; they are counted as bytes too.
    const onData = (data: Buffer | string) => {
      const chunk = typeof data === "string" ? Buffer.from(data) : data;
      total += chunk.length;
      if (total > maxBytes) {
        detach();
        drain(req);
        resolve(TOO_LARGE);
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      detach();
      resolve(decodeBody(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, total)));
    };
    const onError = () => {
      detach();
      resolve(INCOMPLETE);
    };
    const onClose = onError;
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
    req.on("close", onClose);
    // A 'data' listener does not restart a request that middleware paused.
    req.resume();
  });
}

/**
 * Reads and drops the rest of a refused body while the answer goes out; a client still sending
 * after `MAX_DRAIN_BYTES` more loses its connection, so a body without end costs no more than that.
 */
function drain(req: IncomingMessage): void {
  let dropped = 0;
  const onData = (chunk: Buffer | string) => {
    dropped += typeof chunk === "string" ? Buffer.byteLength(chunk) : chunk.length;
    if (dropped <= MAX_DRAIN_BYTES) return;
    req.off("data", onData);
    req.destroy();
  };
  req.on("data", onData);
  req.once("end", () => req.off("data", onData));
  req.resume();
}

/** The body middleware kept after reading the request; nothing kept is an empty body. */
function keptBody(body: unknown, maxBytes: number): BodyText {
  if (body === undefined) return { ok: true, text: "" };
  if (typeof body === "string") return Buffer.byteLength(body) > maxBytes ? TOO_LARGE : { ok: true, text: body };
  if (body instanceof Uint8Array) return body.byteLength > maxBytes ? TOO_LARGE : decodeBody(body);
  const text = JSON.stringify(body);
  return Buffer.byteLength(text) > maxBytes ? TOO_LARGE : { ok: true, text };
}
