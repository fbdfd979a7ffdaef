/**
 * Fleet: `tools/call` of a 2025-11-25 session on the instance that owns it and on one that does
 * not. Each session is opened on instance A (A answers initialize, and A holds its GET stream);
 * its calls then go either to A or to B, which serves them from a replica made from the shared
 * session directory. Raw `node:http` POSTs, as the bare client sends them, so that the figures
 * are the servers'.
 */
import { startFleet } from "../impl/fleet.js";
import { answerTo, rawRequest, resultOf } from "../impl/raw-http.js";
import { ECHO_TOOL, firstText, PROTOCOL_VERSION } from "../impl/shared.js";
import { perSecond, runBounded } from "./loop.js";
import { deleteRawSession, openRawSession, type RawSession } from "./raw-session.js";
import { type Scale, scaledCount, scaledTime, type Workload } from "./types.js";

const SESSIONS = 64;
const TIME_MS = 3_000;
const ACCEPT = "application/json, text/event-stream";
let runs = 0;

/** One `tools/call` of `echo` in `session`, sent to `url`. */
async function echo(url: URL, session: RawSession, id: number): Promise<void> {
  const headers = {
    "content-type": "application/json",
    accept: ACCEPT,
    "mcp-session-id": session.id,
    "mcp-protocol-version": PROTOCOL_VERSION,
  };
  const params = { name: ECHO_TOOL, arguments: { text: "hello" } };
  const answer = await rawRequest(
    url,
    "POST",
    headers,
    JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params }),
  );
  if (answer.status !== 200) throw new Error(`tools/call answered ${answer.status}`);
  const text = firstText(resultOf(answerTo(answer, id)));
  if (text !== "hello") throw new Error(`echo answered ${JSON.stringify(text)}`);
}

/** calls/s of one session, one call at a time, then of every session at once, each one at a time. */
async function throughput(url: URL, sessions: readonly RawSession[], scale: Scale) {
  const first = sessions[0] as RawSession;
  const one = { count: scaledCount(5_000, scale), timeMs: scaledTime(TIME_MS, scale) };
  const oneSession = perSecond(await runBounded(one, (_, i) => echo(url, first, i + 10)));
  const many = { count: scaledCount(20_000, scale), timeMs: scaledTime(TIME_MS, scale), workers: sessions.length };
  const manySessions = perSecond(
    await runBounded(many, (worker, i) => echo(url, sessions[worker] as RawSession, i + 10)),
  );
  return { oneSession, manySessions };
}

export const fleetSessionCalls: Workload = {
  id: "fleet-session-calls",
  title: "Fleet: tools/call of a 2025-11-25 session on a non-owning instance",
  description: `Two instance processes sharing Redis; every session opened on A (initialize and GET stream), then its echo calls sent to A or to B (which did not answer initialize and holds no stream), raw node:http POSTs, up to ${TIME_MS} ms per figure after a warm-up on both.`,
  fleet: true,
  figures: [
    { id: "other-one", label: "on B (non-owning), 1 session", unit: "calls/s", better: "higher" },
    { id: "other-many", label: `on B (non-owning), ${SESSIONS} sessions`, unit: "calls/s", better: "higher" },
    { id: "owner-one", label: "on A (owning), 1 session", unit: "calls/s", better: "higher" },
    { id: "owner-many", label: `on A (owning), ${SESSIONS} sessions`, unit: "calls/s", better: "higher" },
  ],
  within: [
    { label: "1 session, B ÷ A", figure: "other-one", base: "owner-one" },
    { label: `${SESSIONS} sessions, B ÷ A`, figure: "other-many", base: "owner-many" },
  ],
  async run(_contestant, scale: Scale) {
    const fleet = await startFleet(2);
    const [a, b] = fleet.instances as [(typeof fleet.instances)[0], (typeof fleet.instances)[0]];
    const sessions: RawSession[] = [];
    try {
      while (sessions.length < SESSIONS) sessions.push(await openRawSession(a.url, sessions.length + 1, true));
      // Warm-up: B makes its replicas, both instances run optimized code.
      for (const url of [a.url, b.url]) {
        await Promise.all(sessions.map((session, i) => echo(url, session, i + 1)));
        await runBounded({ count: scaledCount(1_000, scale), timeMs: TIME_MS }, (_, i) =>
          echo(url, sessions[0] as RawSession, i + 1),
        );
      }
      // Which instance goes first alternates from run to run, as the contestants' order does.
      const ownerFirst = runs++ % 2 === 1;
      const owner = ownerFirst ? await throughput(a.url, sessions, scale) : undefined;
      const other = await throughput(b.url, sessions, scale);
      const ownerAfter = owner ?? (await throughput(a.url, sessions, scale));
      return {
        "other-one": other.oneSession,
        "other-many": other.manySessions,
        "owner-one": ownerAfter.oneSession,
        "owner-many": ownerAfter.manySessions,
      };
    } finally {
      await Promise.allSettled(sessions.map((session) => deleteRawSession(a.url, session)));
      await fleet.stop();
    }
  },
};
