/**
 * Streamable HTTP: the server's resident memory per idle open session. The server process
 * reports its RSS after a full GC before and after the sessions are opened. The first reading is
 * taken once the server already holds some sessions, so the figure is what one more idle session
 * costs a running server: a fresh process also spends memory once on compiling its hot code and
 * on growing its heap and allocator pools, which is no session's and which the first few hundred
 * sessions would otherwise carry.
 */
import { startHttpServer } from "../impl/process.js";
import { runBounded } from "./loop.js";
import { deleteRawSession, openRawSession } from "./raw-session.js";
import { type Scale, scaledCount, type Workload } from "./types.js";

const SESSIONS = 1_000;
/** Sessions opened, and kept open, before the first reading. */
const WARM_SESSIONS = 200;
const CONCURRENCY = 16;
const TIME_MS = 120_000;

export const httpMemory: Workload = {
  id: "http-memory",
  title: "Streamable HTTP: memory per idle session",
  description: `(RSS after opening up to ${SESSIONS} sessions - RSS before) / sessions opened, both after a GC (--expose-gc), in a server already holding ${WARM_SESSIONS} idle sessions opened the same way; sessions opened with plain fetch, ${CONCURRENCY} at a time, no GET stream.`,
  figures: [{ id: "rss-per-session", label: "server RSS per idle session", unit: "KiB", better: "lower" }],
  async run(impl, scale: Scale) {
    const server = await startHttpServer(impl.httpServer);
    try {
      // One session opened and ended first, so that code loaded on first use is not counted;
      // then the sessions the server already holds when the measured ones arrive.
      await deleteRawSession(server.url, await openRawSession(server.url, 0));
      await runBounded(
        { count: scaledCount(WARM_SESSIONS, scale), timeMs: TIME_MS, workers: CONCURRENCY },
        (_, index) => openRawSession(server.url, SESSIONS + index + 1),
      );
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
