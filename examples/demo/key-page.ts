/**
 * The server's own page where the user types the API key: `GET /connect/<elicitationId>` shows a
 * form, `POST` stores the key. Only ids the server issued are served, each once.
 */
import type { IncomingMessage, ServerResponse } from "node:http";

interface Waiting {
  resolve(): void;
  reject(error: Error): void;
}

const MAX_FORM_BYTES = 4096;

export class KeyPage {
  private readonly waiting = new Map<string, Waiting>();

  constructor(
    private readonly prefix: string,
    private readonly store: (key: string) => void,
  ) {}

  urlFor(elicitationId: string): string {
    return `${this.prefix}/${encodeURIComponent(elicitationId)}`;
  }

  /** Resolves when the key for this elicitation has been submitted. */
  expect(elicitationId: string, signal: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      this.waiting.set(elicitationId, { resolve, reject });
      signal.addEventListener("abort", () => {
        this.forget(elicitationId);
        reject(signal.reason);
      });
    });
  }

  forget(elicitationId: string): void {
    this.waiting.delete(elicitationId);
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const id = decodeURIComponent(new URL(req.url ?? "/", "http://localhost").pathname.slice("/connect/".length));
    const waiting = this.waiting.get(id);
    if (!waiting) return page(res, 404, "<p>This link is unknown or was already used.</p>");
    if (req.method === "GET") return page(res, 200, FORM);
    if (req.method !== "POST") return page(res, 405, "<p>Method not allowed.</p>");
    const body = await readBody(req);
    const key = new URLSearchParams(body ?? "").get("api_key")?.trim();
    if (!key) return page(res, 400, `<p>Please enter a key.</p>${FORM}`);
    this.waiting.delete(id);
    this.store(key);
    waiting.resolve();
    return page(res, 200, "<p>Thank you. The key is stored on the server. You can return to your app.</p>");
  }
}

const FORM = `<form method="post"><label>Forecast API key <input name="api_key" type="password" autocomplete="off" required></label> <button type="submit">Save</button></form>`;

function page(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, {
    "content-type": "text/html; charset=utf-8",
    "cache-control": "no-store",
    "content-security-policy": "default-src 'none'; form-action 'self'",
    "x-frame-options": "DENY",
  });
  res.end(`<!doctype html><meta charset="utf-8"><title>Forecast: API key</title><h1>Forecast</h1>${body}`);
}

async function readBody(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_FORM_BYTES) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}
