/**
 * Streamable HTTP with sessions: `tools/call` of `echo` from one client, one call at a time,
 * and from 64 clients at once, each with its own session and one call at a time.
 */
import { startHttpServer } from "../impl/process.js";
import type { HttpSession } from "../impl/types.js";
import { perSecond, runBounded } from "./loop.js";
import { type Scale, scaledCount, scaledTime, type Workload } from "./types.js";

const CLIENTS = 64;
const TIME_MS = 3_000;
/** Calls before the first figure: as many as the stdio rows take, enough for V8 to have compiled every server's path. */
const WARMUP = 5_000;

export const httpCalls: Workload = {
  id: "http-calls",
  title: "Streamable HTTP: tools/call throughput",
  description: `Echo of "hello"; each server's default answer form (SSE for the SDKs and ours, JSON for bare); up to ${TIME_MS} ms per figure after ${WARMUP} warm-up calls.`,
  splits: true,
  figures: [
    { id: "one-client", label: "1 client, 1 in flight", unit: "calls/s", better: "higher" },
    { id: "many-clients", label: `${CLIENTS} clients (own sessions)`, unit: "calls/s", better: "higher" },
  ],
  async run({ client: impl, server: served }, scale: Scale) {
    const server = await startHttpServer(served.httpServer);
    const sessions: HttpSession[] = [];
    try {
      const first = await impl.openHttp(server.url);
      sessions.push(first);
      await runBounded({ count: scaledCount(WARMUP, scale), timeMs: TIME_MS }, () => first.echo("hello"));
      const one = { count: scaledCount(5_000, scale), timeMs: scaledTime(TIME_MS, scale) };
      const oneClient = perSecond(await runBounded(one, () => first.echo("hello")));

      while (sessions.length < CLIENTS) sessions.push(await impl.openHttp(server.url));
      await Promise.all(sessions.map((session) => session.echo("hello")));
      const many = { count: scaledCount(20_000, scale), timeMs: scaledTime(TIME_MS, scale), workers: CLIENTS };
      const manyClients = perSecond(await runBounded(many, (worker) => sessions[worker]!.echo("hello")));
      return { "one-client": oneClient, "many-clients": manyClients };
    } finally {
      await Promise.allSettled(sessions.map((session) => session.close()));
      await server.stop();
    }
  },
};
