/**
 * Fleet: how long a completed hand-off takes to reach the client. Our client opens a 2025-11-25
 * session on instance A, which answers initialize and holds its GET stream; each hand-off starts
 * with a `tools/call` of `link` answered -32042, then the provider's redirect (the callback)
 * lands on instance B, which completes the interaction in the shared store and tells the session
 * over the bus; the time runs from sending the callback until the client has read
 * `notifications/elicitation/complete` on A's GET stream. The same with the callback on A itself
 * is the base.
 */

import { UrlElicitationRequiredError } from "mcp-handoff";
import { McpClient } from "mcp-handoff/client";
import { StreamableHttpClientTransport } from "mcp-handoff/http";
import { startFleet } from "../impl/fleet.js";
import { rawRequest } from "../impl/raw-http.js";
import { CLIENT_INFO, LINK_TOOL, PROTOCOL_VERSION } from "../impl/shared.js";
import { percentile } from "../stats.js";
import { runBounded } from "./loop.js";
import { type Scale, scaledCount, scaledTime, type Workload } from "./types.js";

const COUNT = 1_000;
const TIME_MS = 5_000;
const WARMUP = 100;
const AUTHORIZATION = { authorization: "Bearer bench" };
let runs = 0;

/** A client of `url` that declares URL-mode elicitation, and resolves `completed(id)` when told. */
async function openClient(url: URL) {
  const client = new McpClient(CLIENT_INFO, { protocolVersion: PROTOCOL_VERSION });
  client.setElicitationHandler(() => ({ action: "accept" }), { modes: ["url"] });
  const waiting = new Map<string, () => void>();
  client.onElicitationComplete = (id) => {
    waiting.get(id)?.();
    waiting.delete(id);
  };
  await client.connect(new StreamableHttpClientTransport(url, { headers: AUTHORIZATION }));
  return {
    /** `tools/call` of `link`; resolves with the elicitation id of its -32042. */
    async startHandoff(): Promise<string> {
      try {
        await client.callTool({ name: LINK_TOOL, arguments: {} });
      } catch (error) {
        const id = error instanceof UrlElicitationRequiredError ? error.elicitations[0]?.elicitationId : undefined;
        if (id !== undefined) return id;
        throw error;
      }
      throw new Error(`${LINK_TOOL} answered without a hand-off`);
    },
    completed: (id: string) => new Promise<void>((resolve) => waiting.set(id, resolve)),
    close: () => client.close(),
  };
}

type Client = Awaited<ReturnType<typeof openClient>>;

/** One hand-off; resolves with ms from sending the callback to `callback` until the client heard. */
async function handoff(client: Client, callback: URL): Promise<number> {
  const id = await client.startHandoff();
  const heard = client.completed(id);
  const started = performance.now();
  const answer = await rawRequest(new URL(`/callback/${encodeURIComponent(id)}`, callback), "POST", AUTHORIZATION);
  if (answer.status !== 204) throw new Error(`the callback answered ${answer.status}`);
  await heard;
  return performance.now() - started;
}

async function latencies(client: Client, callback: URL, scale: Scale): Promise<number[]> {
  const samples: number[] = [];
  const bounds = { count: scaledCount(COUNT, scale), timeMs: scaledTime(TIME_MS, scale), stallMs: 10_000 };
  await runBounded(bounds, async () => samples.push(await handoff(client, callback)));
  return samples;
}

export const fleetHandoff: Workload = {
  id: "fleet-handoff",
  title: "Fleet: hand-off completion across instances",
  description: `Two instance processes sharing Redis (interaction store, event store, bus, session directory); our client's 2025-11-25 session and GET stream on A. Per hand-off: tools/call answered -32042, then the callback POST; ms from sending it until the client read notifications/elicitation/complete, one at a time, up to ${COUNT} or ${TIME_MS} ms per figure after ${WARMUP} warm-up hand-offs; p50 and p99 of each round.`,
  fleet: true,
  figures: [
    { id: "other-p50", label: "callback on B, p50", unit: "ms", better: "lower" },
    { id: "other-p99", label: "callback on B, p99", unit: "ms", better: "lower" },
    { id: "owner-p50", label: "callback on A (holds the stream), p50", unit: "ms", better: "lower" },
    { id: "owner-p99", label: "callback on A (holds the stream), p99", unit: "ms", better: "lower" },
  ],
  within: [
    { label: "p50, B ÷ A", figure: "other-p50", base: "owner-p50" },
    { label: "p99, B ÷ A", figure: "other-p99", base: "owner-p99" },
  ],
  async run(_contestant, scale: Scale) {
    const fleet = await startFleet(2);
    const [a, b] = fleet.instances as [(typeof fleet.instances)[0], (typeof fleet.instances)[0]];
    let client: Client | undefined;
    try {
      client = await openClient(a.url);
      const warm = client;
      await runBounded({ count: scaledCount(WARMUP, scale), timeMs: TIME_MS }, async () => {
        await handoff(warm, b.url);
        await handoff(warm, a.url);
      });
      // Which instance takes the callbacks first alternates from run to run, as the contestants' order does.
      const ownerFirst = runs++ % 2 === 1;
      const early = ownerFirst ? await latencies(client, a.url, scale) : undefined;
      const other = await latencies(client, b.url, scale);
      const owner = early ?? (await latencies(client, a.url, scale));
      return {
        "other-p50": percentile(other, 50),
        "other-p99": percentile(other, 99),
        "owner-p50": percentile(owner, 50),
        "owner-p99": percentile(owner, 99),
      };
    } finally {
      await client?.close();
      await fleet.stop();
    }
  },
};
