/**
 * Revision 2026-07-28 over Streamable HTTP: `tools/call` of `echo` as stateless POSTs (no
 * session, the version and capabilities in each request's `_meta`), one call at a time from one
 * client, and from 64 clients at once.
 */
import { startHttpServer } from "../impl/process.js";
import type { HttpSession } from "../impl/types.js";
import { perSecond, runBounded } from "./loop.js";
import { type Scale, scaledCount, scaledTime, type Workload } from "./types.js";

const CLIENTS = 64;
const TIME_MS = 3_000;
/** Calls before the first figure: as many as the stdio rows take, enough for V8 to have compiled every server's path. */
const WARMUP = 5_000;

export const httpStateless: Workload = {
  id: "http-stateless",
  title: "Streamable HTTP, revision 2026-07-28: tools/call throughput",
  description: `Echo of "hello", one stateless POST per call, each server's default answer form (JSON unless a notification comes first; bare answers JSON); the clients are pinned to 2026-07-28 (ours and SDK v2 send server/discover once at connect); up to ${TIME_MS} ms per figure after ${WARMUP} warm-up calls. SDK v1 has no 2026-07-28.`,
  splits: true,
  stateless: true,
  figures: [
    { id: "one-client", label: "1 client, 1 in flight", unit: "calls/s", better: "higher" },
    { id: "many-clients", label: `${CLIENTS} clients`, unit: "calls/s", better: "higher" },
  ],
  async run({ client, server: served }, scale: Scale) {
    const open = client.openStateless;
    const entry = served.statelessServer;
    if (open === undefined || entry === undefined) throw new Error("no revision 2026-07-28 here");
    const server = await startHttpServer(entry);
    const clients: HttpSession[] = [];
    try {
      const first = await open(server.url);
      clients.push(first);
      await runBounded({ count: scaledCount(WARMUP, scale), timeMs: TIME_MS }, () => first.echo("hello"));
      const one = { count: scaledCount(5_000, scale), timeMs: scaledTime(TIME_MS, scale) };
      const oneClient = perSecond(await runBounded(one, () => first.echo("hello")));

      while (clients.length < CLIENTS) clients.push(await open(server.url));
      await Promise.all(clients.map((each) => each.echo("hello")));
      const many = { count: scaledCount(20_000, scale), timeMs: scaledTime(TIME_MS, scale), workers: CLIENTS };
      const manyClients = perSecond(await runBounded(many, (worker) => clients[worker]!.echo("hello")));
      return { "one-client": oneClient, "many-clients": manyClients };
    } finally {
      await Promise.allSettled(clients.map((each) => each.close()));
      await server.stop();
    }
  },
};
