/**
 * The part every HTTP server entry shares: listen on 127.0.0.1 on a free port, print it, and
 * answer "rss" on the IPC channel with the resident memory after a full GC (when `--expose-gc`
 * made one available), and with the size of V8's young generation then. The process ends when
 * the bench goes away.
 */
import { createServer, type RequestListener } from "node:http";
import type { AddressInfo } from "node:net";
import { getHeapSpaceStatistics } from "node:v8";

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
      // After a full GC the young generation holds nothing, yet its pages stay resident: V8 grows
      // it (up to 2 × --max-semi-space-size) with the allocation rate, not with what is kept.
      const young = getHeapSpaceStatistics()
        .filter((space) => space.space_name === "new_space" || space.space_name === "new_large_object_space")
        .reduce((sum, space) => sum + space.physical_space_size, 0);
      process.send?.({ rss: process.memoryUsage().rss, youngGeneration: young });
    });
  });
  process.once("disconnect", () => process.exit(0));
  process.once("SIGTERM", () => process.exit(0));
}
