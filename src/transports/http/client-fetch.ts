/**
 * The portable path of the Streamable HTTP client: requests through `fetch` (the global one or
 * the user's), answers read from the web `ReadableStream` of each `Response`.
 */
import type { HttpAnswer, HttpCarrier, HttpExchange, HttpRequest } from "./client-http.js";
import { MAX_REDIRECTS, redirectRequest, tooManyRedirects } from "./client-redirect.js";

export function fetchCarrier(fetchFn: typeof fetch): HttpCarrier {
  return {
    path: "fetch",
    send(request: HttpRequest): HttpExchange {
      // One controller per request: a long-lived signal would collect an abort listener per
      // request, since fetch removes its listeners only when the request is garbage-collected.
      const controller = new AbortController();
      const answer = fetchFollowing(fetchFn, request, controller.signal).then((response) => new FetchAnswer(response));
      return { answer, abort: () => controller.abort() };
    },
  };
}

/**
 * `fetch` with `redirect: "manual"`, following redirects here, within the request's origin only
 * (see `redirectRequest`). @throws CrossOriginRedirectError for one to another origin; an Error
 * past `MAX_REDIRECTS`, or where the runtime hides a redirect's target (an `opaqueredirect`).
 */
async function fetchFollowing(fetchFn: typeof fetch, first: HttpRequest, signal: AbortSignal): Promise<Response> {
  let request = first;
  for (let redirects = 0; ; redirects++) {
    const init: RequestInit = { method: request.method, headers: request.headers, signal, redirect: "manual" };
    if (request.body !== undefined) init.body = request.body;
    const response = await fetchFn(request.url, init);
    if (response.type === "opaqueredirect") {
      throw new Error("refused a redirect whose target this runtime does not show: it may lead to another origin");
    }
    const next = nextRequest(request, response);
    if (next === undefined) return response;
    await response.body?.cancel().catch(() => {});
    if (next instanceof Error) throw next;
    if (redirects >= MAX_REDIRECTS) throw tooManyRedirects();
    request = next;
  }
}

/** Where `response` redirects `request`: the next request, `undefined` (no redirect), or the refusal to follow. */
function nextRequest(request: HttpRequest, response: Response): HttpRequest | Error | undefined {
  try {
    return redirectRequest(request, response.status, response.headers.get("location"));
  } catch (error) {
    return error as Error;
  }
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

  readText(onText: (text: string, bytes: number) => void): Promise<void> {
    const decoder = new TextDecoder();
    return this.read((chunk) => onText(decoder.decode(chunk, { stream: true }), chunk.byteLength));
  }

  async cancel(): Promise<void> {
    if (this.cancelled) return;
    this.cancelled = true;
    // A body being read is locked to its reader: cancelling the reader also ends that read.
    await (this.reader ?? this.response.body)?.cancel().catch(() => {});
  }
}
