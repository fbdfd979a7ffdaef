/**
 * Streamable HTTP: the server's resident memory per idle open session. The server process
 * reports its RSS after a full GC before and after the sessions are opened.
 */
import { startHttpServer } from "../impl/process.js";
import { runBounded } from "./loop.js";
import { deleteRawSession, openRawSession } from "./raw-session.js";
import { type Scale, scaledCount, type Workload } from "./types.js";

const SESSIONS = 1_000;
const CONCURRENCY = 16;
const TIME_MS = 120_000;

export const httpMemory: Workload = {
  id: "http-memory",
  title: "Streamable HTTP: memory per idle session",
  description: `(RSS after opening up to ${SESSIONS} sessions - RSS before) / sessions opened, both after a GC (--expose-gc); sessions opened with plain fetch, ${CONCURRENCY} at a time, no GET stream.`,
  figures: [{ id: "rss-per-session", label: "server RSS per idle session", unit: "KiB", better: "lower" }],
  async run(impl, scale: Scale) {
    const server = await startHttpServer(impl.httpServer);
    try {
      // One session opened and ended first, so that code loaded on first use is not counted.
      await deleteRawSession(server.url, await openRawSession(server.url, 0));
      const before = await server.rss();
      const opened = await runBounded(
        { count: scaledCount(SESSIONS, scale), timeMs: TIME_MS, workers: CONCURRENCY },
        (_, index) => openRawSession(server.url, index + 1),
      );
      const after = await server.rss();
      const perSession = opened.completed === 0 ? Number.NaN : (after - before) / 1024 / opened.completed;
      return { "rss-per-session": perSession };
    } finally {
      await server.stop();
    }
  },
};
