/**
 * The part every HTTP server entry shares: listen on 127.0.0.1 on a free port, print it, and
 * answer "rss" on the IPC channel with the resident memory after a full GC (when `--expose-gc`
 * made one available). The process ends when the bench goes away.
 */
import { createServer, type RequestListener } from "node:http";
import type { AddressInfo } from "node:net";

export async function serveHttp(listener: RequestListener): Promise<void> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  process.stdout.write(`${(server.address() as AddressInfo).port}\n`);
  process.on("message", (message) => {
    if (message !== "rss") return;
    const gc = (globalThis as { gc?: () => void }).gc;
    // Two passes and a turn of the event loop let finalizers and weak references settle.
    gc?.();
    setImmediate(() => {
      gc?.();
      process.send?.({ rss: process.memoryUsage().rss });
    });
  });
  process.once("disconnect", () => process.exit(0));
  process.once("SIGTERM", () => process.exit(0));
}
