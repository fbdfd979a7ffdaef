/** stdio: from spawning the server to the answer of the first `tools/list` (handshake included). */
import { serverCommand } from "../impl/process.js";
import { median } from "../stats.js";
import { runBounded } from "./loop.js";
import { type Scale, scaledCount, type Workload } from "./types.js";

const REPEATS = 5;
const TIME_MS = 30_000;

export const stdioColdStart: Workload = {
  id: "stdio-cold-start",
  title: "stdio: cold start",
  description: `Spawn of the server process -> initialize -> first tools/list answered; the median of up to ${REPEATS} starts per round.`,
  figures: [{ id: "cold-start", label: "spawn to first tools/list", unit: "ms", better: "lower" }],
  async run({ client: impl }, scale: Scale) {
    const samples: number[] = [];
    await runBounded({ count: scaledCount(REPEATS, scale), timeMs: TIME_MS }, async () => {
      const started = performance.now();
      const session = await impl.openStdio(serverCommand(impl.stdioServer));
      try {
        if ((await session.listTools()) < 1) throw new Error("tools/list came back empty");
        samples.push(performance.now() - started);
      } finally {
        await session.close();
      }
    });
    return { "cold-start": median(samples) };
  },
};
