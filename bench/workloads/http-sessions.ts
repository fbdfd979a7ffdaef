/** Streamable HTTP: whole session lifetimes per second, each with the implementation's own client. */
import { startHttpServer } from "../impl/process.js";
import { perSecond, runBounded } from "./loop.js";
import { type Scale, scaledCount, scaledTime, type Workload } from "./types.js";

const TIME_MS = 3_000;

export const httpSessions: Workload = {
  id: "http-sessions",
  title: "Streamable HTTP: session setup",
  description:
    "initialize + notifications/initialized + DELETE, one session at a time, through each client (the SDK clients and ours also open their GET stream after initialized; bare does not).",
  splits: true,
  figures: [{ id: "setup", label: "session setup and teardown", unit: "sessions/s", better: "higher" }],
  async run({ client: impl, server: served }, scale: Scale) {
    const server = await startHttpServer(served.httpServer);
    const lifetime = async () => {
      const session = await impl.openHttp(server.url);
      await session.close();
    };
    try {
      await runBounded({ count: scaledCount(30, scale), timeMs: TIME_MS }, lifetime);
      const bounds = { count: scaledCount(2_000, scale), timeMs: scaledTime(TIME_MS, scale) };
      return { setup: perSecond(await runBounded(bounds, lifetime)) };
    } finally {
      await server.stop();
    }
  },
};
