/**
 * The web-standard side of an HTTP exchange (`Request` in, `Response` out), used by
 * `StreamableHttpServer.handle` on any runtime (Deno, Bun, workers, Node's `fetch` servers).
 */
import { type BodyText, readBodyText } from "./body.js";
import type { HttpReply, RequestView } from "./exchange.js";
import { headersRecord } from "./headers.js";

/** A `Request` as the server logic reads it. */
export class WebRequestView implements RequestView {
  constructor(private readonly request: Request) {}

  get method(): string {
    return this.request.method;
  }

  get headers(): Headers {
    return this.request.headers;
  }

  host(): string {
    return this.request.headers.get("host") ?? new URL(this.request.url).host;
  }

  headerRecord(): Record<string, string> {
    return headersRecord(this.request.headers);
  }

  readBody(maxBytes: number, timeoutMs: number): Promise<BodyText> {
    return readBodyText(this.request, maxBytes, timeoutMs);
  }

  onAbort(listener: () => void): void {
    if (this.request.signal.aborted) listener();
    else this.request.signal.addEventListener("abort", listener, { once: true });
  }
}

const encoder = new TextEncoder();

/** The `Response` for a reply; an SSE stream becomes a body that yields each event as it is written. */
export function toWebResponse(reply: HttpReply): Response {
  const { stream } = reply;
  if (stream === undefined) return new Response(reply.body ?? null, { status: reply.status, headers: reply.headers });
  // Queued bytes count against a high-water mark of 0, so -desiredSize is what the client has not read.
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        stream.attach({
          write: (text) => controller.enqueue(encoder.encode(text)),
          end: () => controller.close(),
          get writableLength() {
            return -(controller.desiredSize ?? 0);
          },
          destroy: () => controller.error(new Error("The client is not reading the event stream")),
        });
      },
      cancel() {
        stream.cancel();
      },
    },
    { highWaterMark: 0, size: (chunk) => chunk.byteLength },
  );
  return new Response(body, { status: reply.status, headers: reply.headers });
}
