/** stdio: ms per `tools/call` of `echo` with a large text, one call at a time. */
import { serverCommand } from "../impl/process.js";
import { msPerOperation, runBounded } from "./loop.js";
import { type Scale, scaledCount, scaledTime, type Workload } from "./types.js";

const KIB = 1024;
const SIZES = [
  { id: "1k", label: "1 KiB", bytes: KIB, count: 1_000, timeMs: 2_000 },
  { id: "64k", label: "64 KiB", bytes: 64 * KIB, count: 200, timeMs: 2_000 },
  { id: "1m", label: "1 MiB", bytes: KIB * KIB, count: 40, timeMs: 3_000 },
  { id: "8m", label: "8 MiB", bytes: 8 * KIB * KIB, count: 8, timeMs: 5_000 },
] as const;

export const stdioPayload: Workload = {
  id: "stdio-payload",
  title: "stdio: echo of large strings",
  description:
    "One echo at a time of an ASCII string of each size (the answer's length is checked); one warm-up call per size.",
  figures: SIZES.map(({ id, label }) => ({ id, label, unit: "ms/call", better: "lower" as const })),
  async run({ client: impl }, scale: Scale) {
    const session = await impl.openStdio(serverCommand(impl.stdioServer));
    try {
      const figures: Record<string, number> = {};
      for (const { id, bytes, count, timeMs } of SIZES) {
        const text = "x".repeat(bytes);
        const call = async () => {
          const echoed = await session.echo(text);
          if (echoed.length !== bytes) throw new Error(`echo of ${bytes} bytes came back with ${echoed.length}`);
        };
        await call();
        figures[id] = msPerOperation(
          await runBounded({ count: scaledCount(count, scale), timeMs: scaledTime(timeMs, scale) }, call),
        );
      }
      return figures;
    } finally {
      await session.close();
    }
  },
};
