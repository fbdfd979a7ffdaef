/**
 * Fleet: 2026-07-28 `tools/call` through HAProxy, round robin over three instance processes
 * sharing Redis, against the same client sending to one of those instances directly. Our
 * client, one stateless POST per call.
 */
import { spawnSync } from "node:child_process";
import { createServer } from "node:net";
import { type Haproxy, startHaproxy } from "../../examples/fleet/haproxy.js";
import { startFleet } from "../impl/fleet.js";
import { ours } from "../impl/ours/index.js";
import type { HttpSession } from "../impl/types.js";
import { perSecond, runBounded } from "./loop.js";
import { type Scale, Skipped, scaledCount, scaledTime, type Workload } from "./types.js";

const INSTANCES = 3;
const CLIENTS = 64;
const TIME_MS = 3_000;
let runs = 0;

/** A port on 127.0.0.1 that was free a moment ago. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** @throws Skipped when there is no `haproxy` to run. */
function checkHaproxy(): void {
  const probe = spawnSync("haproxy", ["-v"], { stdio: "ignore" });
  if (probe.error !== undefined || probe.status !== 0) {
    throw new Skipped("haproxy is not installed (apt-get install haproxy), or `haproxy -v` failed");
  }
}

/** calls/s of one client, one call at a time, then of `CLIENTS` clients at once, each one at a time. */
async function throughput(clients: readonly HttpSession[], scale: Scale) {
  const first = clients[0] as HttpSession;
  const one = { count: scaledCount(5_000, scale), timeMs: scaledTime(TIME_MS, scale) };
  const oneClient = perSecond(await runBounded(one, () => first.echo("hello")));
  const many = { count: scaledCount(20_000, scale), timeMs: scaledTime(TIME_MS, scale), workers: clients.length };
  const manyClients = perSecond(await runBounded(many, (worker) => (clients[worker] as HttpSession).echo("hello")));
  return { oneClient, manyClients };
}

async function openClients(url: URL): Promise<HttpSession[]> {
  const open = ours.openStateless as (url: URL) => Promise<HttpSession>;
  const clients: HttpSession[] = [];
  while (clients.length < CLIENTS) clients.push(await open(url));
  // Warm-up: every client once, then one of them for a while.
  await Promise.all(clients.map((client) => client.echo("hello")));
  await runBounded({ count: 1_000, timeMs: TIME_MS }, () => (clients[0] as HttpSession).echo("hello"));
  return clients;
}

export const fleetHaproxy: Workload = {
  id: "fleet-haproxy",
  title: "Fleet: 2026-07-28 tools/call through HAProxy",
  description: `Three instance processes sharing Redis behind HAProxy on 127.0.0.1 as examples/fleet/haproxy.ts configures it (round robin, no stickiness, backend connections kept and reused: \`option http-keep-alive\`, \`http-reuse safe\`, each request still balanced on its own), against one of them directly; our 2026-07-28 client, echo of "hello", up to ${TIME_MS} ms per figure after a warm-up.`,
  fleet: true,
  figures: [
    { id: "proxy-one", label: `through HAProxy (${INSTANCES} instances), 1 client`, unit: "calls/s", better: "higher" },
    {
      id: "proxy-many",
      label: `through HAProxy (${INSTANCES} instances), ${CLIENTS} clients`,
      unit: "calls/s",
      better: "higher",
    },
    { id: "direct-one", label: "1 instance directly, 1 client", unit: "calls/s", better: "higher" },
    { id: "direct-many", label: `1 instance directly, ${CLIENTS} clients`, unit: "calls/s", better: "higher" },
  ],
  within: [
    { label: "1 client, HAProxy ÷ direct", figure: "proxy-one", base: "direct-one" },
    { label: `${CLIENTS} clients, HAProxy ÷ direct`, figure: "proxy-many", base: "direct-many" },
  ],
  async run(_contestant, scale: Scale) {
    checkHaproxy();
    const fleet = await startFleet(INSTANCES);
    let proxy: Haproxy | undefined;
    const clients: HttpSession[] = [];
    try {
      const backends = fleet.instances.map((instance, i) => ({
        name: `i${i}`,
        port: Number(instance.url.port),
      }));
      proxy = await startHaproxy({ port: await freePort(), backends, reuseConnections: true });
      const proxied = new URL("/mcp", proxy.origin);
      const direct = fleet.instances[0]?.url as URL;
      // Which way goes first alternates from run to run, as the contestants' order does.
      const order = runs++ % 2 === 0 ? [proxied, direct] : [direct, proxied];
      const figures = new Map<URL, Awaited<ReturnType<typeof throughput>>>();
      for (const url of order) {
        const opened = await openClients(url);
        clients.push(...opened);
        figures.set(url, await throughput(opened, scale));
      }
      const viaProxy = figures.get(proxied);
      const viaDirect = figures.get(direct);
      return {
        "proxy-one": viaProxy?.oneClient ?? Number.NaN,
        "proxy-many": viaProxy?.manyClients ?? Number.NaN,
        "direct-one": viaDirect?.oneClient ?? Number.NaN,
        "direct-many": viaDirect?.manyClients ?? Number.NaN,
      };
    } finally {
      await Promise.allSettled(clients.map((client) => client.close()));
      await proxy?.stop();
      await fleet.stop();
    }
  },
};
