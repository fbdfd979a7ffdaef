/**
 * The portable path of the Streamable HTTP client: requests through `fetch` (the global one or
 * the user's), answers read from the web `ReadableStream` of each `Response`.
 */
import type { HttpAnswer, HttpCarrier, HttpExchange, HttpRequest } from "./client-http.js";

export function fetchCarrier(fetchFn: typeof fetch): HttpCarrier {
  return {
    path: "fetch",
    send(request: HttpRequest): HttpExchange {
      // One controller per request: a long-lived signal would collect an abort listener per
      // request, since fetch removes its listeners only when the request is garbage-collected.
      const controller = new AbortController();
      const init: RequestInit = { method: request.method, headers: request.headers, signal: controller.signal };
      if (request.body !== undefined) init.body = request.body;
      const answer = fetchFn(request.url, init).then((response) => new FetchAnswer(response));
      return { answer, abort: () => controller.abort() };
    },
  };
}

class FetchAnswer implements HttpAnswer {
  private reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  private cancelled = false;

  constructor(private readonly response: Response) {}

  get status(): number {
    return this.response.status;
  }

  get statusText(): string {
    return this.response.statusText;
  }

  header(name: string): string | null {
    return this.response.headers.get(name);
  }

  async read(onChunk: (chunk: Uint8Array) => void): Promise<void> {
    const body = this.response.body;
    if (body === null || this.cancelled) return;
    const reader = body.getReader();
    this.reader = reader;
    for (;;) {
      const { done, value } = await reader.read();
      if (done || this.cancelled) return;
      onChunk(value);
    }
  }

  readText(onText: (text: string) => void): Promise<void> {
    const decoder = new TextDecoder();
    return this.read((chunk) => onText(decoder.decode(chunk, { stream: true })));
  }

  async cancel(): Promise<void> {
    if (this.cancelled) return;
    this.cancelled = true;
    // A body being read is locked to its reader: cancelling the reader also ends that read.
    await (this.reader ?? this.response.body)?.cancel().catch(() => {});
  }
}
