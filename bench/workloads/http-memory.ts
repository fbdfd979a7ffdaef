/**
 * Streamable HTTP: the server's resident memory per idle open session, with the client's GET
 * stream open (as the SDK clients and ours keep it) and without. The server process reports its
 * RSS after a full GC before and after the sessions are opened. The first reading is taken once
 * the server already holds some sessions, so the figure is what one more idle session costs a
 * running server: a fresh process also spends memory once on compiling its hot code and on
 * growing its heap and allocator pools, which is no session's and which the first few hundred
 * sessions would otherwise carry.
 *
 * V8's young generation is left out of both readings: after the full GC it holds nothing, but its
 * pages stay resident, and V8 grows it with the allocation rate (from 1 MiB at start to 32 MiB on
 * 64-bit Node 20), not with what is kept. Opening a thousand sessions is enough to grow it, so
 * counting it charged each session some 12 to 25 KiB of empty space, more the more an
 * implementation allocates while answering, and less the more sessions are opened.
 */
import { type ResidentMemory, startHttpServer } from "../impl/process.js";
import { runBounded } from "./loop.js";
import { deleteRawSession, openRawSession, type RawSession } from "./raw-session.js";
import type { Workload } from "./types.js";

const SESSIONS = 2_000;
/**
 * Sessions opened, and kept open, before the first reading: enough for V8 to have compiled the
 * session-opening path of every server measured (a server with more code gets there later; with
 * 200, the next 1,000 sessions still carried up to 3 KiB each of that one-time cost).
 */
const WARM_SESSIONS = 1_000;
const CONCURRENCY = 16;
const TIME_MS = 120_000;

/** Resident bytes a server holds: its RSS less V8's empty young generation. */
function kept(memory: ResidentMemory): number {
  return memory.rss - memory.youngGeneration;
}

/** KiB of server RSS per session opened, with or without its GET stream. */
async function perSession(serverEntry: string, stream: boolean): Promise<number> {
  const server = await startHttpServer(serverEntry);
  const held: RawSession[] = [];
  try {
    // One session opened and ended first, so that code loaded on first use is not counted;
    // then the sessions the server already holds when the measured ones arrive.
    await deleteRawSession(server.url, await openRawSession(server.url, 0, stream));
    const open = async (id: number) => {
      held.push(await openRawSession(server.url, id, stream));
    };
    // Not scaled down with --quick: over a hundred sessions the figure is mostly the granularity
    // of the heap's pages and of malloc's pools (tens of KiB a session either way).
    const bounds = (count: number) => ({ count, timeMs: TIME_MS, workers: CONCURRENCY });
    await runBounded(bounds(WARM_SESSIONS), (_, index) => open(SESSIONS + index + 1));
    const before = kept(await server.memory());
    const opened = await runBounded(bounds(SESSIONS), (_, index) => open(index + 1));
    const after = kept(await server.memory());
    // A figure over fewer sessions than asked for is mostly noise: a server this slow fails the run.
    const wanted = bounds(WARM_SESSIONS).count + bounds(SESSIONS).count;
    if (held.length < wanted) throw new Error(`only ${held.length} of ${wanted} sessions opened within ${TIME_MS} ms`);
    return (after - before) / 1024 / opened.completed;
  } finally {
    for (const session of held) session.closeStream();
    await server.stop();
  }
}

export const httpMemory: Workload = {
  id: "http-memory",
  title: "Streamable HTTP: memory per idle session",
  description: `(RSS after opening up to ${SESSIONS} sessions - RSS before) / sessions opened, both after a GC (--expose-gc) and less V8's young generation (empty after the GC, sized by the allocation rate), in a server already holding ${WARM_SESSIONS} idle sessions opened the same way; sessions opened with raw node:http, ${CONCURRENCY} at a time, each then holding its GET stream open on a connection of its own (as the SDK clients and ours do), and again without one.`,
  figures: [
    {
      id: "rss-per-session-stream",
      label: "server RSS per idle session, GET stream open",
      unit: "KiB",
      better: "lower",
    },
    { id: "rss-per-session", label: "server RSS per idle session, no GET stream", unit: "KiB", better: "lower" },
  ],
  async run({ server }) {
    return {
      "rss-per-session-stream": await perSession(server.httpServer, true),
      "rss-per-session": await perSession(server.httpServer, false),
    };
  },
};
