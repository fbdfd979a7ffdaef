/** Runs a web-standard handler (`Request` → `Response`) on a `node:http` request. */
import type { IncomingMessage, ServerResponse } from "node:http";

export async function serveWeb(
  handler: (request: Request) => Promise<Response> | Response,
  req: IncomingMessage,
  res: ServerResponse,
  origin: string,
): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === "string") headers.set(name, value);
  }
  const method = req.method ?? "GET";
  const body = method === "GET" || method === "HEAD" ? undefined : Buffer.concat(chunks);
  const response = await handler(new Request(new URL(req.url ?? "/", origin), { method, headers, body }));
  const out: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") out[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) out["set-cookie"] = cookies;
  res.writeHead(response.status, out).end(Buffer.from(await response.arrayBuffer()));
}
