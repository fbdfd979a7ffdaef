/**
 * stdio: from spawning the server to the answer of the first `tools/list` (handshake included),
 * with the `echo` tool's input declared each implementation's default way, and again declared as
 * a zod schema where that is not the default (ours), as most servers declare their tools.
 */
import { serverCommand } from "../impl/process.js";
import type { Implementation } from "../impl/types.js";
import { median } from "../stats.js";
import { runBounded } from "./loop.js";
import { type Scale, scaledCount, type Workload } from "./types.js";

const REPEATS = 5;
const TIME_MS = 30_000;

/** The median ms from spawning `server` to its first `tools/list` answer, over up to `REPEATS` starts. */
async function coldStart(impl: Implementation, server: string, scale: Scale): Promise<number> {
  const samples: number[] = [];
  await runBounded({ count: scaledCount(REPEATS, scale), timeMs: TIME_MS }, async () => {
    const started = performance.now();
    const session = await impl.openStdio(serverCommand(server));
    try {
      if ((await session.listTools()) < 1) throw new Error("tools/list came back empty");
      samples.push(performance.now() - started);
    } finally {
      await session.close();
    }
  });
  return median(samples);
}

export const stdioColdStart: Workload = {
  id: "stdio-cold-start",
  title: "stdio: cold start",
  description: `Spawn of the server process -> initialize -> first tools/list answered; the median of up to ${REPEATS} starts per round. The zod row declares the echo tool's input as a zod shape for ours (SDK v1 always does; bare and SDK v2 load no zod, so their row repeats the first one's server).`,
  figures: [
    { id: "cold-start", label: "spawn to first tools/list", unit: "ms", better: "lower" },
    { id: "cold-start-zod", label: "spawn to first tools/list, zod-declared tool", unit: "ms", better: "lower" },
  ],
  async run({ client: impl }, scale: Scale) {
    return {
      "cold-start": await coldStart(impl, impl.stdioServer, scale),
      "cold-start-zod": await coldStart(impl, impl.stdioZodServer ?? impl.stdioServer, scale),
    };
  },
};
