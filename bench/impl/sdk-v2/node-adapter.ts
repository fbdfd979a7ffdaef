/**
 * `node:http` in front of the SDK v2's web-standard transport (its own Node adapter is a
 * separate package, not installed): the body is read whole, an SSE response's head is sent at once and
 * its body written chunk by chunk so that SSE events leave at once, and a closed connection
 * cancels the stream.
 */
import type { IncomingMessage, ServerResponse } from "node:http";

export async function toWebRequest(req: IncomingMessage, res: ServerResponse): Promise<Request> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  }
  const controller = new AbortController();
  res.once("close", () => controller.abort());
  const init: RequestInit = { method: req.method ?? "GET", headers, signal: controller.signal };
  if (req.method === "POST") {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    init.body = Buffer.concat(chunks);
  }
  return new Request(new URL(req.url ?? "/", `http://${req.headers.host ?? "127.0.0.1"}`), init);
}

export async function writeWebResponse(response: Response, res: ServerResponse): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  res.writeHead(response.status, headers);
  // An SSE stream may stay silent for long: its head goes out now, not with the first event.
  if (headers["content-type"]?.startsWith("text/event-stream")) res.flushHeaders();
  if (response.body === null) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  res.once("close", () => void reader.cancel().catch(() => {}));
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) {
        await new Promise<void>((resolve) => {
          res.once("drain", resolve);
          res.once("close", resolve);
        });
      }
    }
  } catch {
    // The client went away while the stream was open; there is no one left to answer.
  }
  res.end();
}
